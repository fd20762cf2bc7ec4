//! A run's lists as their changes. The starting list is given whole; every later list holds only
//! the rows that changed: players who played, were rated for the first time, changed K, status or
//! rating, or left the list. A player's row stays in force until their next one, so a list costs
//! what changed on it, not the pool (docs/reports.md, "lists.parquet"). [`CurrentList`] applies the
//! changes list by list and gives the whole list in force, for whoever needs whole lists.

use std::ops::Range;

/// Rows of a run's lists: list `t` is `starts[t]..starts[t + 1]`, in player order. The driver hands
/// a sink each list's changed rows; an engine fills `ListRows` with candidates, a superset of them.
#[derive(Debug, Default)]
pub struct ListRows {
    /// `rows[starts[t]..starts[t + 1]]` are list t's rows; list 0 is the starting list, as given.
    pub starts: Vec<usize>,
    pub player: Vec<u32>,
    /// False when the player left the list on this one (FIDE's: fell below the floor); the other
    /// columns then hold what the player's state was.
    pub listed: Vec<bool>,
    pub rating: Vec<i32>,
    pub k: Vec<u8>,
    /// Rated games this period.
    pub games: Vec<u32>,
    /// Games counted towards the K rule's 30.
    pub total_games: Vec<u32>,
    pub inactive: Vec<bool>,
    /// First rating (or first appearance of a seeded player) on this list.
    pub new: Vec<bool>,
    /// The change from the player's rating on the previous list; `None` when not on it.
    pub change: Vec<Option<i32>>,
    /// Unrounded ratings, for systems that rate in real numbers (empty for FIDE's).
    pub exact: Vec<f64>,
    /// Rating deviations, for systems that have them (empty otherwise).
    pub deviation: Vec<f64>,
    /// Whether the system fills `exact` and `deviation`: the same for every list of a run, empty
    /// lists included, so that every list has the same columns.
    pub with_exact: bool,
    pub with_deviation: bool,
}

impl ListRows {
    /// Empties the rows for the next list, keeping the buffers.
    pub(super) fn begin(&mut self) {
        self.starts.clear();
        self.starts.push(0);
        self.player.clear();
        self.listed.clear();
        self.rating.clear();
        self.k.clear();
        self.games.clear();
        self.total_games.clear();
        self.inactive.clear();
        self.new.clear();
        self.change.clear();
        self.exact.clear();
        self.deviation.clear();
    }

