//! Measures: what a replay is judged by, one kind per file. Each kind knows how to read its TOML
//! table, what it needs from a replay (whole lists on some months, the players' true strengths, the
//! baseline's list on the same seed), how to observe each published list, an observation that adds
//! across seeds and shards, and the figures it gives: one list of figures that feeds every table,
//! summary and picture. Observations hold sums, never means, so that seeds add up.

mod counts;
mod curve_gap;
mod disruption;
mod flatness;
mod gaps;
mod list_activity;
mod played;
mod pool_shape;
mod predictive;
mod table;
mod truth_gap;

use std::path::Path;

use toml::Table as TomlTable;

use crate::keys::{at, describe, did_you_mean, Reader};
use crate::model::{Games, Month};
use crate::replay::{ListRows, RatedGames};

pub use counts::{read_counts, Count, CountDistance, CountTarget, Counts};
pub use curve_gap::CurveGap;
pub use disruption::Disruption;
pub use flatness::Flatness;
pub use gaps::{read_gaps, Gap, GapDistance, GapTarget, Gaps};
pub use list_activity::{BandActivity, BandRatio, ListActivity};
pub use played::{read_played, Played, PlayedLists, PlayedRatios};
pub use pool_shape::PoolShape;
pub use predictive::Predictive;
pub use table::PublishedCrosstable;
pub use truth_gap::TruthGap;

/// Which way a figure is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Smaller is better (an error, a cost).
    Lower,
    /// Nearer 0 is better (a bias: too high and too low are both wrong).
    Zero,
    /// Nearer 1 is better (a slope).
    One,
    /// Not judged (a count).
    Shown,
}

impl Goal {
    /// How far a value is from the ideal: what ranking minimises; `None` for a figure not judged.
    pub fn loss(self, value: f64) -> Option<f64> {
        match self {
            Goal::Lower => Some(value),
            Goal::Zero => Some(value.abs()),
            Goal::One => Some((value - 1.0).abs()),
            Goal::Shown => None,
        }
    }

    /// For people, beside a figure: what is better.
    pub fn text(self) -> &'static str {
        match self {
            Goal::Lower => "lower is better",
            Goal::Zero => "nearer 0 is better",
            Goal::One => "nearer 1 is better",
            Goal::Shown => "not judged",
        }
    }
}

/// One figure of a measure.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// Its name within the measure (`rms`, `band.1800`); the column is `measure.figure`.
    pub name: String,
    pub value: Option<f64>,
    pub goal: Goal,
    pub unit: &'static str,
    /// The figure of the same measure that is the standard error of this one's difference from
    /// the baseline within one replay, and the factor to apply to it: what judges a difference when
    /// there is one history and no seeds.
    pub paired_se: Option<(String, f64)>,
}

impl Figure {
    pub fn new(
        name: impl Into<String>,
        value: Option<f64>,
        goal: Goal,
        unit: &'static str,
    ) -> Figure {
        Figure {
            name: name.into(),
            // An infinite factor (an empty row) is a value; NaN (nothing to divide) is none.
            value: value.filter(|v| !v.is_nan()),
            goal,
            unit,
            paired_se: None,
        }
    }

    /// The figure whose value (× `factor`) is the standard error of this one's paired difference.
    pub fn with_paired_se(mut self, figure: &str, factor: f64) -> Figure {
        self.paired_se = Some((figure.to_string(), factor));
        self
    }
}

/// What a replay must give its measures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Needs {
    /// Months whose whole list a measure reads.
    pub lists: Vec<Month>,
    /// Months whose true strengths a measure reads (a generated world only).
    pub truth: Vec<Month>,
    /// Januaries whose equilibrium ratings, the reachable truth, a measure reads (a generated
    /// world only: solved once per seed, `generate::world::equilibrium`).
    pub equilibrium: Vec<Month>,
    /// Months whose list a measure sets against the baseline's on the same seed.
    pub baseline: Vec<Month>,
    /// Whether a measure sets each game's expected score against the baseline's on the same seed.
    pub baseline_games: bool,
    /// The windows of lists whose games a measure reads.
    pub windows: Vec<(Month, Month)>,
}

impl Needs {
    /// Whether the baseline must be replayed first on each seed, its lists or games recorded.
    pub fn baseline(&self) -> bool {
        !self.baseline.is_empty() || self.baseline_games
    }

