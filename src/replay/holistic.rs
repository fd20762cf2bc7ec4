//! The engine of a holistic system (Game Courier Ratings): at every list, everyone's rating is
//! recomputed from all games so far. Each game is recorded with the ratings of the list in force
//! when it was played, so that `score` judges the predictions the system could have made. The
//! system rates from games alone: its starting list is empty, and a player is listed from their
//! first game.

use crate::model::SideRecord;
use crate::systems::gcr::{expected, GcrConfig, PairTable};

use super::driver::{Alongside, Engine, ListOut};
use super::list_games::Period;
use super::{Inputs, ListRows};

pub(super) struct HolisticEngine {
    config: GcrConfig,
    /// Every game so far, by pair of players.
    table: PairTable,
    /// The ratings of the last list.
    ratings: Vec<f64>,
    /// Games this period and in all, per player.
    games: Vec<u32>,
    total: Vec<u32>,
}

impl HolisticEngine {
    pub(super) fn new(config: GcrConfig, inputs: &Inputs) -> HolisticEngine {
        let n = inputs.players.len();
        HolisticEngine {
            config,
            table: PairTable::default(),
            ratings: vec![config.initial; n],
            games: vec![0; n],
            total: vec![0; n],
        }
    }
}

impl Engine for HolisticEngine {
    fn start(&mut self, rows: &mut ListRows) {
        rows.with_exact = true;
    }

    fn period(
        &mut self,
        t: usize,
        period: &Period<'_>,
        out: &mut ListOut,
        alongside: &mut Alongside<'_>,
    ) {
        alongside();
        let (schedule, range) = (period.schedule, period.range.clone());
        self.games.iter_mut().for_each(|g| *g = 0);
        for at in range {
            let slot = schedule.slot(at);
            let (w, b) = (slot.white as usize, slot.black as usize);
            let white_expected = expected(self.ratings[w] - self.ratings[b]);
            let side = |p: usize, expected: f64| {
                SideRecord::predicted(self.config.published(self.ratings[p]), expected, None)
            };
            out.games.push_predicted(
                (schedule.order[at], t, schedule.event_start[at]),
                (side(w, white_expected), side(b, 1.0 - white_expected)),
                (white_expected, 1.0 - white_expected),
            );
            self.table
                .add(slot.white, slot.black, f64::from(slot.score) / 2.0);
            for p in [w, b] {
                self.games[p] += 1;
                self.total[p] += 1;
            }
            out.summary.games += 1;
        }
        let fresh = self.config.ratings(&self.table);
        self.ratings[..fresh.len()].copy_from_slice(&fresh);
        for p in 0..self.ratings.len() {
            if self.table.games_of(p as u32) > 0 {
                let games = (self.games[p], self.total[p]);
                let exact = self.ratings[p];
                let rating = (self.config.published(exact), exact);
                out.rows.push_real((p, true), rating, None, games);
            }
        }
    }
}