    /// Appends one list's rows as the next list.
    pub(super) fn append(&mut self, list: &ListRows) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        self.player.extend_from_slice(&list.player);
        self.listed.extend_from_slice(&list.listed);
        self.rating.extend_from_slice(&list.rating);
        self.k.extend_from_slice(&list.k);
        self.games.extend_from_slice(&list.games);
        self.total_games.extend_from_slice(&list.total_games);
        self.inactive.extend_from_slice(&list.inactive);
        self.new.extend_from_slice(&list.new);
        self.change.extend_from_slice(&list.change);
        self.exact.extend_from_slice(&list.exact);
        self.deviation.extend_from_slice(&list.deviation);
        self.with_exact = list.with_exact;
        self.with_deviation = list.with_deviation;
        self.starts.push(self.player.len());
    }

    /// One row of a system that rates in real numbers: its whole and exact rating, no K, never
    /// inactive, `new` left to the driver.
    pub(super) fn push_real(
        &mut self,
        (player, listed): (usize, bool),
        (rating, exact): (i32, f64),
        deviation: Option<f64>,
        games: (u32, u32),
    ) {
        self.player.push(player as u32);
        self.listed.push(listed);
        self.rating.push(rating);
        self.exact.push(exact);
        self.deviation.extend(deviation);
        self.k.push(0);
        self.games.push(games.0);
        self.total_games.push(games.1);
        self.inactive.push(false);
        self.new.push(false);
    }

    /// Keeps row `i` as row `kept` (`kept` ≤ `i`), moving it only where rows before it were
    /// dropped, and counts it.
    fn keep_row(&mut self, i: usize, kept: &mut usize) {
        if i != *kept {
            self.move_row(i, *kept);
        }
        *kept += 1;
    }

    /// Moves row `from` to row `to` (`to` ≤ `from`), for keeping the rows that changed in place.
    fn move_row(&mut self, from: usize, to: usize) {
        self.player[to] = self.player[from];
        self.listed[to] = self.listed[from];
        self.rating[to] = self.rating[from];
        self.k[to] = self.k[from];
        self.games[to] = self.games[from];
        self.total_games[to] = self.total_games[from];
        self.inactive[to] = self.inactive[from];
        self.new[to] = self.new[from];
        self.change[to] = self.change[from];
        if self.with_exact {
            self.exact[to] = self.exact[from];
        }
        if self.with_deviation {
            self.deviation[to] = self.deviation[from];
        }
    }

    fn truncate(&mut self, rows: usize) {
        self.player.truncate(rows);
        self.listed.truncate(rows);
        self.rating.truncate(rows);
        self.k.truncate(rows);
        self.games.truncate(rows);
        self.total_games.truncate(rows);
        self.inactive.truncate(rows);
        self.new.truncate(rows);
        self.change.truncate(rows);
        self.exact.truncate(if self.with_exact { rows } else { 0 });
        self.deviation
            .truncate(if self.with_deviation { rows } else { 0 });
    }

    /// Keeps of one list's candidate rows those that say something `current` does not (completing
    /// `new` and `change`), applies them to `current`, and closes the list. Returns its new players.
    pub(super) fn keep_changes(&mut self, t: usize, current: &mut CurrentList) -> usize {
        self.change.clear();
        self.change.resize(self.player.len(), None);
        let (mut kept, mut new) = (0, 0);
        for i in 0..self.player.len() {
            let p = self.player[i] as usize;
            let held = current.rows[p];
            if !self.listed[i] {
                // Only someone on the list can leave it.
                if held.listed {
                    self.new[i] = false;
                    self.keep_row(i, &mut kept);
                }
                continue;
            }
            self.new[i] = t > 0 && (self.new[i] || held.since == NEVER);
            self.change[i] = held.listed.then(|| self.rating[i] - held.rating);
            if !held.listed || self.new[i] || self.games[i] > 0 || current.differs(p, self, i) {
                new += usize::from(self.new[i]);
                self.keep_row(i, &mut kept);
            }
        }
        self.truncate(kept);
        current.apply(t, self, 0..kept);
        self.starts.push(kept);
        new
    }

    /// The rows `rows`, in that order, as one list.
    pub fn select(&self, rows: &[usize]) -> ListRows {
        let mut out = ListRows {
            with_exact: self.with_exact,
            with_deviation: self.with_deviation,
            ..ListRows::default()
        };
        out.player = rows.iter().map(|&i| self.player[i]).collect();
        out.listed = rows.iter().map(|&i| self.listed[i]).collect();
        out.rating = rows.iter().map(|&i| self.rating[i]).collect();
        out.k = rows.iter().map(|&i| self.k[i]).collect();
        out.games = rows.iter().map(|&i| self.games[i]).collect();
        out.total_games = rows.iter().map(|&i| self.total_games[i]).collect();
        out.inactive = rows.iter().map(|&i| self.inactive[i]).collect();
        out.new = rows.iter().map(|&i| self.new[i]).collect();
        out.change = rows.iter().map(|&i| self.change[i]).collect();
        if self.with_exact {
            out.exact = rows.iter().map(|&i| self.exact[i]).collect();
        }
        if self.with_deviation {
            out.deviation = rows.iter().map(|&i| self.deviation[i]).collect();
        }
        out.starts = vec![0, rows.len()];
        out
    }

    /// The rows of one list, in player order.
    pub fn len(&self) -> usize {
        self.player.len()
    }

    pub fn is_empty(&self) -> bool {
        self.player.is_empty()
    }
}

const NEVER: u32 = u32::MAX;

/// One player's row in force, its columns side by side: applying a list's change to a player, or
/// reading theirs, touches one place.
#[derive(Clone, Copy, Debug)]
struct InForce {
    /// The list the row comes from; `NEVER` when never on a list.
    since: u32,
    rating: i32,
    games: u32,
    total_games: u32,
    change: Option<i32>,
    k: u8,
    listed: bool,
    inactive: bool,
    new: bool,
}

impl InForce {
    const NEVER_LISTED: InForce = InForce {
        since: NEVER,
        rating: 0,
        games: 0,
        total_games: 0,
        change: None,
        k: 0,
        listed: false,
        inactive: false,
        new: false,
    };
}

/// Each player's row in force after the lists applied so far: the whole list, kept up to date by
/// each list's changes.
#[derive(Clone, Debug, Default)]
pub struct CurrentList {
    /// The last list applied.
    t: u32,
    /// By player.
    rows: Vec<InForce>,
    /// By player, for systems that have them (empty otherwise).
    exact: Vec<f64>,
    deviation: Vec<f64>,
    with_exact: bool,
    with_deviation: bool,
    /// Players on the list.
    players: usize,
    /// The players of the last list's rows, in player order.
    changed: Vec<u32>,
}

impl CurrentList {
    /// The lists of a pool of `players` (more are made room for as they come).
    pub fn new(players: usize) -> CurrentList {
        let mut current = CurrentList::default();
        current.grow(players);
        current
    }

