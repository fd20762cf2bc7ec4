//! Game Courier Ratings (seed 003, Fergus Duniho, chessvariants.com): a holistic system that at every
//! list recomputes everyone's rating from all games so far, in the seed's eight steps:
//! 1. a table of pairwise wins (a draw is ½ each);
//! 2. everyone at 1500;
//! 3. players ordered by decreasing games, then games won, then opponents (then id, so that the
//!    order is total);
//! 4. everyone's past games at zero;
//! 5. every pair that has played, in a zig-zag order, p1 the earlier in the order:
//!    expected = (r1 − r2)/8 + 50 % (0 % and 100 % beyond ∓400), change = (actual − expected) × 400
//!    × n/(n + 10), and for each player × (1 − p/(p + 800)) with p his past games; p1 gains it and
//!    p2 loses it; then both add the n games to their past games;
//! 6. past games back to zero;
//! 7. the same again in the reverse order, from 1500;
//! 8. the two sets averaged.
//!
//! The seed publishes whole ratings by truncating the average: its worked example, two players of
//! whom one scored 2.5 out of 3, computes 1530.77 and 1469.23 and shows 1530 and 1469. elosim
//! follows it (`truncate = 1`, the default); `truncate = 0` rounds instead (1531 and 1469).
//!
//! The seed does not define the zig-zag; this module reads it so: with players at positions
//! 0..n−1 of the order, the pairs are taken diagonal by diagonal (positions i and i + d for
//! d = 1, 2, …), i rising on odd diagonals and falling on even ones, so that each player meets his
//! opponents spread over the whole pass, never all at once. Only pairs that have played matter,
//! so only they are sorted into that order: a pass costs O(P log P) for P pairs, not O(n²).

use crate::model::IdMap;

use super::settings::settings;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GcrConfig {
    pub initial: f64,
    /// The largest change of one pair evaluation (the difference between actual and expected × this).
    pub max_change: f64,
    /// n/(n + games_damping) for n games together.
    pub games_damping: f64,
    /// 1 − p/(p + experience_damping) for p past games.
    pub experience_damping: f64,
    /// Publish whole ratings by truncating, as the seed does, rather than rounding.
    pub truncate: bool,
}

impl Default for GcrConfig {
    fn default() -> GcrConfig {
        GcrConfig {
            initial: 1500.0,
            max_change: 400.0,
            games_damping: 10.0,
            experience_damping: 800.0,
            truncate: true,
        }
    }
}

settings!(GcrConfig {
    initial: "initial", at_least(0.0, 4000.0), "everyone's rating before each pass";
    max_change: "max-change", above(0.0, 4000.0), "largest change of one pair (× actual − expected)";
    games_damping: "games-damping", above(0.0, 10_000.0), "n/(n + this) for n games together";
    experience_damping: "experience-damping", above(0.0, 1_000_000.0), "1 − p/(p + this) for p past games";
    truncate: "truncate", switch(), "1: whole ratings truncated, as the seed shows them; 0: rounded";
});

/// The linear expectancy of the player rated `diff` above the other, 0..1.
pub fn expected(diff: f64) -> f64 {
    (diff / 800.0 + 0.5).clamp(0.0, 1.0)
}

/// All games so far between each pair of players: (games, points of the lower-numbered player).
#[derive(Clone, Debug, Default)]
pub struct PairTable {
    pairs: IdMap<(u32, u32), (u32, f64)>,
    games: Vec<u32>,
    won: Vec<f64>,
}

impl PairTable {
    /// Step 1: one game, White's score 0..1.
    pub fn add(&mut self, white: u32, black: u32, score: f64) {
        let players = white.max(black) as usize + 1;
        if self.games.len() < players {
            self.games.resize(players, 0);
            self.won.resize(players, 0.0);
        }
        let (a, b, points) = if white < black {
            (white, black, score)
        } else {
            (black, white, 1.0 - score)
        };
        let entry = self.pairs.entry((a, b)).or_insert((0, 0.0));
        entry.0 += 1;
        entry.1 += points;
        self.games[white as usize] += 1;
        self.games[black as usize] += 1;
        self.won[white as usize] += score;
        self.won[black as usize] += 1.0 - score;
    }

    pub fn players(&self) -> usize {
        self.games.len()
    }

    pub fn games_of(&self, player: u32) -> u32 {
        self.games.get(player as usize).copied().unwrap_or(0)
    }
}

impl super::Newcomers for GcrConfig {
    fn newcomers(&self) -> String {
        format!(
            "every player starts each list's pass over all games at {}",
            self.initial
        )
    }
}

impl GcrConfig {
    /// The whole rating published for an exact one.
    pub fn published(&self, exact: f64) -> i32 {
        if self.truncate {
            exact.trunc() as i32
        } else {
            exact.round() as i32
        }
    }

    /// Steps 2–8: every player's rating from the table (players without games keep `initial`).
    pub fn ratings(&self, table: &PairTable) -> Vec<f64> {
        let n = table.players();
        let mut opponents = vec![0u32; n];
        for &(a, b) in table.pairs.keys() {
            opponents[a as usize] += 1;
            opponents[b as usize] += 1;
        }
        // Step 3.
        let mut order: Vec<u32> = (0..n as u32)
            .filter(|&p| table.games[p as usize] > 0)
            .collect();
        order.sort_by(|&x, &y| {
            let (x, y) = (x as usize, y as usize);
            table.games[y]
                .cmp(&table.games[x])
                .then(table.won[y].total_cmp(&table.won[x]))
                .then(opponents[y].cmp(&opponents[x]))
                .then(x.cmp(&y))
        });
        let mut position = vec![usize::MAX; n];
        for (i, &p) in order.iter().enumerate() {
            position[p as usize] = i;
        }
        // The zig-zag order of the pairs that have played: diagonal d, then i along it.
        let mut pairs: Vec<(usize, usize, u32, f64)> = table
            .pairs
            .iter()
            .map(|(&(a, b), &(games, points))| {
                let (pa, pb) = (position[a as usize], position[b as usize]);
                if pa < pb {
                    (pa, pb, games, points)
                } else {
                    (pb, pa, games, f64::from(games) - points)
                }
            })
            .collect();
        pairs.sort_by_key(|&(i, j, _, _)| {
            let d = j - i;
            let along = if d % 2 == 1 { i as i64 } else { -(i as i64) };
            (d, along)
        });
        let forward = self.pass(&order, &pairs);
        pairs.reverse();
        let backward = self.pass(&order, &pairs);
        let mut ratings = vec![self.initial; n];
        for (i, &p) in order.iter().enumerate() {
            ratings[p as usize] = (forward[i] + backward[i]) / 2.0;
        }
        ratings
    }

