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
    pub name: Vec<Option<String>>,
    pub federation: Vec<Option<String>>,
    pub sex: Vec<Option<String>>,
    pub title: Vec<Option<String>>,
}

impl PlayerInfo {
    pub fn with_players(n: usize) -> PlayerInfo {
        PlayerInfo {
            birth_year: vec![None; n],
            name: vec![None; n],
            federation: vec![None; n],
            sex: vec![None; n],
            title: vec![None; n],
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
