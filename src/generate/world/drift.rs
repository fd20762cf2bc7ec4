//! Regions whose ratings drift apart (`players.region_drift`, off by default): each region's
//! players share a random walk of strength on top of their own, so that a region whose players
//! meet mostly each other (its opens are its own) gains or loses strength together while its
//! ratings, which only games with other regions can move as a whole, stay where they were. A region
//! is one of a zone's cities and clubs (`events.regions`), each zone's with walks of their own;
//! zones never meet, so a whole zone's drift would show in no game. Real pools show such offsets
//! between their parts: published offsets between national pools reach +100 and −65 points (issue
//! "A world at FIDE's volume", item 3). The walks are centred, each month, on their mean weighted by
//! the regions' sizes, so that the world's level of strength does not move with them. The offset is
//! part of the player's true strength: it is what their games are played at, what their activity
//! follows and what the truth records.

use super::people::region_share;
use super::{stream, zone_of, Settings, Stream};

/// Each region's offset of strength this month, regions of every zone.
pub struct RegionDrift {
    /// Each region's walk, uncentred, zone by zone.
    level: Vec<f64>,
    /// Each region's expected share of the world's players.
    weight: Vec<f64>,
    /// Rating points a month of each region's walk.
    step: f64,
    regions: u32,
    zones: u64,
    seed: u64,
}

impl RegionDrift {
    /// The walks of `settings`, or `None` when the mechanism is off.
    pub fn new(settings: &Settings) -> Option<RegionDrift> {
        if settings.region_drift == 0.0 {
            return None;
        }
        let (regions, zones) = (settings.regions, settings.zones_now());
        let weight = (0..zones)
            .flat_map(|_| (0..regions).map(move |k| region_share(k, regions) / zones as f64))
            .collect();
        Some(RegionDrift {
            level: vec![0.0; zones as usize * regions as usize],
            weight,
            step: settings.region_drift / 12f64.sqrt(),
            regions,
            zones,
            seed: settings.seed,
        })
    }

    /// One month of every region's walk (month `t` of the world).
    pub fn step(&mut self, t: u32) {
        for (r, level) in self.level.iter_mut().enumerate() {
            let mut rng = stream(self.seed, Stream::RegionDrift, u64::from(t), r as u64);
            *level += self.step * rng.normal();
        }
    }

    /// Each region's offset this month: its walk less the walks' mean weighted by size.
    pub fn offsets(&self) -> Vec<f64> {
        let mean: f64 = self
            .level
            .iter()
            .zip(&self.weight)
            .map(|(l, w)| l * w)
            .sum();
        self.level.iter().map(|l| l - mean).collect()
    }

    /// Where the region `region` of the player `id`'s zone is in [`offsets`](Self::offsets).
    pub fn index(&self, id: u32, region: u16) -> usize {
        zone_of(id, self.zones) * self.regions as usize + usize::from(region)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(drift: f64) -> Settings {
        let mut s = crate::generate::world::preset("fide-2001-2025").unwrap();
        s.region_drift = drift;
        s
    }

    /// Off in the built-in world; on, as their names say, in the two files that measure it.
    #[test]
    fn off_by_default_and_on_in_the_files_that_measure_it() {
        let built_in = crate::generate::world::preset("fide-2001-2025").unwrap();
        assert!(RegionDrift::new(&built_in).is_none());
        for drift in [10.0, 40.0] {
            let file = format!("worlds/refits/lists-drift-{drift}.toml");
            let world = crate::generate::world::load(&file).unwrap();
            assert_eq!((world.region_drift, world.from_fide), (drift, 1), "{file}");
            assert!(RegionDrift::new(&world).is_some());
        }
    }

    /// After 25 years of a walk of 20 points a year, the regions' offsets spread about 100 points
    /// (their SD: 20 · √25), and their size-weighted mean is 0.
    #[test]
    fn regions_walk_apart_around_a_fixed_level() {
        let s = settings(20.0);
        let mut drift = RegionDrift::new(&s).unwrap();
        for t in 0..300 {
            drift.step(t);
        }
        let offsets = drift.offsets();
        let weighted: f64 = offsets.iter().zip(&drift.weight).map(|(o, w)| o * w).sum();
        assert!(weighted.abs() < 1e-9, "{weighted}");
        let n = offsets.len() as f64;
        let mean = offsets.iter().sum::<f64>() / n;
        let sd = (offsets.iter().map(|o| (o - mean).powi(2)).sum::<f64>() / n).sqrt();
        assert!((70.0..130.0).contains(&sd), "{sd} over {n} regions");
        assert!((drift.weight.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
}
