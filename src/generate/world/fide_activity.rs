//! Who of the listed players plays in a month, and how much, taken from FIDE's own lists
//! (`activity.from_fide = 1`; docs/generate.md, "Activity from FIDE's lists") instead of fitted
//! rates, so that a calibration can only move what no list publishes.
//!
//! Two tables of FIDE's, compiled in:
//! - its players who played per list, by K and age, February 2015 – October 2026
//!   (`data/fide-activity/k-activity-2015-2026.csv`): how many of each class play in a month;
//! - its February 2025 list by class and 100-point band (`data/fide-activity/february-2025-cells.csv`,
//!   derived from `data/fide-lists-2025/standard-2025-02.csv.gz` by the test below): how those
//!   players share out among the bands, and how many of them play a few games (league and club
//!   rounds) rather than a whole event.
//!
//! A listed player's chance to play is their cell's share of the month's players who play, spread
//! over the cell's players by their own activity (`Player::activity`, zero once they stopped), so
//! that those who played last month are the likeliest to play again, as on FIDE's lists.

use std::sync::OnceLock;

use crate::model::Month;

/// FIDE's players who played per list, by K and age.
const LISTS: &str = include_str!("../../../data/fide-activity/k-activity-2015-2026.csv");
/// FIDE's February 2025 list by class and band.
const CELLS: &str = include_str!("../../../data/fide-activity/february-2025-cells.csv");
/// FIDE's January 2008 list by band, its games those of a quarter.
const JANUARY_2008: &str = include_str!("../../../data/fide-activity/january-2008-bands.csv");

pub const CLASSES: usize = 4;
/// Games of a player who played one to four in a month: FIDE's February 2025 list counts 8,150,
/// 5,592, 3,112 and 2,672 of its players from 1400 who played one, two, three and four.
const FEW_GAMES: f64 = (8150.0 + 2.0 * 5592.0 + 3.0 * 3112.0 + 4.0 * 2672.0) / 19526.0;
/// 100-point bands from 1400 to 2500 and up, as on the lists since the compression.
pub const BANDS: usize = 12;

/// The weight, in players, pulling a thin cell's shares to its class's (a cell of 100 players
/// stands halfway): the February 2025 list has 3 K 10 players below 1900 and 189 new adults at
/// 2300, none of whom played.
const PRIOR_PLAYERS: f64 = 100.0;

/// A listed player's class as FIDE's lists publish it (reference §3.2, 2014 onward): K 10 once
/// rated 2400, K 40 for juniors (to the end of the year of their 18th birthday) and for players
/// with fewer than 30 games, K 20 for the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    K10 = 0,
    K20 = 1,
    Junior = 2,
    K40 = 3,
}

impl Class {
    pub const ALL: [Class; CLASSES] = [Class::K10, Class::K20, Class::Junior, Class::K40];

    pub fn name(self) -> &'static str {
        match self {
            Class::K10 => "K10",
            Class::K20 => "K20",
            Class::Junior => "junior",
            Class::K40 => "K40",
        }
    }

    /// The class of a player once rated 2400 or not, born in `born_year`, on a list of `year`,
    /// with `games` games in all.
    pub fn of(ever_2400: bool, born_year: i32, year: i32, games: u32) -> Class {
        if ever_2400 {
            Class::K10
        } else if year - born_year <= 18 {
            Class::Junior
        } else if games < 30 {
            Class::K40
        } else {
            Class::K20
        }
    }
}

/// The band of a rating on the lists since March 2024.
pub fn band(rating: f64) -> usize {
    (((rating - 1400.0) / 100.0).floor().max(0.0) as usize).min(BANDS - 1)
}

/// One cell of the February 2025 list: its players, those who played and their games, and those
/// who played at most four games.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cell {
    pub players: u32,
    pub played: u32,
    pub games: u32,
    pub few: u32,
}

/// FIDE's activity, read from the compiled-in tables.
#[derive(Debug)]
pub struct Fide {
    cells: [[Cell; BANDS]; CLASSES],
    /// Each list's players who played, by class.
    lists: Vec<(Month, [f64; CLASSES])>,
    /// January 2008's games a month per listed player, by band (of the ratings after March 2024).
    before: [f64; BANDS],
}