    /// The last month any measure reads (a list, a truth, a window's end): a replay need go no
    /// further. `None` when no measure reads a list.
    pub fn last_month(&self) -> Option<Month> {
        let months = [&self.lists, &self.truth, &self.equilibrium, &self.baseline];
        let ends = self.windows.iter().map(|&(_, to)| to);
        months.into_iter().flatten().copied().chain(ends).max()
    }

    /// Everything the measures need, each month once and in order.
    pub fn of(measures: &[Measure]) -> Needs {
        let mut needs = Needs::default();
        for m in measures {
            m.kind.needs(&mut needs);
        }
        for months in [
            &mut needs.lists,
            &mut needs.truth,
            &mut needs.equilibrium,
            &mut needs.baseline,
        ] {
            months.sort();
            months.dedup();
        }
        needs
    }
}

/// One list as the replay published it, with what the measures asked for.
pub struct ListView<'a> {
    pub month: Month,
    /// The games rated on the list; `game` indexes `input`.
    pub games: &'a RatedGames,
    pub input: &'a Games,
    /// The whole list in force, on the months of `Needs::lists` and `Needs::baseline`.
    pub whole: Option<&'a ListRows>,
    /// Every player's true strength this month by player index (NaN: not present), on the months
    /// of `Needs::truth`.
    pub truth: Option<&'a [f32]>,
    /// Every player's equilibrium rating by player index (NaN: no game in the window), on the
    /// months of `Needs::equilibrium`.
    pub equilibrium: Option<&'a [f32]>,
    /// The baseline's rating of each player on this list (`None`: not on it), on the months of
    /// `Needs::baseline`.
    pub baseline: Option<&'a [Option<i32>]>,
    /// The baseline's expected score for White in each game, by the game's index in `input`
    /// (NaN: the baseline scored it not), with `Needs::baseline_games`.
    pub baseline_expected: Option<&'a [f64]>,
}

impl ListView<'_> {
    /// Each rated game of the list with both players' ratings in it: (white's, black's, white's
    /// score in half points).
    pub fn rated_pairs(&self) -> impl Iterator<Item = (i32, i32, u8)> + '_ {
        let g = self.games;
        (0..g.len()).filter_map(move |i| {
            let (w, b) = (g.white[i].rating?, g.black[i].rating?);
            Some((w, b, self.input.score[g.game[i] as usize]))
        })
    }
}

/// What each kind of measure does; `measures!` below makes the one enum of them.
pub trait Kind: Sized {
    /// What it keeps of a replay: sums that add across seeds.
    type Observed: Clone + std::fmt::Debug + Send + Sync;

    /// Its name in files (`kind = "truth-gap"`).
    const NAME: &'static str;
    /// Its keys in a measure's table, besides `kind` and `name`.
    const KEYS: &'static [&'static str];
    /// What it measures, for `--help`-like listings and messages.
    const MEANING: &'static str;
    /// Whether it needs the players' true strengths (a generated world) to be measured at all.
    const NEEDS_TRUTH: bool = false;
    /// As a calibration target (published figures its `error` fits): the keys by which a
    /// `[[target]]` table states this kind (none: the kind of a table that states none). `None`:
    /// not a calibration target.
    const TARGET_KEYS: Option<&'static [&'static str]> = None;

    /// Reads its keys from `table` at `path`; `dir` is the file's folder, for relative paths.
    fn read(r: &mut Reader, table: &TomlTable, path: &str, dir: &Path) -> Option<Self>;
    /// Its name when the file gives none.
    fn default_name(&self) -> String;
    fn needs(&self, needs: &mut Needs);
    fn empty(&self) -> Self::Observed;
    fn observe(&self, list: &ListView<'_>, into: &mut Self::Observed);
    fn add(into: &mut Self::Observed, other: &Self::Observed);
    /// Its figures; `size` is the replays' size against FIDE's (a world's scale times its seeds),
    /// for counts stated at FIDE's size.
    fn figures(&self, observed: &Self::Observed, size: f64) -> Vec<Figure>;
    /// One line for people.
    fn line(&self, observed: &Self::Observed, size: f64) -> String;
    /// Its term of a calibration's objective (`None` where the published figures are missing, and
    /// for a kind that is not a target); `share_weight` weighs squared log ratios against squared
    /// percentage points.
    fn error(&self, _observed: &Self::Observed, _size: f64, _share_weight: f64) -> Option<f64> {
        None
    }
}

