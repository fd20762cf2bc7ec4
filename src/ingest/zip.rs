//! A zip archive holding one file, as FIDE's list downloads are (one TXT or XML list each): the
//! one member found through the archive's central directory and read through its local header,
//! stored or deflated. Our own small reader (no zip crate is a dependency): the End of central
//! directory record (PKWARE's APPNOTE.TXT 6.3.10, §4.3.16), the central directory's file headers
//! (§4.3.12) and the local file header (§4.3.7); compression methods 0 (stored) and 8 (deflated,
//! §4.4.5), read with flate2's raw deflate; the CRC-32 and size the directory gives are checked at
//! the member's end, so that a damaged archive is refused rather than read short.

use std::fs::File;
use std::io::{BufRead, Read, Seek, SeekFrom};

/// The one file of an archive: where its data starts and how to read it.
#[derive(Debug, PartialEq)]
pub struct Member {
    pub name: String,
    pub deflated: bool,
    pub compressed_size: u64,
    pub size: u64,
    pub crc32: u32,
    /// Where the member's data begins, after its local header.
    pub data_offset: u64,
}

/// What is wrong with an archive, said for people (no byte of the archive is echoed).
pub type Problem = String;

/// §4.3.16: the End of central directory record's signature and fixed size.
const END_SIGNATURE: [u8; 4] = *b"PK\x05\x06";
const END_SIZE: usize = 22;
/// §4.3.12: a central directory file header's signature and fixed size.
const CENTRAL_SIGNATURE: [u8; 4] = *b"PK\x01\x02";
const CENTRAL_SIZE: usize = 46;
/// §4.3.7: a local file header's signature and fixed size.
pub const LOCAL_SIGNATURE: [u8; 4] = *b"PK\x03\x04";
const LOCAL_SIZE: usize = 30;
/// §4.3.16: the archive comment after the record is at most this long.
const MAX_COMMENT: usize = 0xFFFF;

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Where the central directory is and how many entries it holds (§4.3.16), from the record found
/// last in the file's tail (the archive comment that follows it may hold anything).
fn central_directory(file: &mut File) -> std::io::Result<Result<(u64, u64, usize), Problem>> {
    let len = file.seek(SeekFrom::End(0))?;
    let tail_len = len.min((END_SIZE + MAX_COMMENT) as u64);
    file.seek(SeekFrom::Start(len - tail_len))?;
    let mut tail = Vec::with_capacity(tail_len as usize);
    file.take(tail_len).read_to_end(&mut tail)?;
    let Some(at) = (0..=tail.len().saturating_sub(END_SIZE))
        .rev()
        .find(|&i| tail[i..].starts_with(&END_SIGNATURE))
        .filter(|&i| tail.len() - i >= END_SIZE)
    else {
        return Ok(Err(
            "a damaged zip archive: no end of central directory record".into(),
        ));
    };
    let end = &tail[at..at + END_SIZE];
    let entries = u16_at(end, 10);
    let (size, offset) = (u32_at(end, 12), u32_at(end, 16));
    if entries == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF {
        return Ok(Err(
            "a ZIP64 archive, which elosim does not read: unzip it first".into(),
        ));
    }
    Ok(Ok((
        u64::from(offset),
        u64::from(size),
        usize::from(entries),
    )))
}

/// Whether a member is a file of the archive's contents: not a directory, nor the resource forks
/// macOS's archiver adds under `__MACOSX/`.
fn is_content(name: &str) -> bool {
    !name.ends_with('/') && !name.starts_with("__MACOSX/")
}

