//! A list against a world's truth: the sums behind the truth-gap measure of a study
//! (`simulate::measure::truth_gap`) and `elosim compare --truth` (`report::truth`), one code for
//! both so that a run and a study give the same figures. The active players (a game in the window
//! before the list: an equilibrium rating, `equilibrium`) are set against their equilibrium rating
//! or their true strength; the inactive ones against their true strength. Each group keeps the
//! sums of its RMS gap, level, spread (the ratings' SD over the truth's) and slope (rating on
//! truth), and its gap by band of truth.

use crate::named::named_enum;

named_enum! {
    /// What the active players' ratings are set against.
    pub enum Against {
        /// The equilibrium rating: the truth a rating system can reach (the default).
        Equilibrium = "equilibrium",
        /// The true strength.
        Strength = "strength",
    }
}

/// The sums of one group of players: rating r against truth t, both centred on 2000 points so that
/// the squares keep their precision.
#[derive(Clone, Debug, Default)]
pub struct GapSums {
    pub players: u64,
    /// Σ (r − t) and its square.
    pub gap: f64,
    pub gap_squares: f64,
    /// Σ t, Σ t², Σ r, Σ r², Σ r·t.
    pub truth: f64,
    pub truth_squares: f64,
    pub rating: f64,
    pub rating_squares: f64,
    pub products: f64,
    /// Per band of truth: players and Σ (r − t).
    pub bands: Vec<(u64, f64)>,
}

/// The active players (against the truth chosen) and the inactive ones (against strength).
#[derive(Clone, Debug, Default)]
pub struct Groups {
    pub active: GapSums,
    pub inactive: GapSums,
}

const CENTRE: f64 = 2000.0;

impl GapSums {
    /// Adds one player: their rating, their truth and the band of the truth.
    pub fn add_one(&mut self, rating: f64, truth: f64, band: Option<usize>) {
        let gap = rating - truth;
        let (t, r) = (truth - CENTRE, rating - CENTRE);
        self.players += 1;
        self.gap += gap;
        self.gap_squares += gap * gap;
        self.truth += t;
        self.truth_squares += t * t;
        self.rating += r;
        self.rating_squares += r * r;
        self.products += r * t;
        if let Some(band) = band {
            self.bands[band].0 += 1;
            self.bands[band].1 += gap;
        }
    }

    /// Adds another group's sums (seeds, shards).
    pub fn add(&mut self, other: &GapSums) {
        self.players += other.players;
        self.gap += other.gap;
        self.gap_squares += other.gap_squares;
        self.truth += other.truth;
        self.truth_squares += other.truth_squares;
        self.rating += other.rating;
        self.rating_squares += other.rating_squares;
        self.products += other.products;
        if self.bands.len() < other.bands.len() {
            self.bands.resize(other.bands.len(), (0, 0.0));
        }
        for (a, b) in self.bands.iter_mut().zip(&other.bands) {
            a.0 += b.0;
            a.1 += b.1;
        }
    }

    pub fn level(&self) -> Option<f64> {
        (self.players > 0).then(|| self.gap / self.players as f64)
    }

    pub fn rms(&self) -> Option<f64> {
        (self.players > 0).then(|| (self.gap_squares / self.players as f64).sqrt())
    }

    /// n times the variances of truth and rating and their covariance.
    fn moments(&self) -> Option<(f64, f64, f64)> {
        if self.players < 2 {
            return None;
        }
        let n = self.players as f64;
        Some((
            self.truth_squares - self.truth * self.truth / n,
            self.rating_squares - self.rating * self.rating / n,
            self.products - self.truth * self.rating / n,
        ))
    }

    /// The least-squares slope of rating on truth.
    pub fn slope(&self) -> Option<f64> {
        let (truth, _, covariance) = self.moments()?;
        (truth > 0.0).then(|| covariance / truth)
    }

    /// The ratings' SD over the truth's.
    pub fn spread(&self) -> Option<f64> {
        let (truth, rating, _) = self.moments()?;
        (truth > 0.0).then(|| (rating.max(0.0) / truth).sqrt())
    }
}

impl Groups {
    /// Adds one listed player: their rating, true strength and equilibrium rating (NaN: no game
    /// in the window, an inactive player), the active ones set `against` the truth chosen, the
    /// inactive ones against strength; `band` is the band of the player's truth, for the bands.
    /// Returns the truth the player was set against.
    pub fn add_player(
        &mut self,
        rating: f64,
        strength: f64,
        equilibrium: f64,
        against: Against,
        band: impl Fn(f64) -> Option<usize>,
    ) -> f64 {
        let (group, truth) = match (equilibrium.is_nan(), against) {
            (true, _) => (&mut self.inactive, strength),
            (false, Against::Equilibrium) => (&mut self.active, equilibrium),
            (false, Against::Strength) => (&mut self.active, strength),
        };
        group.add_one(rating, truth, band(truth));
        truth
    }

    /// Both groups together.
    pub fn all(&self) -> GapSums {
        let mut all = self.active.clone();
        all.add(&self.inactive);
        all
    }
}