/// Declares the kinds once: the enums of measures and observations, and their dispatch.
macro_rules! measures {
    ($($variant:ident => $kind:ty,)+) => {
        /// A measure of one kind.
        #[derive(Clone, Debug)]
        pub enum MeasureKind {
            $($variant($kind),)+
        }

        /// What a measure kept of one or more replays.
        #[derive(Clone, Debug)]
        pub enum Observed {
            $($variant(<$kind as Kind>::Observed),)+
        }

        /// Every kind's name, in the order listed.
        pub const KINDS: &[&str] = &[$(<$kind as Kind>::NAME,)+];

        /// Every kind's name with its keys as a calibration target (`Kind::TARGET_KEYS`).
        const TARGETS: &[(&str, Option<&[&str]>)] = &[$((<$kind as Kind>::NAME, <$kind as Kind>::TARGET_KEYS),)+];

        impl MeasureKind {
            fn read(kind: &str, r: &mut Reader, table: &TomlTable, path: &str, dir: &Path) -> Option<Option<MeasureKind>> {
                match kind {
                    $(<$kind as Kind>::NAME => {
                        Some(<$kind as Kind>::read(r, table, path, dir).map(MeasureKind::$variant))
                    })+
                    _ => None,
                }
            }

            fn keys(kind: &str) -> &'static [&'static str] {
                match kind {
                    $(<$kind as Kind>::NAME => <$kind as Kind>::KEYS,)+
                    _ => &[],
                }
            }

            pub fn name(&self) -> &'static str {
                match self {
                    $(MeasureKind::$variant(_) => <$kind as Kind>::NAME,)+
                }
            }

            pub fn meaning(&self) -> &'static str {
                match self {
                    $(MeasureKind::$variant(_) => <$kind as Kind>::MEANING,)+
                }
            }

            pub fn needs_truth(&self) -> bool {
                match self {
                    $(MeasureKind::$variant(_) => <$kind as Kind>::NEEDS_TRUTH,)+
                }
            }

            fn default_name(&self) -> String {
                match self {
                    $(MeasureKind::$variant(m) => m.default_name(),)+
                }
            }

            pub fn needs(&self, needs: &mut Needs) {
                match self {
                    $(MeasureKind::$variant(m) => m.needs(needs),)+
                }
            }

            pub fn empty(&self) -> Observed {
                match self {
                    $(MeasureKind::$variant(m) => Observed::$variant(m.empty()),)+
                }
            }

            pub fn observe(&self, list: &ListView<'_>, into: &mut Observed) {
                match (self, into) {
                    $((MeasureKind::$variant(m), Observed::$variant(o)) => m.observe(list, o),)+
                    _ => unreachable!("an observation of another kind"),
                }
            }

            pub fn figures(&self, observed: &Observed, size: f64) -> Vec<Figure> {
                match (self, observed) {
                    $((MeasureKind::$variant(m), Observed::$variant(o)) => m.figures(o, size),)+
                    _ => unreachable!("an observation of another kind"),
                }
            }

            pub fn line(&self, observed: &Observed, size: f64) -> String {
                match (self, observed) {
                    $((MeasureKind::$variant(m), Observed::$variant(o)) => m.line(o, size),)+
                    _ => unreachable!("an observation of another kind"),
                }
            }

            pub fn error(&self, observed: &Observed, size: f64, share_weight: f64) -> Option<f64> {
                match (self, observed) {
                    $((MeasureKind::$variant(m), Observed::$variant(o)) => m.error(o, size, share_weight),)+
                    _ => unreachable!("an observation of another kind"),
                }
            }
        }

        impl Observed {
            /// Adds another replay's observation of the same measure.
            pub fn add(&mut self, other: &Observed) {
                match (self, other) {
                    $((Observed::$variant(a), Observed::$variant(b)) => <$kind as Kind>::add(a, b),)+
                    _ => unreachable!("an observation of another kind"),
                }
            }
        }
    };
}

measures! {
    Table => PublishedCrosstable,
    Counts => Counts,
    Gaps => Gaps,
    Played => PlayedLists,
    ListActivity => ListActivity,
    TruthGap => TruthGap,
    Flatness => Flatness,
    CurveGap => CurveGap,
    Predictive => Predictive,
    Disruption => Disruption,
    PoolShape => PoolShape,
}