impl Fide {
    /// The tables, read once.
    pub fn get() -> &'static Fide {
        static FIDE: OnceLock<Fide> = OnceLock::new();
        FIDE.get_or_init(|| Fide::parse(LISTS, CELLS, JANUARY_2008))
    }

    /// Reads the two tables; they are compiled in and checked by the tests, so a malformed one
    /// is a bug in the build.
    fn parse(lists: &str, cells: &str, january_2008: &str) -> Fide {
        let mut table = [[Cell::default(); BANDS]; CLASSES];
        for row in rows(cells) {
            let class = Class::ALL
                .into_iter()
                .find(|c| c.name() == row.text("class"))
                .expect("a class of the cells table");
            let band = band(row.number("band"));
            table[class as usize][band] = Cell {
                players: row.number("players") as u32,
                played: row.number("played") as u32,
                games: row.number("games") as u32,
                few: row.number("played_1_to_4") as u32,
            };
        }
        let mut before = [0.0; BANDS];
        for row in rows(january_2008) {
            let players = row.number("players");
            if players > 0.0 {
                before[band(row.number("band"))] = row.number("games") / 3.0 / players;
            }
        }
        // The bands under January 2008's floor (lists since 2009 went lower) play as its lowest.
        let lowest = before
            .iter()
            .position(|&g| g > 0.0)
            .expect("a band with players");
        let games = before[lowest];
        before[..lowest].fill(games);
        let mut by_list = Vec::new();
        for row in rows(lists) {
            let month = Month::parse(row.text("list")).expect("a list's month");
            let n = |column: &str| row.number(column);
            let total = n("played_total");
            let k10 = n("played_K10");
            let junior = n("juniors_played_total") - n("juniors_played_K10");
            let k40 = n("played_K40") - n("juniors_played_K40");
            let k20 = total - k10 - junior - k40;
            by_list.push((month, [k10, k20, junior, k40]));
        }
        Fide {
            cells: table,
            lists: by_list,
            before,
        }
    }

    pub fn cell(&self, class: Class, band: usize) -> Cell {
        self.cells[class as usize][band]
    }

    /// The class's cells summed over its bands.
    fn class_cell(&self, class: Class) -> Cell {
        self.cells[class as usize]
            .iter()
            .fold(Cell::default(), |a, c| Cell {
                players: a.players + c.players,
                played: a.played + c.played,
                games: a.games + c.games,
                few: a.few + c.few,
            })
    }

    /// The share of the cell's players who played in February 2025, a thin cell pulled to its
    /// class's share.
    pub fn share(&self, class: Class, band: usize) -> f64 {
        self.pulled(class, band, |c| (c.played, c.players))
    }

    /// Games per player who played in the cell, pulled alike.
    pub fn games(&self, class: Class, band: usize) -> f64 {
        self.pulled(class, band, |c| (c.games, c.played))
    }

    /// The share of the cell's players who played that played at most four games, pulled alike.
    pub fn few_share(&self, class: Class, band: usize) -> f64 {
        self.pulled(class, band, |c| (c.few, c.played))
    }

    /// A ratio of the cell's counts, `PRIOR_PLAYERS` of its denominator added at the class's ratio.
    fn pulled(&self, class: Class, band: usize, ratio: fn(Cell) -> (u32, u32)) -> f64 {
        let (count, of) = ratio(self.cell(class, band));
        let (class_count, class_of) = ratio(self.class_cell(class));
        let prior = f64::from(class_count) / f64::from(class_of);
        (f64::from(count) + PRIOR_PLAYERS * prior) / (f64::from(of) + PRIOR_PLAYERS)
    }

    /// Games a player of the cell played in a month of whole events on FIDE's February 2025 list:
    /// those of its players who played more than four games (the cell's games less those of the
    /// players who played at most four, `FEW_GAMES` each), pulled alike.
    pub fn long_games(&self, class: Class, band: usize) -> f64 {
        self.pulled(class, band, |c| {
            let few_games = (f64::from(c.few) * FEW_GAMES).round() as u32;
            (c.games.saturating_sub(few_games), c.played - c.few)
        })
    }

    /// The share of league months of a player not yet listed, born in `born_year`, in `year`: that
    /// of the new players of their age on FIDE's February 2025 list (juniors or new adults), whom
    /// the clubs' teams take alike, so that players not yet rated meet rated ones there.
    pub fn unlisted_few_share(&self, born_year: i32, year: i32) -> f64 {
        let class = Class::of(false, born_year, year, 0);
        let all = self.class_cell(class);
        f64::from(all.few) / f64::from(all.played)
    }

    /// FIDE's players who played by class on the list that rates the games of `month` (the next
    /// month's), where FIDE's series has that list.
    pub fn played(&self, month: Month) -> Option<[f64; CLASSES]> {
        let list = month.plus(1);
        self.lists
            .iter()
            .find(|(m, _)| *m == list)
            .map(|(_, counts)| *counts)
    }

    /// What the month's listed players play: FIDE's players who played by class, at `scale`
    /// times FIDE's size, where its series has the list that rates the month's games; before it,
    /// January 2008's games per listed player by band in the month's share of the season.
    pub fn wanted(&self, month: Month, scale: f64, season: f64) -> Wanted {
        match self.played(month) {
            Some(counts) => Wanted::ByClass(counts.map(|c| c * scale)),
            None => Wanted::Games(self.before.map(|g| g * season)),
        }
    }
}

