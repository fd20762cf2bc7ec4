//! The sink that hands each list a replay publishes to the measures, with what they asked for: the
//! whole list in force on their months, the players' true strengths, the baseline's list.

use crate::model::Month;
use crate::replay::{ListRows, Published, ReplayError, Sink, Snapshot};

use super::measure::{ListView, Measure, Needs, Observed};
use super::world::Truth;

/// The baseline's lists on the months measures compare with: each player's rating by player index
/// (`None`: not on the list). The same seed's inputs number players alike under every scenario.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Baseline {
    pub lists: Vec<(Month, Vec<Option<i32>>)>,
    /// White's expected score in each input game as the baseline rated it (NaN: not scored), when
    /// a measure compares games.
    pub expected: Vec<f64>,
}

impl Baseline {
    fn list(&self, month: Month) -> Option<&[Option<i32>]> {
        self.lists
            .iter()
            .find(|(m, _)| *m == month)
            .map(|(_, l)| l.as_slice())
    }
}

pub struct Observer<'a> {
    pub measures: &'a [Measure],
    pub observed: &'a mut [Observed],
    pub needs: &'a Needs,
    pub truth: &'a Truth,
    /// The players of the inputs (dense indices below it).
    pub players: usize,
    /// The baseline's lists, for the measures that compare with them.
    pub compare: Option<&'a Baseline>,
    /// The lists recorded as a baseline, when this replay is the baseline's.
    pub record: Option<Baseline>,
    pub whole: ListRows,
    /// The snapshots the replay handed over, with what the measures had observed by then.
    pub kept: Vec<Kept>,
    /// Seconds spent in the measures, as opposed to the replay.
    pub seconds: f64,
}

/// A replay's snapshot before a list, with the observer's own state of that moment: what a replay
/// that differs only from that list on carries on from.
pub struct Kept {
    pub replay: Snapshot,
    observed: Vec<Observed>,
}

impl Observer<'_> {
    /// The state of `kept`'s moment: what the measures had observed (the list in force is the
    /// run loop's, carried in the snapshot).
    pub fn resume(&mut self, kept: &Kept) {
        self.observed.clone_from_slice(&kept.observed);
    }
}

impl Sink for Observer<'_> {
    fn publish(&mut self, list: Published<'_>) -> Result<(), ReplayError> {
        let month = list.month();
        let started = std::time::Instant::now();
        let needs = self.needs;
        let whole_needed = needs.lists.contains(&month) || needs.baseline.contains(&month);
        if whole_needed {
            list.current.whole(&mut self.whole);
        }
        if let Some(record) = &mut self.record {
            if needs.baseline.contains(&month) {
                let mut ratings = vec![None; self.players];
                for (&p, &r) in self.whole.player.iter().zip(&self.whole.rating) {
                    ratings[p as usize] = Some(r);
                }
                record.lists.push((month, ratings));
            }
        }
        let in_window = needs
            .windows
            .iter()
            .any(|&(from, to)| from <= month && month <= to);
        if let (Some(record), true) = (&mut self.record, needs.baseline_games && in_window) {
            if record.expected.is_empty() {
                record.expected = vec![f64::NAN; list.input.score.len()];
            }
            for i in 0..list.games.len() {
                if let Some(p) = list.games.white_expected(i) {
                    record.expected[list.games.game[i] as usize] = p;
                }
            }
        }
        let recorded = self.record.as_ref().or(self.compare);
        let baseline = recorded.and_then(|b| b.list(month));
        let baseline_expected = recorded
            .map(|b| b.expected.as_slice())
            .filter(|e| !e.is_empty());
        let view = ListView {
            month,
            games: list.games,
            input: list.input,
            whole: whole_needed.then_some(&self.whole),
            truth: self.truth.strength(month),
            equilibrium: self.truth.equilibrium(month),
            baseline,
            baseline_expected,
        };
        for (measure, observed) in self.measures.iter().zip(self.observed.iter_mut()) {
            measure.kind.observe(&view, observed);
        }
        self.seconds += started.elapsed().as_secs_f64();
        Ok(())
    }

    /// Nothing observed yet: the replay starts over from its first list.
    fn restart(&mut self) {
        for (measure, observed) in self.measures.iter().zip(self.observed.iter_mut()) {
            *observed = measure.kind.empty();
        }
    }

    fn keep(&mut self, snapshot: Snapshot) {
        self.kept.push(Kept {
            replay: snapshot,
            observed: self.observed.to_vec(),
        });
    }
}
