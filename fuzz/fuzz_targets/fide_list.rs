//! FIDE's TXT list layouts (every header variant of 2000–2013) and the list readers built on them,
//! which also read today's TXT and XML downloads.
#![no_main]

use elosim::ingest::{fide_list, read_list_ratings, Skips};
use elosim_fuzz::scratch_file;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let path = scratch_file("JAN01FRL.TXT", data);
    for skip_invalid in [false, true] {
        let _ = fide_list::read(&path, &mut Skips::new(skip_invalid));
        let _ = read_list_ratings(&path, &mut Skips::new(skip_invalid));
    }
});
