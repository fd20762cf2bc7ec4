//! The replay of a holistic system (Game Courier Ratings): at every list, everyone's rating is
//! recomputed from all games so far. Each game is recorded with the ratings of the list in force
//! when it was played, so that `score` judges the predictions the system could have made.

use crate::model::Games;
use crate::systems::fide::SideResult;
use crate::systems::gcr::{expected, GcrConfig, PairTable};

use super::periodic::Publisher;
use super::periods::Periods;
use super::schedule::SkippedGames;
use super::{Inputs, ListRows, ListSummary, Published, RatedGames, ReplayError, Run, Sink};

pub fn run(
    config: &GcrConfig,
    inputs: &Inputs,
    periods: &mut Periods<'_>,
    sink: &mut dyn Sink,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Run, ReplayError> {
    let lists = periods.lists().to_vec();
    let n = inputs.players.len();
    let mut run = Run {
        lists: lists.clone(),
        summaries: Vec::new(),
        skipped: SkippedGames::default(),
    };
    let (mut rows, mut games) = (ListRows::default(), RatedGames::default());
    rows.with_exact = true;
    let mut publisher = Publisher::new(n);
    // The system rates from games alone: the starting list stays empty.
    let mut summary = ListSummary::empty(lists[0]);
    publisher.publish(std::iter::empty(), &mut rows, &mut summary);
    sink.publish(Published {
        lists: &run.lists,
        t: 0,
        rows: &rows,
        games: &games,
        input: &Games::default(),
    })?;
    run.summaries.push(summary);
    let mut table = PairTable::default();
    let mut ratings = vec![config.initial; n];
    for t in 1..lists.len() {
        let period = periods.get(t)?;
        let (schedule, range) = (period.schedule, period.range.clone());
        let mut summary = ListSummary::empty(lists[t]);
        publisher.games.iter_mut().for_each(|g| *g = 0);
        games.clear();
        for at in range {
            let slot = &schedule.slots[at];
            let (w, b) = (slot.white as usize, slot.black as usize);
            let score = f64::from(slot.score) / 2.0;
            let white_expected = expected(ratings[w] - ratings[b]);
            let side = |rating: f64, e: f64| SideResult {
                rating: Some(rating.round() as i32),
                k: None,
                pd: Some((e * 100.0).round() as u8),
                change: None,
                capped: false,
                counted: true,
            };
            games.game.push(schedule.order[at]);
            games.list.push(t as u32);
            games.event_start.push(schedule.event_start[at]);
            games.white.push(side(ratings[w], white_expected));
            games.black.push(side(ratings[b], 1.0 - white_expected));
            games.expected.push((white_expected, 1.0 - white_expected));
            table.add(slot.white, slot.black, score);
            for p in [w, b] {
                publisher.games[p] += 1;
                publisher.total[p] += 1;
            }
            summary.games += 1;
        }
        let fresh = config.ratings(&table);
        ratings[..fresh.len()].copy_from_slice(&fresh);
        let rated = (0..n).filter(|&p| table.games_of(p as u32) > 0);
        publisher.publish(
            rated.map(|p| (p, ratings[p], None)),
            &mut rows,
            &mut summary,
        );
        sink.publish(Published {
            lists: &run.lists,
            t,
            rows: &rows,
            games: &games,
            input: period.input,
        })?;
        run.summaries.push(summary);
        progress(t, lists.len() - 1);
    }
    run.skipped = periods.skipped();
    Ok(run)
}
