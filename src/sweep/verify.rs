//! Verification (`--verify K`): the search's best K points (over the worlds) and the baseline
//! replayed again on every world at the study's verification scale (1 by default: FIDE's size) on
//! seeds the search did not use. A search
//! at a reduced scale on a few seeds can favour the seeds' luck or the small world's quirks; the
//! ranking holds when the verified order of the K is the search's and each verdict against the
//! baseline stands.

use serde::Serialize;

use crate::numbers::round_to;
use crate::report::TextTable;

use super::candidates::Candidate;
use super::error::{SweepError, VerifyError};
use super::run::{execute, Options, Outcome, Plan, Progress};
use super::stats::Verdict;
use super::study::{Input, Study};
use super::summary::{candidate_name, difference_text, interval_text, Summary};

pub const JOURNAL: &str = "verify.jsonl";

/// A verdict that says better or worse.
fn decisive(v: Verdict) -> bool {
    matches!(v, Verdict::Better | Verdict::Worse)
}

/// Whether the study can be verified: a generated world (the user's games are one history), on
/// seeds the search did not see. Checked before the search as well, so that a refusal costs no
/// replay.
pub fn verifiable(study: &Study) -> Result<(), SweepError> {
    if !study.input.is_world() {
        return Err(VerifyError::OneHistory.into());
    }
    let searched = study.input.seeds();
    if let Some(used) = study.verify.seeds.iter().find(|s| searched.contains(s)) {
        return Err(VerifyError::SeedSearched {
            file: study.file.clone(),
            at: study.verify.seeds_from.clone(),
            seed: *used,
            searched,
        }
        .into());
    }
    Ok(())
}

/// Replays `candidates` (the baseline and the search's best points over the worlds:
/// `Summaries::best`) on the verification seeds of every world.
pub fn verify(
    study: &Study,
    candidates: Vec<Candidate>,
    options: &Options,
    progress: &dyn Progress,
) -> Result<Outcome, SweepError> {
    verifiable(study)?;
    let plan = Plan {
        candidates,
        seeds: study.verify.seeds.clone(),
        scale: Some(study.verify.scale),
        journal: options.out.join(JOURNAL),
        shard: None,
        resume: options.resume,
        optimise: false,
        whole_replays: options.whole_replays,
    };
    execute(study, plan, progress)
}

/// The verification set against the search, for people and for files.
pub struct Report<'a> {
    pub search: &'a Summary<'a>,
    pub verified: &'a Summary<'a>,
}

