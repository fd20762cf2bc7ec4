//! A world replayed without files: the generated months gathered into the engine's inputs, and the
//! replay's rated games gathered for crosstables, as `generate` + `replay` would write and
//! `crosstable` read them back.

use crate::generate::world::{MonthBatch, World, WorldSink};
use crate::model::{Games, Month, PlayerIds, PlayerInfo, StartEntry, StartList};
use crate::replay::{CurrentList, Inputs, ListRows, Published, ReplayError, Sink};
use crate::report::game_source::RatedGames;

use super::counts::CountTarget;
use super::gaps::GapTarget;
use super::target::Target;

/// Gathers a generated world's games into the engine's columns, and its players' true strength
/// on the months asked for.
#[derive(Default)]
pub struct WorldGames {
    games: Games,
    /// The world's event number of the last game, to number each event once.
    last_event: Option<u64>,
    truth_months: Vec<Month>,
    /// Per month kept: (world id, strength) of every player present.
    truth: Vec<(Month, Vec<(u32, f32)>)>,
}

impl WorldSink for WorldGames {
    fn month(&mut self, batch: &MonthBatch) -> Result<(), String> {
        if self.truth_months.contains(&batch.month) {
            let strengths = batch
                .truth_id
                .iter()
                .copied()
                .zip(batch.truth_strength.iter().copied())
                .collect();
            self.truth.push((batch.month, strengths));
        }
        let g = &mut self.games;
        if g.event_names.is_empty() {
            g.event_names.push(String::new());
            g.row_word = "row";
            g.source = "the generated world (in memory)".into();
        }
        for i in 0..batch.white.len() {
            // A world's games come event by event, so an event's games are consecutive.
            if self.last_event != Some(batch.event[i]) {
                self.last_event = Some(batch.event[i]);
                g.event_names.push(batch.event[i].to_string());
            }
            g.period.push(Some(batch.period[i]));
            g.date.push(None);
            g.event.push(g.event_names.len() as u32 - 1);
            g.event_start.push(Some(batch.event_start[i]));
            g.event_type.push(batch.event_type[i]);
            g.white.push(batch.white[i]);
            g.black.push(batch.black[i]);
            g.score.push(batch.score[i]);
            g.source_row.push(g.source_row.len() as u32 + 1);
        }
        Ok(())
    }
}

/// Players' true strength by dense player index (NaN: not present), for some months.
pub type Truth = Vec<(Month, Vec<f32>)>;

impl WorldGames {
    /// Also keeps every player's strength on these months (Januaries, when the world gives the
    /// strength of every player present).
    pub fn keeping_truth(months: &[Month]) -> WorldGames {
        WorldGames {
            truth_months: months.to_vec(),
            ..WorldGames::default()
        }
    }

    /// The replay's inputs: the games with ids made dense (the world numbers its players from
    /// `first_id` in order of arrival, which is the sorted order the readers give them), the
    /// players' birth years and the starting list; and the strengths kept, by dense index.
    pub fn into_inputs(mut self, world: &World) -> (Inputs, Truth) {
        let first = world.settings.first_id;
        let dense = |id: u32| id - first;
        for id in self
            .games
            .white
            .iter_mut()
            .chain(self.games.black.iter_mut())
        {
            *id = dense(*id);
        }
        let mut info = PlayerInfo::with_players(world.players.len());
        for (i, p) in world.players.iter().enumerate() {
            info.birth_year[i] = Some(p.born.floor() as i16);
        }
        let entries = world
            .start_list
            .iter()
            .map(|row| StartEntry {
                player: dense(row.id),
                rating: row.rating,
                k: Some(row.k),
                total_games: Some(row.total_games),
                ever_2400: Some(row.ever_2400),
                ever_2300: None,
                inactive: false,
            })
            .collect();
        let truth = self
            .truth
            .into_iter()
            .map(|(month, strengths)| {
                let mut dense = vec![f32::NAN; world.players.len()];
                for (id, strength) in strengths {
                    dense[(id - first) as usize] = strength;
                }
                (month, dense)
            })
            .collect();
        let inputs = Inputs {
            games: self.games,
            players: PlayerIds::Numbers(world.players.iter().map(|p| u64::from(p.id)).collect()),
            info,
            start_list: StartList {
                entries,
                source: "the generated world's starting list (in memory)".into(),
            },
        };
        (inputs, truth)
    }
}

/// Sums of true strength over two bands of a list.
#[derive(Clone, Copy, Debug, Default)]
pub struct GapSums {
    stronger: (f64, u64),
    weaker: (f64, u64),
}

impl GapSums {
    /// The difference of the bands' mean strengths (`None`: a band is empty).
    pub fn difference(&self) -> Option<f64> {
        let mean = |(sum, n): (f64, u64)| (n > 0).then(|| sum / n as f64);
        Some(mean(self.stronger)? - mean(self.weaker)?)
    }
}

/// The players a run's list has in one count's range, and their games in the list's period.
#[derive(Clone, Copy, Debug, Default)]
pub struct Found {
    pub players: u64,
    pub games: u64,
}

impl Found {
    /// Games per player (`None` without players).
    pub fn games_per_player(&self) -> Option<f64> {
        (self.players > 0).then(|| self.games as f64 / self.players as f64)
    }
}