/// The archive's one file, or what is wrong: no file, more than one, encryption, a compression
/// other than stored or deflated, a damaged directory.
pub fn only_member(file: &mut File) -> std::io::Result<Result<Member, Problem>> {
    let (offset, size, entries) = match central_directory(file)? {
        Ok(found) => found,
        Err(problem) => return Ok(Err(problem)),
    };
    file.seek(SeekFrom::Start(offset))?;
    // Grown as read: the record's size is not trusted with an allocation.
    let mut directory = Vec::new();
    file.take(size).read_to_end(&mut directory)?;
    let mut members = Vec::new();
    let mut at = 0;
    for _ in 0..entries {
        let Some(header) = directory.get(at..at + CENTRAL_SIZE) else {
            return Ok(Err(
                "a damaged zip archive: its central directory is cut short".into(),
            ));
        };
        if !header.starts_with(&CENTRAL_SIGNATURE) {
            return Ok(Err(
                "a damaged zip archive: a central directory entry without its signature".into(),
            ));
        }
        let name_len = usize::from(u16_at(header, 28));
        let skip = name_len + usize::from(u16_at(header, 30)) + usize::from(u16_at(header, 32));
        let name = directory
            .get(at + CENTRAL_SIZE..at + CENTRAL_SIZE + name_len)
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .unwrap_or_default();
        if is_content(&name) {
            members.push((name, header.to_vec()));
        }
        at += CENTRAL_SIZE + skip;
    }
    let (name, header) = match members.len() {
        1 => members.remove(0),
        0 => return Ok(Err("a zip archive holding no file".into())),
        n => {
            let names: Vec<&str> = members.iter().take(3).map(|(n, _)| n.as_str()).collect();
            let more = if n > 3 { ", …" } else { "" };
            return Ok(Err(format!(
                "a zip archive holding {n} files ({}{more}; an .xlsx workbook is one such archive)",
                names.join(", ")
            )));
        }
    };
    member(file, name, &header)
}

/// The member a central directory header describes, its data found after its local header
/// (whose name and extra field may differ in length from the directory's, §4.3.7).
fn member(
    file: &mut File,
    name: String,
    header: &[u8],
) -> std::io::Result<Result<Member, Problem>> {
    let flags = u16_at(header, 8);
    let method = u16_at(header, 10);
    if flags & 1 != 0 {
        return Ok(Err(format!(
            "an encrypted zip archive ({name} is encrypted): decrypt it first"
        )));
    }
    if method != 0 && method != 8 {
        return Ok(Err(format!(
            "a zip archive whose file {name} is compressed by method {method} (APPNOTE §4.4.5), which elosim does not read: elosim reads stored and deflated members"
        )));
    }
    let local_offset = u64::from(u32_at(header, 42));
    file.seek(SeekFrom::Start(local_offset))?;
    let mut local = [0u8; LOCAL_SIZE];
    if file.read_exact(&mut local).is_err() || !local.starts_with(&LOCAL_SIGNATURE) {
        return Ok(Err(format!(
            "a damaged zip archive: the local header of {name} is not where its directory says"
        )));
    }
    let data_offset = local_offset
        + (LOCAL_SIZE + usize::from(u16_at(&local, 26)) + usize::from(u16_at(&local, 28))) as u64;
    Ok(Ok(Member {
        name,
        deflated: method == 8,
        compressed_size: u64::from(u32_at(header, 20)),
        size: u64::from(u32_at(header, 24)),
        crc32: u32_at(header, 16),
        data_offset,
    }))
}

/// A member's bytes, inflated where deflated, checked against the directory's CRC-32 and size at
/// their end (an `InvalidData` error when they differ). `raw` reads the archive from the member's
/// data on.
pub fn member_reader<R: BufRead + Send + Sync + 'static>(raw: R, member: &Member) -> Checked {
    let data = raw.take(member.compressed_size);
    let inflated: Box<dyn Read + Send + Sync> = if member.deflated {
        Box::new(flate2::bufread::DeflateDecoder::new(data))
    } else {
        Box::new(data)
    };
    Checked {
        inner: flate2::CrcReader::new(inflated),
        crc32: member.crc32,
        size: member.size,
    }
}

/// A member's bytes with their CRC-32 checked at the end.
pub struct Checked {
    inner: flate2::CrcReader<Box<dyn Read + Send + Sync>>,
    crc32: u32,
    size: u64,
}

impl Read for Checked {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let crc = self.inner.crc();
        if n == 0
            && !buf.is_empty()
            && (crc.sum() != self.crc32 || u64::from(crc.amount()) != self.size)
        {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "the archived file is damaged: {} bytes with CRC-32 {:08x}, where the archive's directory says {} bytes with {:08x}",
                    crc.amount(),
                    crc.sum(),
                    self.size,
                    self.crc32
                ),
            ));
        }
        Ok(n)
    }
}
