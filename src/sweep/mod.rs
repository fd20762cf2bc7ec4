//! Regulation studies (`elosim sweep`): hundreds of replays of a study's candidates (a base
//! scenario with values set at key paths, reference scenarios, the baseline) on the same seeds of
//! one or more worlds, each judged by measures (`simulate::measure`), ranked with intervals and
//! paired differences against the baseline world by world, the worlds' verdicts set side by side,
//! on one machine or shared among many.

mod candidates;
mod destination;
mod error;
mod files;
mod html;
mod journal;
mod merge;
mod pictures;
mod run;
mod stats;
mod study;
mod summary;
#[cfg(test)]
mod testing;
mod verify;
mod worlds;

pub use candidates::{Candidate, Kind};
pub use destination::{check_out, shard_dir};
pub use error::{MergeError, ResumeError, SweepError, VerifyError};
pub use files::{write_report, write_study, write_timings};
pub use html::page;
pub use journal::{Header, Row, WorldLine};
pub use merge::{first_header, merge, verified, verify_header, write_journal, Merged};
pub use run::{
    baseline_scenario, run, search_header, shard_triples, Options, Outcome, Progress, Quiet,
};
pub use stats::{Interval, Verdict};
pub use study::{Design, Input, Overrides, Study, StudyError};
pub use summary::Summary;
pub use verify::{verifiable, verify, Report};
pub use worlds::{Agreement, Summaries, Verification};