    /// Steps 4 and 5 over the pairs in the given order; ratings by position.
    fn pass(&self, order: &[u32], pairs: &[(usize, usize, u32, f64)]) -> Vec<f64> {
        let mut rating = vec![self.initial; order.len()];
        let mut past = vec![0u32; order.len()];
        for &(i, j, games, points) in pairs {
            let n = f64::from(games);
            let actual = points / n;
            let change = (actual - expected(rating[i] - rating[j])) * self.max_change * n
                / (n + self.games_damping);
            let damp = |p: u32| 1.0 - f64::from(p) / (f64::from(p) + self.experience_damping);
            rating[i] += change * damp(past[i]);
            rating[j] -= change * damp(past[j]);
            past[i] += games;
            past[j] += games;
        }
        rating
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_expectancy_is_capped_at_400() {
        assert_eq!(expected(0.0), 0.5);
        assert_eq!(expected(200.0), 0.75);
        assert_eq!(expected(400.0), 1.0);
        assert_eq!(expected(-650.0), 0.0);
    }

    /// One pair, by hand: both at 1500; p1 won 2 of 3 (66.7 %) against 50 % expected: the change is
    /// (2/3 − 1/2) × 400 × 3/13 = 15.3846…, no past games yet in either pass; so p1 ends at
    /// 1515.3846 and p2 at 1484.6154, whichever pass.
    #[test]
    fn one_pair_by_hand() {
        let mut table = PairTable::default();
        table.add(0, 1, 1.0);
        table.add(1, 0, 0.0);
        table.add(0, 1, 0.0);
        let r = GcrConfig::default().ratings(&table);
        let change = (2.0 / 3.0 - 0.5) * 400.0 * 3.0 / 13.0;
        assert!((r[0] - (1500.0 + change)).abs() < 1e-9, "{r:?}");
        assert!((r[1] - (1500.0 - change)).abs() < 1e-9);
    }

    /// Seed 003's worked example: Carlos scores 2.5 out of 3 against Charles; both start at 1500,
    /// the change is (5/6 − ½) × 400 × 3/13 = 30.77, and the seed shows 1530 and 1469 (truncated).
    #[test]
    fn the_seeds_example_2_5_out_of_3() {
        let mut table = PairTable::default();
        table.add(0, 1, 1.0);
        table.add(0, 1, 1.0);
        table.add(1, 0, 0.5);
        let gcr = GcrConfig::default();
        let r = gcr.ratings(&table);
        assert!(
            (r[0] - (1500.0 + (5.0 / 6.0 - 0.5) * 400.0 * 3.0 / 13.0)).abs() < 1e-9,
            "{r:?}"
        );
        assert_eq!((gcr.published(r[0]), gcr.published(r[1])), (1530, 1469));
        let rounding = GcrConfig {
            truncate: false,
            ..gcr
        };
        assert_eq!(
            (rounding.published(r[0]), rounding.published(r[1])),
            (1531, 1469)
        );
    }

    /// Three players ordered 0, 1, 2 (6, 5 and 3 games): the forward pass meets (0,1) and (1,2)
    /// [diagonal 1, rising] then (0,2) [diagonal 2]; the reverse pass the other way round; the two
    /// are averaged. Past games damp the later pairs of each pass.
    #[test]
    fn three_players_two_passes() {
        let mut table = PairTable::default();
        for _ in 0..4 {
            table.add(0, 1, 1.0);
        }
        for _ in 0..2 {
            table.add(2, 0, 0.0);
        }
        table.add(1, 2, 0.5);
        let damp = |p: f64| 1.0 - p / (p + 800.0);
        let step = |r1: f64, r2: f64, n: f64, points: f64| {
            (points / n - expected(r1 - r2)) * 400.0 * n / (n + 10.0)
        };
        let mut f = [1500.0; 3];
        let c = step(f[0], f[1], 4.0, 4.0);
        f[0] += c;
        f[1] -= c;
        let c = step(f[1], f[2], 1.0, 0.5);
        f[1] += c * damp(4.0);
        f[2] -= c;
        let c = step(f[0], f[2], 2.0, 2.0);
        f[0] += c * damp(4.0);
        f[2] -= c * damp(1.0);
        let mut b = [1500.0; 3];
        let c = step(b[0], b[2], 2.0, 2.0);
        b[0] += c;
        b[2] -= c;
        let c = step(b[1], b[2], 1.0, 0.5);
        b[1] += c;
        b[2] -= c * damp(2.0);
        let c = step(b[0], b[1], 4.0, 4.0);
        b[0] += c * damp(2.0);
        b[1] -= c * damp(1.0);
        let r = GcrConfig::default().ratings(&table);
        for p in 0..3 {
            assert!((r[p] - (f[p] + b[p]) / 2.0).abs() < 1e-9, "{p}: {r:?}");
        }
    }
}
