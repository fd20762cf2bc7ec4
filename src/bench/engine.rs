//! The engine alone: a replay of inputs in memory whose lists go nowhere, so that its time is the
//! engine's and not the tables'.

use crate::replay::{self, Inputs, PeriodSource, ReplayError, Run};
use crate::scenario::Scenario;

/// Replays `inputs`, held whole.
pub fn engine_alone(scenario: &Scenario, inputs: &Inputs) -> Result<Run, ReplayError> {
    replay::run(scenario, inputs, &mut Discard, &|_| {})
}

/// Replays `inputs` with each list's games read from `source` as the list is reached.
pub fn engine_alone_streamed(
    scenario: &Scenario,
    inputs: &Inputs,
    source: &mut dyn PeriodSource,
) -> Result<Run, ReplayError> {
    replay::run_streamed(
        scenario,
        inputs,
        source,
        replay::PIECE_GAMES,
        &mut Discard,
        &|_| {},
    )
}

/// A sink that drops every list: the engine alone, without building any table.
struct Discard;

impl replay::Sink for Discard {
    fn publish(&mut self, _: replay::Published<'_>) -> Result<(), ReplayError> {
        Ok(())
    }

    fn takes_pieces(&self) -> bool {
        true
    }

    fn publish_games(&mut self, _: replay::PublishedGames<'_>) -> Result<(), ReplayError> {
        Ok(())
    }
}
