//! Every text input (games as CSV read whole or in blocks, PGN, starting lists, FIDE lists, players)
//! is opened here: plain, gzip (RFC 1952) or zstd (RFC 8878), known by their magic bytes whatever
//! the file's name, or a zip archive holding one file (FIDE's list downloads, `zip.rs`). Each is
//! decompressed as a stream, so that a reader that reads line by line or block by block holds a
//! buffer of the file, never the file: a decompression bomb costs time, not memory.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};

use super::error::IngestError;
use super::zip;

/// What files that are not text begin with, and what each is: compressions this reader does not
/// read, and, found in what it decompressed, those it does (a `.gz` inside a `.zip`).
const MAGIC_NUMBERS: [(&[u8], &str); 10] = [
    (GZIP_MAGIC, "gzip-compressed"),
    (ZSTD_MAGIC, "zstd-compressed"),
    (b"BZh", "bzip2-compressed"),
    (b"\xfd7zXZ\x00", "xz-compressed"),
    (
        &zip::LOCAL_SIGNATURE,
        "a zip archive (as an .xlsx workbook is)",
    ),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (
        b"\xd0\xcf\x11\xe0",
        "an old Office document (such as an .xls workbook)",
    ),
    (b"PAR1", "a Parquet file"),
    (b"\xff\xfe", "UTF-16 text"),
    (b"\xfe\xff", "UTF-16 text"),
];

/// Bytes of a file's start that [`refuse_binary`] looks at.
pub const HEAD_BYTES: usize = 8 << 10;

/// Refuses a file that is not text, by its first bytes (`head`): a compressed file or an archive
/// named by its format, else one whose first line holds control bytes (no header or tag line
/// does). `reads` says what the reader reads, for the advice. Nothing of the file is echoed, so
/// that no control byte reaches the terminal.
pub fn refuse_binary(file: &str, head: &[u8], reads: &str) -> Result<(), IngestError> {
    let not_text = |what: String, advice: String| IngestError::NotText {
        file: file.to_string(),
        what,
        advice,
    };
    if let Some((_, what)) = MAGIC_NUMBERS.iter().find(|(m, _)| head.starts_with(m)) {
        let advice = match *what {
            "a Parquet file" => "name it .parquet (Parquet is known by its extension)".to_string(),
            "UTF-16 text" => format!("save it as UTF-8 (elosim reads {reads})"),
            _ => format!("decompress it first (elosim reads {reads})"),
        };
        return Err(not_text(what.to_string(), advice));
    }
    let text = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let first_line = text
        .split(|&b| b == b'\n')
        .find(|line| !line.iter().all(u8::is_ascii_whitespace))
        .unwrap_or_default();
    let control = first_line
        .iter()
        .position(|&b| (b < 0x20 && !b"\t\r\x1a".contains(&b)) || b == 0x7f);
    match control {
        Some(at) => Err(not_text(
            "not text".into(),
            format!(
                "its first line holds the control byte 0x{:02x} (byte {}), as no table, list or PGN file does (elosim reads {reads})",
                first_line[at],
                at + 1
            ),
        )),
        None => Ok(()),
    }
}

/// What elosim reads, for [`refuse_binary`]'s advice.
pub const READS: &str = "CSV tables, FIDE lists and PGN files as text, plain or compressed by gzip or zstd or in a zip archive of one file, and Parquet files named .parquet";

/// How a file's bytes are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    Plain,
    Gzip,
    Zstd,
    Zip,
}

/// RFC 1952 §2.3.1: a gzip member begins with ID1 ID2 = 0x1f 0x8b.
const GZIP_MAGIC: &[u8] = b"\x1f\x8b";
/// RFC 8878 §3.1.1: a zstd frame begins with the magic number 0xFD2FB528, little-endian.
const ZSTD_MAGIC: &[u8] = b"\x28\xb5\x2f\xfd";

/// The largest zstd window accepted, as a power of two: 2^27 bytes (128 MiB), zstd's own default
/// limit for decoding (`ZSTD_WINDOWLOG_LIMIT_DEFAULT`), set here so that it stays the bound: a
/// frame asking a larger window (`zstd --long=31`) is refused rather than given 2 GiB.
const ZSTD_WINDOW_LOG_MAX: u32 = 27;

/// The extensions a compressed file's name may end with, after its format's own (`.pgn.gz`).
const COMPRESSED_EXTENSIONS: [&str; 3] = [".gz", ".zst", ".zip"];

impl Compression {
    fn of(head: &[u8]) -> Compression {
        if head.starts_with(GZIP_MAGIC) {
            Compression::Gzip
        } else if head.starts_with(ZSTD_MAGIC) {
            Compression::Zstd
        } else if head.starts_with(&zip::LOCAL_SIGNATURE) {
            Compression::Zip
        } else {
            Compression::Plain
        }
    }

