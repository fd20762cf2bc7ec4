//! Rating periods and the list calendar (reference §1): quarterly lists 2000 – Jul 2009, bi-monthly
//! Jul 2009 – Jul 2012, monthly since (the first one-month period was rated on the Aug 2012 list).

use crate::named::named_enum;

use crate::model::Month;

named_enum! {
    /// How often lists are published. A list month is one whose month-of-year fits the cadence in force
    /// in that month: quarterly lists fall in Jan/Apr/Jul/Oct, bi-monthly ones in odd months.
    pub enum ListCadence {
        Monthly = "monthly",
        Bimonthly = "bimonthly",
        Quarterly = "quarterly",
    }
}

impl ListCadence {
    pub fn months(self) -> u32 {
        match self {
            ListCadence::Monthly => 1,
            ListCadence::Bimonthly => 2,
            ListCadence::Quarterly => 3,
        }
    }

    pub fn has_list_in(self, month: Month) -> bool {
        (month.month() - 1).is_multiple_of(self.months())
    }

    /// For messages: when the lists fall.
    pub fn describe(self) -> &'static str {
        match self {
            ListCadence::Monthly => "monthly",
            ListCadence::Bimonthly => "bi-monthly (odd months)",
            ListCadence::Quarterly => "quarterly (Jan, Apr, Jul, Oct)",
        }
    }
}

/// Inactivity (reference §7): "A player is considered to commence inactivity if they play no rated
/// games in a one-year period"; the flag is set on list t after `months` periods without a rated game.
pub fn is_inactive(list: Month, last_rated_game: Month, months: i32) -> bool {
    list.since(last_rated_game) >= months
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_months_of_each_cadence() {
        let months = |c: ListCadence| {
            (1..=12)
                .filter(|&m| c.has_list_in(Month::new(2010, m).unwrap()))
                .collect::<Vec<_>>()
        };
        assert_eq!(months(ListCadence::Quarterly), [1, 4, 7, 10]);
        assert_eq!(months(ListCadence::Bimonthly), [1, 3, 5, 7, 9, 11]);
        assert_eq!(months(ListCadence::Monthly), (1..=12).collect::<Vec<_>>());
    }

    #[test]
    fn inactive_after_a_year_without_rated_games() {
        let jan13 = Month::parse("2013-01").unwrap();
        assert!(!is_inactive(jan13.plus(11), jan13, 12));
        assert!(is_inactive(jan13.plus(12), jan13, 12));
    }
}
