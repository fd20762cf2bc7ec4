//! What a world is set against: a published crosstable, counts of players on real lists, or the
//! strength gaps between rating groups.

use crate::model::Month;
use crate::report::crosstable::PublishedTable;

use super::counts::CountTarget;
use super::gaps::GapTarget;

/// What a world is set against.
#[derive(Clone, Debug)]
pub enum Target {
    /// A published crosstable and the window of the run's games set against it; with `games`,
    /// each row's number of games too (Sonas's row totals), not only its share.
    Table {
        published: PublishedTable,
        from: Month,
        to: Month,
        games: bool,
        weight: f64,
    },
    /// Players on the run's lists: a real list's 100-point bands, or published counts.
    Counts { counts: CountTarget, weight: f64 },
    /// How far apart rating groups really are (their mean true strengths).
    Gaps { gaps: GapTarget, weight: f64 },
}

impl Target {
    pub fn weight(&self) -> f64 {
        match self {
            Target::Table { weight, .. }
            | Target::Counts { weight, .. }
            | Target::Gaps { weight, .. } => *weight,
        }
    }

    pub fn name(&self) -> String {
        match self {
            Target::Table { published, .. } => published.name.clone(),
            Target::Counts { counts, .. } => counts.name.clone(),
            Target::Gaps { gaps, .. } => gaps.name.clone(),
        }
    }
}