    fn name(self) -> &'static str {
        match self {
            Compression::Plain => "plain",
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
            Compression::Zip => "zip",
        }
    }
}

/// A file's name without the extension of its compression: `games.pgn.zst` → `games.pgn`.
pub fn plain_name(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    COMPRESSED_EXTENSIONS
        .iter()
        .find_map(|ext| name.strip_suffix(ext))
        .map_or(name.clone(), str::to_string)
}

/// The file's bytes as read from disk, counted (for progress) and hashed (for `summary.json`) on
/// the way, so that no input is read twice for its checksum.
struct Tally {
    hash: Option<Sha256>,
    bytes: u64,
}

struct Tallied<R> {
    inner: R,
    tally: Arc<Mutex<Tally>>,
}

impl<R: Read> Read for Tallied<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let mut tally = self.tally.lock().unwrap_or_else(|e| e.into_inner());
        tally.bytes += n as u64;
        if let Some(hash) = tally.hash.as_mut() {
            hash.update(&buf[..n]);
        }
        Ok(n)
    }
}

fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// A text input, decompressed as it is read.
pub struct Input {
    path: PathBuf,
    compression: Compression,
    reader: Box<dyn BufRead + Send + Sync>,
    tally: Arc<Mutex<Tally>>,
    /// A zip archive's SHA-256, taken when it was opened: its member is read from the middle.
    sha256: Option<String>,
}

impl Input {
    pub fn open(path: &Path) -> Result<Input, IngestError> {
        let io = |source| IngestError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = File::open(path).map_err(io)?;
        let mut magic = Vec::new();
        (&mut file).take(4).read_to_end(&mut magic).map_err(io)?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        if Compression::of(&magic) == Compression::Zip {
            return Input::open_zip(path, file);
        }
        Input::from_reader(path, file).map_err(io)
    }

    /// The input of `raw`, the bytes of the file `path`, decompressed by what they begin with.
    pub(super) fn from_reader(
        path: &Path,
        raw: impl Read + Send + Sync + 'static,
    ) -> std::io::Result<Input> {
        let tally = Arc::new(Mutex::new(Tally {
            hash: Some(Sha256::new()),
            bytes: 0,
        }));
        let mut raw = BufReader::new(Tallied {
            inner: raw,
            tally: Arc::clone(&tally),
        });
        let compression = Compression::of(raw.fill_buf()?);
        let reader: Box<dyn BufRead + Send + Sync> = match compression {
            // Every member of a file of several gzip members, as `cat a.gz b.gz` makes.
            Compression::Gzip => {
                Box::new(BufReader::new(flate2::bufread::MultiGzDecoder::new(raw)))
            }
            // Every frame of the file, each in a window of at most 2^ZSTD_WINDOW_LOG_MAX bytes.
            Compression::Zstd => {
                let mut decoder = zstd::stream::read::Decoder::with_buffer(raw)?;
                decoder.window_log_max(ZSTD_WINDOW_LOG_MAX)?;
                Box::new(BufReader::new(decoder))
            }
            Compression::Plain | Compression::Zip => Box::new(raw),
        };
        Ok(Input {
            path: path.to_path_buf(),
            compression,
            reader,
            tally,
            sha256: None,
        })
    }

    /// The one file of a zip archive, read from its data on; the archive is hashed first, whole,
    /// as it is stored.
    fn open_zip(path: &Path, mut file: File) -> Result<Input, IngestError> {
        let io = |source| IngestError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut hash = Sha256::new();
        std::io::copy(&mut file, &mut hash).map_err(io)?;
        let member = zip::only_member(&mut file)
            .map_err(io)?
            .map_err(|problem| IngestError::File {
                file: path.display().to_string(),
                problem: format!(
                    "{problem}; expected a zip archive of one file, as FIDE's list downloads hold one TXT or XML list"
                ),
            })?;
        file.seek(SeekFrom::Start(member.data_offset)).map_err(io)?;
        let tally = Arc::new(Mutex::new(Tally {
            hash: None,
            bytes: 0,
        }));
        let raw = BufReader::new(Tallied {
            inner: file,
            tally: Arc::clone(&tally),
        });
        Ok(Input {
            path: path.to_path_buf(),
            compression: Compression::Zip,
            reader: Box::new(BufReader::new(zip::member_reader(raw, &member))),
            tally,
            sha256: Some(hex(&hash.finalize())),
        })
    }

    pub fn file(&self) -> String {
        self.path.display().to_string()
    }

