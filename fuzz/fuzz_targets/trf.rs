//! Tournament reports: the record lines, the player lines' columns and round blocks, the dates in
//! every order, the pairing of the two lines of each game, and the reports' own ratings taken as
//! the starting list (`reported`), which reads every player line the games do.
#![no_main]

use elosim::ingest::{read_inputs, Dates, InputFiles};
use elosim::scenario::{GameFormat, REPORTED};
use elosim_fuzz::scratch_file;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let games = scratch_file("report.trf", data);
    for skip_invalid in [false, true] {
        let files = InputFiles {
            games: games.clone(),
            format: GameFormat::Trf,
            month_1: None,
            start_list: Some(REPORTED.into()),
            players: None,
            pgn_dates: Dates::NeedMonth,
        };
        let _ = read_inputs(&files, skip_invalid);
    }
});
