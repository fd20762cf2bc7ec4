use super::{Month, PlayerId};

/// The players' original ids, indexed by [`PlayerId`]. Ids that are all plain decimal numbers stay
/// numbers (FIDE ids, Kaggle numbers); otherwise all are kept as text. Dense ids are assigned in
/// sorted order of the original ids, so they do not depend on the order of input rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerIds {
    Numbers(Vec<u64>),
    Text(Vec<String>),
}

impl PlayerIds {
    pub fn len(&self) -> usize {
        match self {
            PlayerIds::Numbers(v) => v.len(),
            PlayerIds::Text(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn label(&self, player: PlayerId) -> String {
        match self {
            PlayerIds::Numbers(v) => v[player as usize].to_string(),
            PlayerIds::Text(v) => v[player as usize].clone(),
        }
    }

    /// Finds the dense id of an original id written as text.
    pub fn find(&self, original: &str) -> Option<PlayerId> {
        let found = match self {
            PlayerIds::Numbers(v) => v.binary_search(&original.trim().parse::<u64>().ok()?),
            PlayerIds::Text(v) => v.binary_search_by(|probe| probe.as_str().cmp(original.trim())),
        };
        found.ok().map(|i| i as PlayerId)
    }
}

/// What is known about players besides their games: from a players file or a FIDE list.
#[derive(Clone, Debug, Default)]
pub struct PlayerInfo {
    pub birth_year: Vec<Option<i16>>,
    /// Boxed: a player no file describes (most of a games file's) costs 8 bytes, and a column of
    /// them is allocated zeroed, never written.
    pub description: Vec<Option<Box<Description>>>,
}

impl PlayerInfo {
    pub fn with_players(n: usize) -> PlayerInfo {
        PlayerInfo {
            birth_year: vec![None; n],
            description: vec![None; n],
        }
    }
}

/// Who a player is, as a file describes them: each field where it is given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Description {
    pub name: Option<String>,
    pub federation: Option<String>,
    pub sex: Option<String>,
    pub title: Option<String>,
}

impl Description {
    /// The description boxed, or `None` when it gives nothing.
    pub fn boxed(self) -> Option<Box<Description>> {
        (self != Description::default()).then(|| Box::new(self))
    }

    /// Each field of `other` given, where `self` leaves it open (`keep_own`) or in any case.
    pub fn take_from(&mut self, other: &Description, keep_own: bool) {
        for (own, given) in [
            (&mut self.name, &other.name),
            (&mut self.federation, &other.federation),
            (&mut self.sex, &other.sex),
            (&mut self.title, &other.title),
        ] {
            if given.is_some() && !(keep_own && own.is_some()) {
                own.clone_from(given);
            }
        }
    }
}

/// One player on a starting list. Fields a source does not give are `None` and are derived by the
/// rules (see `systems::fide`).
#[derive(Clone, Debug, PartialEq)]
pub struct StartEntry {
    pub player: PlayerId,
    pub rating: i32,
    pub k: Option<u8>,
    /// Games counted towards the 30 of the K rule (all games ever rated).
    pub total_games: Option<u32>,
    pub ever_2400: Option<bool>,
    pub ever_2300: Option<bool>,
    pub inactive: bool,
}

/// The rating list in force before the first list computed.
#[derive(Clone, Debug, Default)]
pub struct StartList {
    pub entries: Vec<StartEntry>,
    pub source: String,
    /// The list's month, where the file names it (a FIDE list's header, a `month` column, the
    /// file's name): a replay starting from another month's list says so.
    pub month: Option<Month>,
}