/// What a replay gives the targets: the rated games with both players' ratings in the tables'
/// windows, as a run's `games.parquet` gives them to `crosstable`; and, for each count target, the
/// players of each of its counts.
pub struct Collected {
    pub games: RatedGames,
    from: Month,
    to: Month,
    /// Per target: its counts (count targets only), and what the run's list has in each.
    targets: Vec<Option<CountTarget>>,
    pub counts: Vec<Vec<Found>>,
    /// Per target: its gaps (gap targets only), and their sums of true strength.
    gap_targets: Vec<Option<GapTarget>>,
    pub gaps: Vec<Vec<GapSums>>,
    /// The true strengths of the world being replayed, on the gaps' months.
    truth: Truth,
    /// The lists in force (a run hands over each list's changes), and the one whole when a target
    /// needs it.
    current: CurrentList,
    whole: ListRows,
}

impl Collected {
    pub fn new(label: &str, targets: &[Target]) -> Collected {
        let windows = targets.iter().filter_map(|t| match t {
            Target::Table { from, to, .. } => Some((*from, *to)),
            _ => None,
        });
        let from = windows
            .clone()
            .map(|w| w.0)
            .min()
            .unwrap_or(Month(i32::MAX));
        let to = windows.map(|w| w.1).max().unwrap_or(Month(i32::MIN));
        let counted: Vec<Option<CountTarget>> = targets
            .iter()
            .map(|t| match t {
                Target::Counts { counts, .. } => Some(counts.clone()),
                _ => None,
            })
            .collect();
        let gap_targets: Vec<Option<GapTarget>> = targets
            .iter()
            .map(|t| match t {
                Target::Gaps { gaps, .. } => Some(gaps.clone()),
                _ => None,
            })
            .collect();
        Collected {
            games: RatedGames {
                label: label.to_string(),
                ..RatedGames::default()
            },
            from,
            to,
            counts: counted
                .iter()
                .map(|t| vec![Found::default(); t.as_ref().map_or(0, |t| t.counts.len())])
                .collect(),
            targets: counted,
            gaps: gap_targets
                .iter()
                .map(|t| vec![GapSums::default(); t.as_ref().map_or(0, |t| t.gaps.len())])
                .collect(),
            gap_targets,
            truth: Vec::new(),
            current: CurrentList::default(),
            whole: ListRows::default(),
        }
    }

    /// The months whose true strengths the gap targets need.
    pub fn truth_months(&self) -> Vec<Month> {
        let mut months: Vec<Month> = self
            .gap_targets
            .iter()
            .flatten()
            .flat_map(|t| t.gaps.iter().map(|g| g.month))
            .collect();
        months.sort();
        months.dedup();
        months
    }

    /// The true strengths of the next world replayed.
    pub fn set_truth(&mut self, truth: Truth) {
        self.truth = truth;
    }
}

impl Sink for Collected {
    fn publish(&mut self, list: Published<'_>) -> Result<(), ReplayError> {
        let month = list.month();
        if list.t == 0 {
            // A new replay (the next seed's world): its lists start from its own starting list.
            self.current = CurrentList::default();
        }
        self.current.apply(list.t, list.rows, 0..list.rows.len());
        let counted = |t: &Option<CountTarget>| {
            t.as_ref()
                .is_some_and(|t| t.counts.iter().any(|c| c.month == month))
        };
        let truth = self.truth.iter().find(|(m, _)| *m == month);
        if self.targets.iter().any(counted) || truth.is_some() {
            self.current.whole(&mut self.whole);
        }
        let whole = &self.whole;
        for (target, found) in self.targets.iter().zip(&mut self.counts) {
            let Some(target) = target else { continue };
            for (count, found) in target.counts.iter().zip(found.iter_mut()) {
                if count.month != month {
                    continue;
                }
                for (&r, &g) in whole.rating.iter().zip(&whole.games) {
                    if count.contains(r) {
                        found.players += 1;
                        found.games += u64::from(g);
                    }
                }
            }
        }
        if let Some((_, strengths)) = truth {
            for (target, sums) in self.gap_targets.iter().zip(&mut self.gaps) {
                let Some(target) = target else { continue };
                for (gap, sums) in target.gaps.iter().zip(sums.iter_mut()) {
                    if gap.month != month {
                        continue;
                    }
                    for (&player, &rating) in whole.player.iter().zip(&whole.rating) {
                        let strength = f64::from(strengths[player as usize]);
                        let within = |(low, high): (i32, i32)| (low..=high).contains(&rating);
                        if strength.is_nan() {
                            continue;
                        }
                        if within(gap.stronger) {
                            sums.stronger.0 += strength;
                            sums.stronger.1 += 1;
                        }
                        if within(gap.weaker) {
                            sums.weaker.0 += strength;
                            sums.weaker.1 += 1;
                        }
                    }
                }
            }
        }
        if month < self.from || month > self.to {
            return Ok(());
        }
        let rated = list.games;
        for i in 0..rated.len() {
            match (rated.white[i].rating, rated.black[i].rating) {
                (Some(white), Some(black)) => {
                    self.games.month.push(month);
                    self.games.white_rating.push(white);
                    self.games.black_rating.push(black);
                    self.games
                        .score
                        .push(list.input.score[rated.game[i] as usize]);
                }
                _ => self.games.without_ratings += 1,
            }
        }
        Ok(())
    }
}