impl Report<'_> {
    /// The verified points in the search's order and in the verification's, by the rank figure.
    fn orders(&self) -> (Vec<u32>, Vec<u32>) {
        let verified: Vec<u32> = self.verified.ranked_points().collect();
        let search: Vec<u32> = self
            .search
            .ranked_points()
            .filter(|c| verified.contains(c))
            .collect();
        (search, verified)
    }

    /// Each verified point's verdict against the baseline, at the search and at verification.
    fn verdicts(&self) -> Vec<(u32, Verdict, Verdict)> {
        let rank = self.search.rank;
        self.orders()
            .0
            .into_iter()
            .map(|c| {
                (
                    c,
                    self.search.standing(c, rank).verdict,
                    self.verified.standing(c, rank).verdict,
                )
            })
            .collect()
    }

    /// The ranking held: the same order, and no verdict against the baseline reversed (better
    /// became worse or the reverse) or lost (a clear verdict became unclear). A verdict that became
    /// clear at the larger scale, where intervals are narrower, is a confirmation.
    pub fn held(&self) -> bool {
        let (search, verified) = self.orders();
        let lost = self
            .verdicts()
            .iter()
            .any(|&(_, s, v)| decisive(s) && v != s);
        search == verified && !lost
    }

    pub(super) fn scales(&self) -> String {
        let s = self.search.study;
        let search = match &s.input {
            Input::World { scale, .. } => format!("scale {scale}"),
            Input::Games { .. } => String::new(),
        };
        let seeds = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
        format!(
            "Verified at scale {} on seeds {} (the search: {search}, seeds {}; the verified verdicts corrected by Holm over the {} points verified)",
            s.verify.scale,
            seeds(&self.verified.seeds),
            seeds(&self.search.seeds),
            self.verified.ranked_points().count()
        )
    }

    pub(super) fn table(&self) -> TextTable {
        let rank = self.search.rank;
        let name = &self.search.columns[rank].0;
        let mut t = TextTable::default();
        let mut header = vec!["search rank".to_string(), "candidate".into()];
        header.extend(
            self.search
                .study
                .parameters
                .iter()
                .map(|p| p.path.to_string()),
        );
        header.extend([
            format!("search {name}"),
            "search verdict".into(),
            format!("verified {name}"),
            "verified Δ baseline".into(),
            "verified verdict".into(),
        ]);
        t.push(header);
        let place = |id: u32| {
            self.search
                .order
                .iter()
                .position(|&c| c == id)
                .map_or("–".into(), |p| (p + 1).to_string())
        };
        let searched = self.search.value_decimals(rank);
        let (verified, differences) = (
            self.verified.value_decimals(rank),
            self.verified.difference_decimals(rank),
        );
        for &id in &self.verified.order {
            let c = self.verified.candidate(id);
            let (s, v) = (
                self.search.standing(id, rank),
                self.verified.standing(id, rank),
            );
            let mut line = vec![place(id), candidate_name(c)];
            line.extend(
                c.values
                    .iter()
                    .map(|v| v.as_ref().map_or("–".into(), ToString::to_string)),
            );
            line.extend([
                interval_text(s.value, searched),
                s.verdict.text().into(),
                interval_text(v.value, verified),
                difference_text(v.difference, differences),
                v.verdict.text().into(),
            ]);
            t.push(line);
        }
        t
    }

    pub(super) fn conclusion(&self) -> String {
        let (search, verified) = self.orders();
        let names = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
        let changes: Vec<String> = self
            .verdicts()
            .iter()
            .filter(|(_, s, v)| s != v)
            .map(|(c, s, v)| format!("{c}: {} → {}", s.text(), v.text()))
            .collect();
        let changed = if changes.is_empty() {
            "the same verdicts against the baseline".to_string()
        } else {
            format!(
                "verdicts against the baseline changed ({})",
                changes.join("; ")
            )
        };
        if self.held() {
            format!(
                "The ranking held: the same order ({}), {changed}.",
                names(&search)
            )
        } else {
            format!(
                "The ranking did not hold: the search's order {}, verified {}; {changed}.",
                names(&search),
                names(&verified)
            )
        }
    }

    pub fn text(&self) -> String {
        format!(
            "{}:\n{}\n{}\n",
            self.scales(),
            self.table().render(&[1]),
            self.conclusion()
        )
    }

    pub fn markdown(&self) -> String {
        format!(
            "{}:\n\n{}\n{}\n",
            self.scales(),
            self.table().markdown(&[1]),
            self.conclusion()
        )
    }

    pub fn json(&self) -> String {
        let rank = self.search.rank;
        let (search, verified) = self.orders();
        crate::output::pretty_json(&VerifyJson {
            scale: self.search.study.verify.scale,
            seeds: &self.verified.seeds,
            figure: &self.search.columns[rank].0,
            search_order: search,
            verified_order: verified,
            held: self.held(),
            candidates: self
                .verified
                .order
                .iter()
                .map(|&id| {
                    let (s, v) = (
                        self.search.standing(id, rank),
                        self.verified.standing(id, rank),
                    );
                    CandidateJson {
                        candidate: id,
                        search_mean: s.value.map(|i| round_to(i.mean, 6)),
                        search_verdict: s.verdict.text(),
                        verified_mean: v.value.map(|i| round_to(i.mean, 6)),
                        verified_half_width: v.value.and_then(|i| i.half).map(|h| round_to(h, 6)),
                        verified_difference: v.difference.map(|i| round_to(i.mean, 6)),
                        verified_verdict: v.verdict.text(),
                    }
                })
                .collect(),
        })
    }
}

#[derive(Serialize)]
struct VerifyJson<'a> {
    scale: f64,
    seeds: &'a [u64],
    figure: &'a str,
    search_order: Vec<u32>,
    verified_order: Vec<u32>,
    held: bool,
    candidates: Vec<CandidateJson>,
}

#[derive(Serialize)]
struct CandidateJson {
    candidate: u32,
    search_mean: Option<f64>,
    search_verdict: &'static str,
    verified_mean: Option<f64>,
    verified_half_width: Option<f64>,
    verified_difference: Option<f64>,
    verified_verdict: &'static str,
}