    /// Applies list `t`'s rows `range` of `rows`: its changes.
    pub fn apply(&mut self, t: usize, rows: &ListRows, range: Range<usize>) {
        self.t = t as u32;
        self.with_exact = rows.with_exact;
        self.with_deviation = rows.with_deviation;
        self.changed.clear();
        if range.is_empty() {
            return;
        }
        let end = range.end;
        // Sliced to the range's end, so that indexing within it needs no check per column.
        let (player, listed, rating) = (
            &rows.player[..end],
            &rows.listed[..end],
            &rows.rating[..end],
        );
        let (k, games, total_games) =
            (&rows.k[..end], &rows.games[..end], &rows.total_games[..end]);
        let (inactive, new, change) =
            (&rows.inactive[..end], &rows.new[..end], &rows.change[..end]);
        for i in range {
            let p = player[i] as usize;
            if p >= self.rows.len() {
                self.grow(p + 1);
            }
            self.changed.push(p as u32);
            let row = &mut self.rows[p];
            if listed[i] != row.listed {
                if listed[i] {
                    self.players += 1;
                } else {
                    self.players -= 1;
                }
            }
            *row = InForce {
                since: t as u32,
                rating: rating[i],
                games: games[i],
                total_games: total_games[i],
                change: change[i],
                k: k[i],
                listed: listed[i],
                inactive: inactive[i],
                new: new[i],
            };
            if rows.with_exact {
                self.exact[p] = rows.exact[i];
            }
            if rows.with_deviation {
                self.deviation[p] = rows.deviation[i];
            }
        }
    }

    /// Room for `players` players.
    fn grow(&mut self, players: usize) {
        self.rows.resize(players, InForce::NEVER_LISTED);
        self.exact.resize(players, 0.0);
        self.deviation.resize(players, 0.0);
    }

    /// Applies list `t` given whole, as runs written before lists held changes gave every list:
    /// whoever it leaves out has left.
    pub fn apply_whole(&mut self, t: usize, rows: &ListRows, range: Range<usize>) {
        let mut on_it = vec![false; self.rows.len()];
        for i in range.clone() {
            if let Some(on) = on_it.get_mut(rows.player[i] as usize) {
                *on = true;
            }
        }
        let left: Vec<u32> = (0..on_it.len() as u32)
            .filter(|&p| self.rows[p as usize].listed && !on_it[p as usize])
            .collect();
        for &p in &left {
            self.rows[p as usize].listed = false;
            self.players -= 1;
        }
        self.apply(t, rows, range);
        self.changed.extend(left);
        self.changed.sort_unstable();
    }

    /// Whether row `i` of `rows` says something about player `p` that their row in force does not
    /// (its period's games, `new` and `change` aside).
    fn differs(&self, p: usize, rows: &ListRows, i: usize) -> bool {
        let row = &self.rows[p];
        row.rating != rows.rating[i]
            || row.k != rows.k[i]
            || row.total_games != rows.total_games[i]
            || row.inactive != rows.inactive[i]
            || (rows.with_exact && self.exact[p].to_bits() != rows.exact[i].to_bits())
            || (rows.with_deviation && self.deviation[p].to_bits() != rows.deviation[i].to_bits())
    }

    /// The players on the list.
    pub fn len(&self) -> usize {
        self.players
    }

    pub fn is_empty(&self) -> bool {
        self.players == 0
    }

    /// The player's rating on the list; `None` when not on it.
    pub fn rating(&self, player: u32) -> Option<i32> {
        let row = self.rows.get(player as usize)?;
        row.listed.then_some(row.rating)
    }

    /// Whether the player is flagged inactive on the list.
    pub fn is_inactive(&self, player: u32) -> bool {
        self.rows.get(player as usize).is_some_and(|r| r.inactive)
    }

    /// The players on the list, in player order.
    pub fn players(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.rows.len() as u32).filter(|&p| self.rows[p as usize].listed)
    }

    /// Whether the player was ever on a list applied (and so, if not on it now, left it).
    pub fn ever_listed(&self, player: u32) -> bool {
        self.rows
            .get(player as usize)
            .is_some_and(|r| r.since != NEVER)
    }

    /// The players whose row the last list applied changed (left the list included).
    pub fn changed(&self) -> &[u32] {
        &self.changed
    }

    /// The whole list in force as one list's rows, in player order: a row from an earlier list has
    /// no games this period, is not new and has not changed.
    pub fn whole(&self, out: &mut ListRows) {
        out.begin();
        out.with_exact = self.with_exact;
        out.with_deviation = self.with_deviation;
        for (p, row) in self.rows.iter().enumerate().filter(|(_, r)| r.listed) {
            let now = row.since == self.t;
            out.player.push(p as u32);
            out.listed.push(true);
            out.rating.push(row.rating);
            out.k.push(row.k);
            out.games.push(if now { row.games } else { 0 });
            out.total_games.push(row.total_games);
            out.inactive.push(row.inactive);
            out.new.push(now && row.new);
            out.change.push(if now { row.change } else { Some(0) });
            if self.with_exact {
                out.exact.push(self.exact[p]);
            }
            if self.with_deviation {
                out.deviation.push(self.deviation[p]);
            }
        }
        out.starts.push(out.player.len());
    }
}
