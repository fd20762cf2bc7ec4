//! The cell parsers every reader shares: scores, months and days.
#![no_main]

use elosim::model::{parse_score, Day, Month};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = parse_score(text);
        if let Some(month) = Month::parse(text) {
            // What parses prints back to itself.
            assert_eq!(Month::parse(&month.to_string()), Some(month));
        }
        if let Some(day) = Day::parse(text) {
            assert_eq!(Day::parse(&day.to_string()), Some(day));
        }
    }
});
