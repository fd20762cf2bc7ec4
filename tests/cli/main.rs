//! The command line on small fixtures and on the shipped real data, one module per topic: whole
//! replays, reports, datasets, generated worlds, bad input, and regressions (determinism, golden
//! lists, a killed run). One test binary, so that the suite links once.

mod bad_input;
mod common;
mod compressed;
mod datasets;
mod docs_figures;
mod lists;
mod performance_figures;
mod plots;
mod regressions;
mod replay;
mod reports;
mod round_robins;
mod sweep;
mod trf;
mod worlds;
