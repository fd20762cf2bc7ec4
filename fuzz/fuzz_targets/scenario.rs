//! The scenario loader: TOML syntax, the schema, every range check and the timeline's resolution.
#![no_main]

use elosim::scenario::Scenario;
use elosim_fuzz::scratch_file;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let path = scratch_file("scenario.toml", data);
    let _ = Scenario::load(&path);
});
