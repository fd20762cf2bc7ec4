//! Which regulations are in force when, and which months have lists.

use super::Regulations;
use crate::model::{Day, Month};

/// The eras of a scenario: each starts at a month and holds every rule in force from then on.
#[derive(Clone, Debug, PartialEq)]
pub struct Timeline {
    eras: Vec<(Month, Regulations)>,
}

impl Timeline {
    /// `eras` must start with the scenario's first month and be strictly increasing.
    pub fn new(eras: Vec<(Month, Regulations)>) -> Timeline {
        debug_assert!(!eras.is_empty());
        debug_assert!(eras.windows(2).all(|w| w[0].0 < w[1].0));
        Timeline { eras }
    }

    pub fn eras(&self) -> &[(Month, Regulations)] {
        &self.eras
    }

    /// The index of the era in force in `month` (the first era also covers anything earlier).
    pub fn era_index(&self, month: Month) -> usize {
        self.eras
            .partition_point(|(from, _)| *from <= month)
            .saturating_sub(1)
    }

    pub fn at_month(&self, month: Month) -> &Regulations {
        &self.eras[self.era_index(month)].1
    }

    /// The regulations for a tournament starting on `day`.
    pub fn at_day(&self, day: Day) -> &Regulations {
        self.at_month(day.month())
    }

    pub fn era(&self, index: usize) -> &Regulations {
        &self.eras[index].1
    }

    /// Whether `month` has a list: its month-of-year fits the cadence in force in that month.
    pub fn has_list_in(&self, month: Month) -> bool {
        self.at_month(month).lists.has_list_in(month)
    }

    /// The first month whose rules differ between the two timelines; `None` when they agree
    /// everywhere. Rules change only where an era starts, so only those months are compared.
    pub fn first_difference(&self, other: &Timeline) -> Option<Month> {
        let mut starts: Vec<Month> = self.eras.iter().chain(&other.eras).map(|e| e.0).collect();
        starts.sort();
        starts.dedup();
        starts
            .into_iter()
            .find(|&m| self.at_month(m) != other.at_month(m))
    }

    /// The list months from `first` to `last`, both included when they are list months.
    pub fn lists_between(&self, first: Month, last: Month) -> Vec<Month> {
        (first.index()..=last.index())
            .map(Month::from_index)
            .filter(|&m| self.has_list_in(m))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ListCadence;
    use crate::scenario::base_regulations;

    fn timeline() -> Timeline {
        let quarterly = Regulations {
            lists: ListCadence::Quarterly,
            ..base_regulations()
        };
        let bimonthly = Regulations {
            lists: ListCadence::Bimonthly,
            ..base_regulations()
        };
        let monthly = Regulations {
            lists: ListCadence::Monthly,
            ..base_regulations()
        };
        let m = |s| Month::parse(s).unwrap();
        Timeline::new(vec![
            (m("2000-01"), quarterly),
            (m("2009-07"), bimonthly),
            (m("2012-07"), monthly),
        ])
    }

    /// Reference §1: quarterly to July 2009, bi-monthly to July 2012, the first monthly list in August 2012.
    #[test]
    fn the_historical_list_calendar() {
        let t = timeline();
        let m = |s| Month::parse(s).unwrap();
        let lists: Vec<String> = t
            .lists_between(m("2009-01"), m("2009-12"))
            .iter()
            .map(|x| x.to_string())
            .collect();
        assert_eq!(
            lists,
            ["2009-01", "2009-04", "2009-07", "2009-09", "2009-11"]
        );
        let lists: Vec<String> = t
            .lists_between(m("2012-03"), m("2012-10"))
            .iter()
            .map(|x| x.to_string())
            .collect();
        assert_eq!(
            lists,
            ["2012-03", "2012-05", "2012-07", "2012-08", "2012-09", "2012-10"]
        );
        assert_eq!(t.era_index(m("1999-12")), 0);
        assert_eq!(t.era_index(m("2009-07")), 1);
        assert_eq!(
            t.at_day(Day::parse("2012-06-30").unwrap()).lists,
            ListCadence::Bimonthly
        );
    }
}
