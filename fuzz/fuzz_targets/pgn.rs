//! The PGN tag reader, plain or compressed (gzip, zstd, a zip of one file), through the whole games reader (interning included).
#![no_main]

use elosim::ingest::{read_inputs, Dates, InputFiles};
use elosim::scenario::GameFormat;
use elosim_fuzz::scratch_file;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let games = scratch_file("games.pgn", data);
    for pgn_dates in [Dates::NeedMonth, Dates::YearIsEnough] {
        for skip_invalid in [false, true] {
            let files = InputFiles {
                games: games.clone(),
                format: GameFormat::Pgn,
                month_1: None,
                start_list: None,
                players: None,
                pgn_dates,
            };
            let _ = read_inputs(&files, skip_invalid);
        }
    }
});