/// The kinds a calibration fits to (published figures), in the order listed.
pub fn target_kinds() -> Vec<&'static str> {
    TARGETS
        .iter()
        .filter(|(_, keys)| keys.is_some())
        .map(|(name, _)| *name)
        .collect()
}

/// The kind a calibration's `[[target]]` table states by its keys (`Kind::TARGET_KEYS`): the
/// first whose keys it holds, else the kind of a table that states none.
pub fn target_kind(table: &TomlTable) -> &'static str {
    let stated = |keys: &[&str]| keys.iter().any(|k| table.contains_key(*k));
    let by_keys = TARGETS.iter().find(|(_, keys)| keys.is_some_and(stated));
    let unstated = || {
        TARGETS
            .iter()
            .find(|(_, keys)| keys.is_some_and(<[_]>::is_empty))
    };
    by_keys.or_else(unstated).map_or("table", |(name, _)| name)
}

/// A measure with its name: its figures' columns are `name.figure`.
#[derive(Clone, Debug)]
pub struct Measure {
    pub name: String,
    pub kind: MeasureKind,
}

impl Measure {
    /// Reads one measure's table at `path`. Its kind is the table's `kind`, or `default_kind` where
    /// the file's format implies one; `extra` are keys the caller reads itself (a calibration
    /// target's `weight`).
    pub fn read(
        r: &mut Reader,
        table: &TomlTable,
        path: &str,
        dir: &Path,
        default_kind: Option<&str>,
        extra: &[&str],
    ) -> Option<Measure> {
        let kind = match (r.text(table, path, "kind"), default_kind) {
            (Some(kind), _) => kind,
            (None, Some(kind)) if !table.contains_key("kind") => kind.to_string(),
            (None, _) => {
                if !table.contains_key("kind") {
                    r.problem(
                        &at(path, "kind"),
                        format!("missing: expected one of: {}", KINDS.join(", ")),
                    );
                }
                return None;
            }
        };
        let mut known: Vec<&str> = vec!["kind", "name"];
        known.extend(MeasureKind::keys(&kind));
        known.extend(extra);
        if !KINDS.contains(&kind.as_str()) {
            r.problem(
                &at(path, "kind"),
                format!(
                    "unknown measure {}{}; expected one of: {}",
                    describe(&toml::Value::String(kind.clone())),
                    did_you_mean(&kind, KINDS),
                    KINDS.join(", ")
                ),
            );
            return None;
        }
        r.unknown(table, path, &known);
        let name = r.text(table, path, "name");
        let kind = MeasureKind::read(&kind, r, table, path, dir).flatten()?;
        Some(Measure {
            name: name.unwrap_or_else(|| kind.default_name()),
            kind,
        })
    }

    /// Its figures, each named `measure.figure`.
    pub fn columns(&self, observed: &Observed, size: f64) -> Vec<Figure> {
        self.kind
            .figures(observed, size)
            .into_iter()
            .map(|f| Figure {
                name: format!("{}.{}", self.name, f.name),
                paired_se: f
                    .paired_se
                    .map(|(se, factor)| (format!("{}.{se}", self.name), factor)),
                ..f
            })
            .collect()
    }
}

/// Two measures may not share a name: their columns would clash.
pub fn check_names(r: &mut Reader, measures: &[(String, Measure)]) {
    for (i, (path, m)) in measures.iter().enumerate() {
        if let Some((first, _)) = measures[..i].iter().find(|(_, o)| o.name == m.name) {
            r.problem(
                &at(path, "name"),
                format!(
                    "{:?} is already the name of {first}; give each measure its own `name`",
                    m.name
                ),
            );
        }
    }
}

/// Reading helpers the kinds share.
mod read {
    use toml::Table;

    use crate::keys::Reader;
    use crate::model::Month;

    /// A window `from`..`to` of months (`from` and `to` required; `to` not before `from`).
    pub fn window(r: &mut Reader, t: &Table, path: &str) -> Option<(Month, Month)> {
        r.require(
            t,
            path,
            "from",
            "the window's first month, such as \"2017-01\"",
        );
        r.require(
            t,
            path,
            "to",
            "the window's last month, such as \"2019-12\"",
        );
        let (from, to) = (r.month(t, path, "from")?, r.month(t, path, "to")?);
        if to < from {
            r.problem(
                &crate::keys::at(path, "to"),
                format!("{to} is before `from` {from}"),
            );
            return None;
        }
        Some((from, to))
    }

