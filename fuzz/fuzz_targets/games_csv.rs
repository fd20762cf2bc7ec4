//! Games tables as CSV: format detection (canonical, Kaggle, contest), cells, interning.
#![no_main]

use elosim::ingest::{read_inputs, Dates, InputFiles};
use elosim::scenario::GameFormat;
use elosim_fuzz::scratch_file;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let games = scratch_file("games.csv", data);
    for skip_invalid in [false, true] {
        let files = InputFiles {
            games: games.clone(),
            format: GameFormat::Auto,
            month_1: None,
            start_list: None,
            players: None,
            pgn_dates: Dates::NeedMonth,
        };
        let _ = read_inputs(&files, skip_invalid);
    }
});
