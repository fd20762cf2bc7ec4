//! Rating systems, one file each, sharing the replay's calendar, inputs and output tables.
//! A scenario's `system` key picks one.

pub mod fide;

use crate::named::named_enum;

named_enum! {
    pub enum SystemKind {
        /// FIDE's standard regulations, era by era (`docs/fide-regulations.md`).
        Fide = "fide",
    }
}