    /// A real list file at `key` and its month (`month` given, else the file's): the list as it
    /// is, less its corrupt rows and every entry of an id after its first (real lists hold both:
    /// data/README.md), as `--skip-invalid` does.
    pub fn real_list(
        r: &mut Reader,
        path: &str,
        key: &str,
        file: &std::path::Path,
        month: Option<Month>,
    ) -> Option<(crate::ingest::ListRatings, Month)> {
        let mut skips = crate::ingest::Skips::new(true);
        let read = crate::ingest::read_list_ratings(file, &mut skips)
            .and_then(|mut list| list.keep_first_entries(&mut skips).map(|_| list));
        let list = match read {
            Ok(list) => list,
            Err(e) => {
                r.problem(&crate::keys::at(path, key), e.to_string());
                return None;
            }
        };
        let Some(month) = month.or(list.month) else {
            r.problem(
                &crate::keys::at(path, "month"),
                "missing: the list file does not say its month; give `month`",
            );
            return None;
        };
        Some((list, month))
    }

    /// The list a measure reads (`list`, required).
    pub fn list(r: &mut Reader, t: &Table, path: &str, january: bool) -> Option<Month> {
        r.require(t, path, "list", "the list's month, such as \"2023-01\"");
        let month = r.month(t, path, "list")?;
        if january && month.month() != 1 {
            r.problem(
                &crate::keys::at(path, "list"),
                format!("{month} is not a January list: a world knows every player's true strength in January only"),
            );
            return None;
        }
        Some(month)
    }

    /// Rating bands of `width` from `lowest` up to the open band from `top` (defaults given).
    pub fn bands(
        r: &mut Reader,
        t: &Table,
        path: &str,
        (lowest, top, width): (i32, i32, i32),
    ) -> Option<super::Bands> {
        let lowest = r
            .whole(t, path, "lowest", (0, 4000))
            .map_or(lowest, |v| v as i32);
        let top = r.whole(t, path, "top", (0, 4000)).map_or(top, |v| v as i32);
        let width = r
            .whole(t, path, "width", (1, 1000))
            .map_or(width, |v| v as i32);
        if top <= lowest || (top - lowest) % width != 0 {
            r.problem(
                &crate::keys::at(path, "top"),
                format!(
                    "{top} must lie above `lowest` {lowest} by a whole number of `width` {width}"
                ),
            );
            return None;
        }
        Some(super::Bands { lowest, top, width })
    }
}

/// Rating bands: `width` points each from `lowest`, every rating from `top` up one band, those
/// below `lowest` in none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bands {
    pub lowest: i32,
    pub top: i32,
    pub width: i32,
}

impl Bands {
    pub fn count(&self) -> usize {
        ((self.top - self.lowest) / self.width) as usize + 1
    }

    /// The band of a rating or strength (`None`: below the lowest).
    pub fn of(&self, value: f64) -> Option<usize> {
        if value < f64::from(self.lowest) || value.is_nan() {
            return None;
        }
        Some(
            (((value - f64::from(self.lowest)) / f64::from(self.width)) as usize)
                .min(self.count() - 1),
        )
    }

    pub fn low(&self, band: usize) -> i32 {
        self.lowest + band as i32 * self.width
    }
}

/// Lists and games made by hand, for the kinds' tests.
#[cfg(test)]
pub(crate) mod testing {
    use crate::model::{Games, Month, SideRecord};
    use crate::replay::{ListRows, RatedGames};

    use super::{Figure, Kind, ListView};

    /// A game: white, black, white's half points, white's rating, black's rating, white's PD in
    /// hundredths.
    pub type Game = (u32, u32, u8, Option<i32>, Option<i32>, Option<u8>);

    /// One list and the games rated on it: each player's rating (`None`: not on the list), the
    /// games, the truth and the baseline's ratings.
    #[derive(Default)]
    pub struct Lists {
        pub ratings: Vec<Option<i32>>,
        pub games: Vec<Game>,
        pub truth: Option<Vec<f32>>,
        pub equilibrium: Option<Vec<f32>>,
        pub baseline: Option<Vec<Option<i32>>>,
        pub baseline_expected: Option<Vec<f64>>,
    }