    /// Refuses what is not text by its first bytes as decompressed ([`refuse_binary`]); the
    /// stream then begins again with them.
    pub fn refuse_binary(&mut self) -> Result<(), IngestError> {
        let mut head = Vec::with_capacity(HEAD_BYTES);
        let read = (&mut self.reader)
            .take(HEAD_BYTES as u64)
            .read_to_end(&mut head);
        read.map_err(|e| self.error(e))?;
        refuse_binary(&self.file(), &head, READS)?;
        let rest = std::mem::replace(&mut self.reader, Box::new(std::io::empty()));
        self.reader = Box::new(std::io::Cursor::new(head).chain(rest));
        Ok(())
    }

    /// The error of a read that failed: a damaged compressed stream, or the file itself.
    pub fn error(&self, e: std::io::Error) -> IngestError {
        match self.compression {
            Compression::Plain => IngestError::Io {
                path: self.path.clone(),
                source: e,
            },
            Compression::Zip => IngestError::File {
                file: self.file(),
                problem: format!("not a readable zip archive: {e}"),
            },
            c => IngestError::File {
                file: self.file(),
                problem: format!("not a readable {} file: {e}", c.name()),
            },
        }
    }

    /// What is left of the input, decompressed, and the SHA-256 of the file as stored; a line
    /// longer than [`LINE_CAP`] is refused as it is read, before the rest is held.
    pub fn into_text(mut self) -> Result<(Vec<u8>, String), IngestError> {
        let file = self.file();
        let mut bound = LineBound::default();
        let mut bytes = Vec::new();
        loop {
            let chunk = match self.reader.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) => return Err(self.error(e)),
            };
            if chunk.is_empty() {
                return Ok((bytes, self.sha256()));
            }
            bound.check(&file, chunk)?;
            bytes.extend_from_slice(chunk);
            let n = chunk.len();
            self.reader.consume(n);
        }
    }

    /// The SHA-256 of the file's bytes as stored (of those read so far, until the end is read).
    pub fn sha256(&self) -> String {
        if let Some(sha256) = &self.sha256 {
            return sha256.clone();
        }
        let tally = self.tally.lock().unwrap_or_else(|e| e.into_inner());
        tally
            .hash
            .clone()
            .map_or_else(String::new, |h| hex(&h.finalize()))
    }

    /// Bytes of the file read so far, as stored (to set against its size for progress).
    pub fn bytes_read(&self) -> u64 {
        self.tally.lock().unwrap_or_else(|e| e.into_inner()).bytes
    }
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.reader.read(buf)
    }
}

impl BufRead for Input {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.reader.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.reader.consume(amount);
    }
}

/// The longest line a text reader takes: games, lists and reports have lines of at most a few
/// hundred bytes, and a longer one is another kind of file or a decompression bomb, whose bytes
/// would otherwise all be held. (PGN movetext, whose lines may be long, is cut there instead.)
pub const LINE_CAP: usize = 1 << 20;

/// Follows the lines of a text read piece by piece, in order, and refuses one longer than
/// [`LINE_CAP`], naming its line.
#[derive(Default)]
pub struct LineBound {
    /// Line ends taken so far.
    ends: u32,
    /// Bytes of the current line taken so far.
    run: usize,
}

impl LineBound {
    /// Takes the next bytes of the text.
    pub fn check(&mut self, file: &str, bytes: &[u8]) -> Result<(), IngestError> {
        let mut rest = bytes;
        loop {
            let (run, end) = match memchr::memchr(b'\n', rest) {
                Some(at) => (at, true),
                None => (rest.len(), false),
            };
            if self.run + run > LINE_CAP {
                return Err(IngestError::Line {
                    file: file.to_string(),
                    line: self.ends.saturating_add(1),
                    problem: "a line longer than 1 MiB; games, lists and reports have lines of a few hundred bytes: is this the file you meant?".into(),
                });
            }
            if !end {
                self.run += run;
                return Ok(());
            }
            self.run = 0;
            self.ends = self.ends.saturating_add(1);
            rest = &rest[run + 1..];
        }
    }
}

/// A text file's bytes, decompressed, once its start is known to be text; and the SHA-256 of the
/// file as stored. For the readers that parse a file whole.
pub fn read_text(path: &Path) -> Result<(Vec<u8>, String), IngestError> {
    let mut input = Input::open(path)?;
    input.refuse_binary()?;
    input.into_text()
}