/// One listed player this month: their cell and their own activity (0 once they stopped).
#[derive(Clone, Copy, Debug)]
pub struct Listed {
    pub player: usize,
    pub class: Class,
    pub band: usize,
    pub activity: f64,
}

/// What the month's listed players play: how many of each class play, or how many games a listed
/// player of each band plays in the month.
pub enum Wanted {
    ByClass([f64; CLASSES]),
    Games([f64; BANDS]),
}

/// Each listed player's chance to play this month, by their place in `listed`. Each class's
/// players who play are shared among its bands as FIDE's February 2025 shares who played weigh
/// the band's players; where games per listed player are wanted, each band's players who play are
/// as many as play those games at February 2025's games per player who played, shared among its
/// classes alike. Within a cell they are shared by each player's activity, no chance above 1.
pub fn chances(fide: &Fide, listed: &[Listed], wanted: &Wanted) -> Vec<f64> {
    let cell = |l: &Listed| l.class as usize * BANDS + l.band;
    let mut players = [0.0f64; CLASSES * BANDS];
    for l in listed {
        players[cell(l)] += 1.0;
    }
    let weight = |c: usize| players[c] * fide.share(Class::ALL[c / BANDS], c % BANDS);
    let mut target = [0.0f64; CLASSES * BANDS];
    match wanted {
        Wanted::ByClass(counts) => {
            for (k, &count) in counts.iter().enumerate() {
                let cells = k * BANDS..(k + 1) * BANDS;
                let sum: f64 = cells.clone().map(weight).sum();
                for c in cells.filter(|_| sum > 0.0) {
                    target[c] = count * weight(c) / sum;
                }
            }
        }
        Wanted::Games(games) => {
            for (b, &per_player) in games.iter().enumerate() {
                let cells = (0..CLASSES).map(|k| k * BANDS + b);
                let band_players: f64 = cells.clone().map(|c| players[c]).sum();
                let played_games: f64 = cells
                    .clone()
                    .map(|c| weight(c) * fide.games(Class::ALL[c / BANDS], b))
                    .sum();
                for c in cells.filter(|_| played_games > 0.0) {
                    target[c] = per_player * band_players * weight(c) / played_games;
                }
            }
        }
    }
    let mut activity: Vec<Vec<f64>> = vec![Vec::new(); CLASSES * BANDS];
    for l in listed {
        activity[cell(l)].push(l.activity);
    }
    let scale: Vec<f64> = activity
        .iter()
        .zip(target)
        .map(|(a, t)| scale_to(a, t))
        .collect();
    listed
        .iter()
        .map(|l| match l.activity > 0.0 {
            true => (scale[cell(l)] * l.activity).min(1.0),
            false => 0.0,
        })
        .collect()
}