    /// The columns a view borrows.
    pub struct Built<'a> {
        lists: &'a Lists,
        whole: ListRows,
        rated: RatedGames,
        input: Games,
    }

    impl Lists {
        pub fn build(&self) -> Built<'_> {
            let mut whole = ListRows::default();
            for (p, r) in self.ratings.iter().enumerate() {
                if let Some(r) = r {
                    whole.player.push(p as u32);
                    whole.listed.push(true);
                    whole.rating.push(*r);
                    whole.k.push(20);
                    whole.games.push(0);
                    whole.total_games.push(30);
                    whole.inactive.push(false);
                    whole.new.push(false);
                    whole.change.push(None);
                }
            }
            let (mut rated, mut input) = (RatedGames::default(), Games::default());
            for (i, &(w, b, score, wr, br, pd)) in self.games.iter().enumerate() {
                input.white.push(w);
                input.black.push(b);
                input.score.push(score);
                rated.game.push(i as u32);
                rated.list.push(1);
                let side = |rating: Option<i32>, pd: Option<u8>| SideRecord {
                    rating,
                    pd,
                    counted: true,
                    ..SideRecord::default()
                };
                rated.white.push(side(wr, pd));
                rated.black.push(side(br, pd.map(|p| 100 - p)));
            }
            Built {
                lists: self,
                whole,
                rated,
                input,
            }
        }
    }

    impl Lists {
        /// What `measure` observes of this list published on `month`.
        pub fn observed<K: Kind>(&self, measure: &K, month: Month) -> K::Observed {
            let built = self.build();
            let mut observed = measure.empty();
            measure.observe(&built.view(month), &mut observed);
            observed
        }
    }

    /// What `measure` observes of a whole list published on `month`, without games.
    pub fn observed_whole<K: Kind>(measure: &K, month: Month, whole: &ListRows) -> K::Observed {
        let (games, input) = (RatedGames::default(), Games::default());
        let view = ListView {
            month,
            games: &games,
            input: &input,
            whole: Some(whole),
            truth: None,
            equilibrium: None,
            baseline: None,
            baseline_expected: None,
        };
        let mut observed = measure.empty();
        measure.observe(&view, &mut observed);
        observed
    }

    /// A figure's value, by its name.
    pub fn figure(figures: &[Figure], name: &str) -> Option<f64> {
        figures.iter().find(|f| f.name == name)?.value
    }

    impl Built<'_> {
        /// The list as published on `month`.
        pub fn view(&self, month: Month) -> ListView<'_> {
            ListView {
                month,
                games: &self.rated,
                input: &self.input,
                whole: Some(&self.whole),
                truth: self.lists.truth.as_deref(),
                equilibrium: self.lists.equilibrium.as_deref(),
                baseline: self.lists.baseline.as_deref(),
                baseline_expected: self.lists.baseline_expected.as_deref(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(keys: &[&str]) -> TomlTable {
        keys.iter()
            .map(|k| (k.to_string(), toml::Value::Boolean(true)))
            .collect()
    }

    /// A replay need go no further than the last month any measure reads, a window's end
    /// included; with nothing read, no month bounds it.
    #[test]
    fn the_last_month_read_is_the_latest_of_every_need() {
        let m = |y, n| Month::new(y, n).unwrap();
        let mut needs = Needs::default();
        assert_eq!(needs.last_month(), None);
        needs.lists = vec![m(2010, 1), m(2017, 1)];
        needs.truth = vec![m(2016, 1)];
        assert_eq!(needs.last_month(), Some(m(2017, 1)));
        needs.windows = vec![(m(2015, 1), m(2023, 12)), (m(2008, 1), m(2012, 12))];
        assert_eq!(needs.last_month(), Some(m(2023, 12)));
        needs.baseline = vec![m(2024, 3)];
        assert_eq!(needs.last_month(), Some(m(2024, 3)));
    }

    /// A calibration's targets are the kinds that say how a `[[target]]` states them.
    #[test]
    fn a_target_is_known_by_its_keys() {
        assert_eq!(
            target_kinds(),
            ["table", "counts", "gaps", "played", "list-activity"]
        );
        assert_eq!(target_kind(&table(&["published", "table"])), "table");
        assert_eq!(target_kind(&table(&["published", "list"])), "counts");
        assert_eq!(target_kind(&table(&["gaps"])), "gaps");
        assert_eq!(target_kind(&table(&["played", "weight"])), "played");
        assert_eq!(target_kind(&table(&["activity"])), "list-activity");
    }
}