/// The first `n` bytes of a text file, decompressed, once its start is known to be text.
pub fn read_start(path: &Path, n: usize) -> Result<Vec<u8>, IngestError> {
    let mut input = Input::open(path)?;
    input.refuse_binary()?;
    let mut start = Vec::with_capacity(n);
    let read = (&mut input).take(n as u64).read_to_end(&mut start);
    read.map_err(|e| input.error(e))?;
    Ok(start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// `text` as a zstd frame whose window is 2^`window_log` bytes.
    fn zstd_frame(text: &[u8], window_log: u32) -> Vec<u8> {
        let mut encoder = zstd::stream::write::Encoder::new(Vec::new(), 1).unwrap();
        encoder
            .set_parameter(zstd::stream::raw::CParameter::WindowLog(window_log))
            .unwrap();
        encoder.write_all(text).unwrap();
        encoder.finish().unwrap()
    }

    fn read(name: &str, bytes: Vec<u8>) -> Result<Vec<u8>, IngestError> {
        let mut input = Input::from_reader(Path::new(name), std::io::Cursor::new(bytes)).unwrap();
        input.refuse_binary()?;
        Ok(input.into_text()?.0)
    }

    /// A zstd frame is decoded in a window of at most 2^27 bytes: one that asks more (as
    /// `zstd --long=30` writes) is refused naming the file, whatever it holds, rather than
    /// given the memory.
    #[test]
    fn a_zstd_window_above_the_bound_is_refused() {
        let text = b"id,rating\n101,2100\n";
        assert_eq!(read("a.csv.zst", zstd_frame(text, 27)).unwrap(), text);
        let e = read("big.csv.zst", zstd_frame(text, 30))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("big.csv.zst: not a readable zstd file: Frame requires too much memory"),
            "{e}"
        );
    }

    /// A line of `LINE_CAP` bytes is taken in any pieces, one byte more is refused at its line;
    /// a gzip stream of one long line is refused once the bound is passed, not once it is held.
    #[test]
    fn a_line_longer_than_the_bound_is_refused_at_its_line() {
        let mut text = b"a\n\nb".to_vec();
        text.extend(std::iter::repeat_n(b'x', LINE_CAP - 1));
        for piece in [1, 7, 4096, text.len()] {
            let mut bound = LineBound::default();
            for chunk in text.chunks(piece) {
                bound.check("f", chunk).unwrap();
            }
            let e = bound.check("f", b"y").unwrap_err().to_string();
            assert!(e.starts_with("f, line 3: a line longer than 1 MiB;"), "{e}");
            bound.check("f", b"\nz").unwrap();
        }
        let mut line = Vec::from(&b"id,rating\n"[..]);
        line.resize(64 << 20, b'0');
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&line).unwrap();
        let e = read("bomb.csv.gz", gz.finish().unwrap()).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("bomb.csv.gz, line 2: a line longer than"),
            "{e}"
        );
    }

    /// Magic bytes decide, not the name; the checksum is of the bytes as stored.
    #[test]
    fn compressions_are_known_by_their_bytes() {
        let text = b"id,rating\n101,2100\n";
        let gz = {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(text).unwrap();
            e.finish().unwrap()
        };
        let zst = zstd::encode_all(&text[..], 1).unwrap();
        for bytes in [text.to_vec(), gz, zst] {
            assert_eq!(read("list.txt", bytes.clone()).unwrap(), text);
            let mut input =
                Input::from_reader(Path::new("x"), std::io::Cursor::new(bytes.clone())).unwrap();
            std::io::copy(&mut input, &mut std::io::sink()).unwrap();
            assert_eq!(input.sha256(), hex(&Sha256::digest(&bytes)));
            assert_eq!(input.bytes_read(), bytes.len() as u64);
        }
    }

    /// Compressed files are named by their format, other binary files by their first control
    /// byte, and text passes; no message holds a byte of the file.
    #[test]
    fn files_that_are_not_text_are_named_for_what_they_are() {
        let refused = |head: &[u8]| refuse_binary("f", head, READS).unwrap_err().to_string();
        assert!(
            refused(b"\x1f\x8b\x08\x00").starts_with("f is gzip-compressed: decompress it first")
        );
        assert!(refused(b"PAR1\x15\x04").starts_with("f is a Parquet file: name it .parquet"));
        assert!(refused(b"\xff\xfei\x00d\x00").starts_with("f is UTF-16 text: save it as UTF-8"));
        let binary = refused(b"\n\nid,\x00\x01rating\n");
        assert!(
            binary
                .starts_with("f is not text: its first line holds the control byte 0x00 (byte 4)"),
            "{binary}"
        );
        assert!(!binary.chars().any(|c| c.is_control()), "{binary}");
        for text in [
            &b"\xEF\xBB\xBFid,rating\r\n1,\x002000\n"[..],
            b"a\tb\n",
            b"",
            b"\x1a",
        ] {
            assert!(refuse_binary("f", text, READS).is_ok(), "{text:?}");
        }
    }
}