/// The factor c for which Σ min(1, c × a) over `activity` is `target` (every player who can play
/// does when the target is more than they are): a few passes of c ← c × target / Σ, which rise to
/// it from below, since the chances capped at 1 only ever fall short of c × a.
fn scale_to(activity: &[f64], target: f64) -> f64 {
    let total: f64 = activity.iter().sum();
    if target <= 0.0 || total <= 0.0 {
        return 0.0;
    }
    let able = activity.iter().filter(|&&a| a > 0.0).count() as f64;
    if target >= able {
        return f64::INFINITY;
    }
    let mut c = target / total;
    for _ in 0..50 {
        let sum: f64 = activity.iter().map(|a| (c * a).min(1.0)).sum();
        if (sum - target).abs() <= 1e-6 * target {
            break;
        }
        c *= target / sum;
    }
    c
}

/// A CSV table's rows with its header's names (the compiled-in tables have no quoting).
fn rows(text: &str) -> impl Iterator<Item = Row<'_>> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    lines.map(move |line| Row {
        header: header.clone(),
        values: line.split(',').collect(),
    })
}

struct Row<'a> {
    header: Vec<&'a str>,
    values: Vec<&'a str>,
}

impl<'a> Row<'a> {
    fn text(&self, column: &str) -> &'a str {
        let at = self.header.iter().position(|h| *h == column);
        at.and_then(|i| self.values.get(i).copied())
            .unwrap_or_else(|| panic!("column {column} of a compiled-in table"))
    }

    fn number(&self, column: &str) -> f64 {
        self.text(column)
            .parse()
            .unwrap_or_else(|_| panic!("a number in column {column} of a compiled-in table"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cells table is FIDE's February 2025 list counted by class and band: recounted from
    /// the list itself, it is the compiled-in file, byte for byte.
    #[test]
    fn the_cells_are_februarys_list_counted() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/fide-lists-2025/standard-2025-02.csv.gz"
        );
        let file = std::fs::File::open(path).unwrap();
        let mut reader = csv::Reader::from_reader(flate2::read::GzDecoder::new(file));
        let header = reader.headers().unwrap().clone();
        let at = |name: &str| header.iter().position(|h| h == name).unwrap();
        let (rating, games, k, born) = (at("rating"), at("games"), at("k"), at("birth_year"));
        let mut cells = [[Cell::default(); BANDS]; CLASSES];
        for record in reader.records() {
            let record = record.unwrap();
            let Ok(r) = record[rating].parse::<f64>() else {
                continue;
            };
            let g: u32 = record[games].parse().unwrap_or(0);
            let k: u32 = record[k].parse().unwrap_or(0);
            let born: i32 = record[born].parse().unwrap_or(0);
            // A player of unknown birth (0) counts as an adult; K is as published.
            let class = match k {
                10 => Class::K10,
                _ if born > 0 && 2025 - born <= 18 => Class::Junior,
                40 => Class::K40,
                _ => Class::K20,
            };
            let cell = &mut cells[class as usize][band(r)];
            cell.players += 1;
            if g > 0 {
                cell.played += 1;
                cell.games += g;
                cell.few += u32::from(g <= 4);
            }
        }
        let mut text = String::from("class,band,players,played,games,played_1_to_4\n");
        for class in Class::ALL {
            for (b, c) in cells[class as usize].iter().enumerate() {
                text.push_str(&format!(
                    "{},{},{},{},{},{}\n",
                    class.name(),
                    1400 + 100 * b,
                    c.players,
                    c.played,
                    c.games,
                    c.few
                ));
            }
        }
        assert_eq!(CELLS, text, "the cells table should read:\n{text}");
    }

    #[test]
    fn the_tables_read_as_fide_published_them() {
        let fide = Fide::get();
        // 2025-02: 69,533 played, 1,872 of them K 10; juniors 23,236 (91 K 10).
        let feb = fide.played(Month::new(2025, 1).unwrap()).unwrap();
        assert_eq!(feb[Class::K10 as usize], 1872.0);
        assert_eq!(feb[Class::Junior as usize], 23236.0 - 91.0);
        assert_eq!(feb.iter().sum::<f64>(), 69533.0);
        assert!(fide.played(Month::new(2014, 12).unwrap()).is_none());
        assert!(fide.played(Month::new(2015, 1).unwrap()).is_some());
        // January 2008: 219,106 games in a quarter among its 87,075 players, 11,413 of them
        // among the 804 of 2500 and up.
        let Wanted::Games(before) = fide.wanted(Month::new(2008, 1).unwrap(), 1.0, 1.0) else {
            panic!("games wanted before 2015")
        };
        assert!((before[BANDS - 1] - 11413.0 / 3.0 / 804.0).abs() < 1e-9);
        // Its lowest band, 1600 where the compression puts its floor of 1400, stands for the
        // bands below it.
        assert!((before[2] - 924.0 / 3.0 / 225.0).abs() < 1e-9);
        assert_eq!((before[0], before[1]), (before[2], before[2]));
        // Juniors play more often than the adults of their band; new adults least.
        let b1600 = band(1650.0);
        assert!(fide.share(Class::Junior, b1600) > 1.5 * fide.share(Class::K20, b1600));
        assert!(fide.share(Class::K40, b1600) < 0.5 * fide.share(Class::K20, b1600));
        // A thin cell stands near its class: 3 K 10 players at 1800.
        let k10 = fide.share(Class::K10, band(2450.0));
        assert!((fide.share(Class::K10, band(1850.0)) - k10).abs() < 0.1);
        assert!(fide.few_share(Class::K20, b1600) > fide.few_share(Class::Junior, b1600));
        // Whole events: 6 games a month for new adults of 1700, 11 for K 10 players of 2500.
        let k40 = fide.long_games(Class::K40, band(1750.0));
        let top = fide.long_games(Class::K10, band(2550.0));
        assert!(
            (6.0..7.0).contains(&k40) && (10.5..12.0).contains(&top),
            "{k40} {top}"
        );
    }

    /// The world file of docs/generate.md ("Activity from FIDE's lists") is the built-in world
    /// with its activity from FIDE's lists and nothing else; its refit keeps the activity.
    #[test]
    fn the_lists_world_changes_only_where_activity_comes_from() {
        let base = crate::generate::world::preset("fide-2001-2025").unwrap();
        let lists = crate::generate::world::load("worlds/fide-2001-2025-lists.toml").unwrap();
        assert_eq!((base.from_fide, lists.from_fide), (0, 1));
        let refit = crate::generate::world::load("worlds/refits/lists-refit.toml").unwrap();
        assert_eq!((refit.name.as_str(), refit.from_fide), ("lists-refit", 1));
        assert!((refit.form_sd - 12.47).abs() < 1e-9);
        let named = crate::generate::world::Settings {
            name: base.name.clone(),
            from_fide: 0,
            ..lists
        };
        assert_eq!(named, base);
    }

    #[test]
    fn bands_stand_where_the_compression_put_them() {
        let before = super::super::published::Published::new();
        let today = |r: i32| band(f64::from(before.todays_scale(r)));
        assert_eq!(today(1000), 0);
        assert_eq!(today(1500), band(1700.0));
        assert_eq!(before.todays_scale(2100), 2100);
        assert_eq!(band(1399.0), 0);
        assert_eq!(band(2900.0), BANDS - 1);
        assert_eq!(Class::of(false, 2007, 2025, 3), Class::Junior);
        assert_eq!(Class::of(false, 2006, 2025, 3), Class::K40);
        assert_eq!(Class::of(false, 1980, 2025, 30), Class::K20);
        assert_eq!(Class::of(true, 2010, 2025, 3), Class::K10);
    }

    /// The chances give each class its count, its bands their shares and no one more than 1.
    #[test]
    fn chances_meet_each_class_s_count() {
        let fide = Fide::get();
        let mut listed = Vec::new();
        for i in 0..20_000 {
            listed.push(Listed {
                player: i,
                class: Class::ALL[i % CLASSES],
                band: (i / CLASSES) % BANDS,
                activity: if i % 7 == 0 {
                    0.0
                } else {
                    1.0 + (i % 13) as f64
                },
            });
        }
        let wanted = [300.0, 800.0, 1200.0, 150.0];
        let p = chances(fide, &listed, &Wanted::ByClass(wanted));
        for class in Class::ALL {
            let sum: f64 = listed
                .iter()
                .zip(&p)
                .filter(|(l, _)| l.class == class)
                .map(|(_, p)| p)
                .sum();
            assert!((sum - wanted[class as usize]).abs() < 0.01, "{sum}");
        }
        assert!(p.iter().all(|&p| (0.0..=1.0).contains(&p)));
        assert!(listed
            .iter()
            .zip(&p)
            .all(|(l, &p)| l.activity > 0.0 || p == 0.0));
        // Within a class the bands play in proportion to February's shares (same players each).
        let in_band = |class: Class, band: usize| -> f64 {
            listed
                .iter()
                .zip(&p)
                .filter(|(l, _)| l.class == class && l.band == band)
                .map(|(_, p)| p)
                .sum()
        };
        let ratio = in_band(Class::Junior, 2) / in_band(Class::Junior, 6);
        let shares = fide.share(Class::Junior, 2) / fide.share(Class::Junior, 6);
        assert!((ratio - shares).abs() < 0.01 * shares, "{ratio} {shares}");
        // More wanted than can play: all who can, play.
        let all = chances(fide, &listed, &Wanted::ByClass([1e9; CLASSES]));
        assert!(listed
            .iter()
            .zip(&all)
            .all(|(l, &p)| p == if l.activity > 0.0 { 1.0 } else { 0.0 }));
        // Games wanted: each band's listed players play that many games a head at February's
        // games per player who played.
        let mut per_player = [0.0; BANDS];
        per_player[3] = 0.5;
        let games = chances(fide, &listed, &Wanted::Games(per_player));
        let band_games: f64 = listed
            .iter()
            .zip(&games)
            .map(|(l, p)| p * fide.games(l.class, l.band))
            .sum();
        let band_players = listed.iter().filter(|l| l.band == 3).count() as f64;
        assert!(
            (band_games - 0.5 * band_players).abs() < 0.01,
            "{band_games}"
        );
        assert!(listed
            .iter()
            .zip(&games)
            .all(|(l, &p)| l.band == 3 || p == 0.0));
    }

    /// The January 2008 table is FIDE's list of that month counted by band (its rating where
    /// the compression would put it): recounted from the list, it is the compiled-in file.
    #[test]
    fn january_2008_is_its_list_counted() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/fide-lists/2008-01.TXT");
        let bytes = std::fs::read(path).unwrap();
        let text: String = bytes.iter().map(|&b| char::from(b)).collect();
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
        let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
        let (rating, games) = (at("Rtng"), at("Game"));
        let mut bands = [(0u32, 0u32, 0u32); BANDS];
        let before = super::super::published::Published::new();
        for line in lines {
            let fields: Vec<&str> = line.split('\t').collect();
            let Some(Ok(r)) = fields.get(rating).map(|r| r.trim().parse::<i32>()) else {
                continue;
            };
            let g: u32 = fields[games].trim().parse().unwrap_or(0);
            let band = &mut bands[band(f64::from(before.todays_scale(r)))];
            band.0 += 1;
            band.1 += u32::from(g > 0);
            band.2 += g;
        }
        let mut expected = String::from("band,players,played,games\n");
        for (b, (players, played, games)) in bands.iter().enumerate() {
            expected.push_str(&format!("{},{players},{played},{games}\n", 1400 + 100 * b));
        }
        assert_eq!(JANUARY_2008, expected, "the table should read:\n{expected}");
    }
}
