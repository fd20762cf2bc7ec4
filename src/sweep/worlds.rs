//! A study's worlds side by side. Each world is one assumption about the players and their games,
//! so each gets its own summary (a `Summary`, exactly a single-world study's: ranking, verdicts,
//! Pareto front); the candidates' overall order is the mean over the worlds of each world's mean
//! distance from the ideal on the rank figure; and the *agreement* says, for each candidate and
//! judged figure, its verdict against the baseline world by world and whether every world gives
//! the same. A finding that holds on one world and not another is a finding about the worlds, not
//! about the regulations. With one world (or one history of real games) every file is the single
//! summary's.

use serde::Serialize;

use crate::numbers::round_to;
use crate::plot::Picture;
use crate::report::TextTable;
use crate::simulate::Goal;

use super::candidates::{ranked_ids, Candidate, Kind};
use super::journal::Row;
use super::pictures::pictures;
use super::stats::{Interval, Verdict};
use super::study::{Input, Study};
use super::summary::{candidate_name, decimals, interval_text, ranked, ranking_rows, Summary};
use super::verify::Report;

/// A finished study's summaries: one per world and the candidates' overall order.
pub struct Summaries<'a> {
    pub study: &'a Study,
    /// One per world, in the study's order (one history of real games: one).
    pub worlds: Vec<Summary<'a>>,
    /// Candidates by the mean over the worlds of each world's mean distance from the ideal on the
    /// rank figure (those without it on some world last).
    pub order: Vec<u32>,
}

/// One candidate's verdicts against the baseline on one figure, world by world.
#[derive(Clone, Debug, PartialEq)]
pub struct Agreement {
    pub candidate: u32,
    /// The figure's column.
    pub figure: usize,
    pub verdicts: Vec<Verdict>,
}

impl Agreement {
    /// Every world gives the same verdict.
    pub fn agree(&self) -> bool {
        self.verdicts.windows(2).all(|pair| pair[0] == pair[1])
    }

    /// Better or worse than the baseline on some world.
    fn finding(&self) -> bool {
        self.verdicts
            .iter()
            .any(|v| matches!(v, Verdict::Better | Verdict::Worse))
    }
}

impl<'a> Summaries<'a> {
    /// `rows` by world in the study's order (then candidate, then seed), as a run, a merge and a
    /// verification give them: each world's rows are consecutive.
    pub fn new(study: &'a Study, candidates: &'a [Candidate], rows: &'a [Row]) -> Summaries<'a> {
        let worlds: Vec<Summary<'a>> = study
            .input
            .world_names()
            .iter()
            .map(|name| {
                let start = rows
                    .iter()
                    .position(|r| r.world == *name)
                    .unwrap_or(rows.len());
                let count = rows[start..]
                    .iter()
                    .take_while(|r| r.world == *name)
                    .count();
                Summary::new(study, candidates, &rows[start..start + count])
            })
            .collect();
        let order = ranked(ranked_ids(candidates), |c| mean_loss(&worlds, c));
        Summaries {
            study,
            worlds,
            order,
        }
    }

    pub fn candidate(&self, id: u32) -> &Candidate {
        self.worlds[0].candidate(id)
    }

    /// The candidates of the design (not the baseline or the references), best first over the
    /// worlds.
    pub fn ranked_points(&self) -> impl Iterator<Item = u32> + '_ {
        self.order
            .iter()
            .copied()
            .filter(|&c| self.candidate(c).kind == Kind::Point)
    }

    /// The baseline and the best `k` points over the worlds: what `--verify K` replays.
    pub fn best(&self, k: usize) -> Vec<Candidate> {
        std::iter::once(0)
            .chain(self.ranked_points().take(k))
            .map(|id| self.candidate(id).clone())
            .collect()
    }

    /// Each candidate but the baseline, in the overall order, on each judged figure.
    pub fn agreement(&self) -> Vec<Agreement> {
        let judged: Vec<usize> = self.worlds[0]
            .columns
            .iter()
            .enumerate()
            .filter(|(_, (_, goal, _))| *goal != Goal::Shown)
            .map(|(f, _)| f)
            .collect();
        self.order
            .iter()
            .filter(|&&c| c != 0)
            .flat_map(|&c| {
                judged.iter().map(move |&f| Agreement {
                    candidate: c,
                    figure: f,
                    verdicts: self
                        .worlds
                        .iter()
                        .map(|s| s.standing(c, f).verdict)
                        .collect(),
                })
            })
            .collect()
    }

    /// The rank figure, then the Pareto figures: those whose findings the summary lists.
    fn listed_figures(&self) -> Vec<usize> {
        let first = &self.worlds[0];
        let mut figures = vec![first.rank];
        for &f in &first.pareto_figures {
            if !figures.contains(&f) {
                figures.push(f);
            }
        }
        figures
    }

    /// The findings on the listed figures, in the overall order.
    pub(super) fn findings(&self) -> Vec<Agreement> {
        let listed = self.listed_figures();
        let mut found: Vec<Agreement> = self
            .agreement()
            .into_iter()
            .filter(|a| listed.contains(&a.figure) && a.finding())
            .collect();
        // Stable: the overall order of candidates within each figure's place in the list.
        found.sort_by_key(|a| {
            (
                self.order.iter().position(|&c| c == a.candidate),
                listed.iter().position(|&f| f == a.figure),
            )
        });
        found
    }

    fn names(&self) -> Vec<&str> {
        self.worlds.iter().map(|s| s.world.as_str()).collect()
    }

    pub(super) fn headline(&self) -> String {
        let s = self.study;
        let (scale, seeds) = match &s.input {
            Input::World { scale, seeds, .. } => (*scale, seeds.as_slice()),
            Input::Games { .. } => (1.0, &[][..]),
        };
        let worlds: Vec<String> = s
            .input
            .worlds()
            .iter()
            .map(|w| format!("{} ({})", w.settings.name, w.source))
            .collect();
        format!(
            "Study {} ({}) on {}, each at scale {scale} on seeds {}: {}",
            s.name,
            s.file.display(),
            crate::numbers::counted(worlds.len() as u64, "world"),
            seeds
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            worlds.join(", ")
        )
    }

    pub(super) fn explanation(&self) -> String {
        let first = &self.worlds[0];
        let (name, goal, _) = &first.columns[first.rank];
        format!(
            "Candidates are ordered over the worlds by the mean of each world's mean distance from the ideal on {name} ({}); each world's own ranking, verdicts and Pareto front follow, and the agreement says which verdicts against the baseline every world shares.",
            goal.text()
        )
    }

    /// The overall order: rank, candidate, its values, the mean distance over the worlds, and the
    /// rank figure with its verdict on each world; `limit` points at most, the baseline and the
    /// references always.
    pub(super) fn ranking(&self, limit: usize) -> TextTable {
        let first = &self.worlds[0];
        let rank_name = &first.columns[first.rank].0;
        let mut t = TextTable::default();
        let mut header: Vec<String> = vec!["rank".into(), "candidate".into()];
        header.extend(self.study.parameters.iter().map(|p| p.path.to_string()));
        header.push("mean distance".into());
        for name in self.names() {
            header.extend([
                format!("{rank_name} on {name}"),
                format!("verdict on {name}"),
            ]);
        }
        t.push(header);
        let distance = |id| {
            mean_loss(&self.worlds, id).map(|mean| Interval {
                mean,
                half: None,
                n: 1,
            })
        };
        let distances = decimals(self.order.iter().filter_map(|&id| distance(id)));
        let values: Vec<usize> = self
            .worlds
            .iter()
            .map(|s| s.value_decimals(s.rank))
            .collect();
        for (id, mut line) in ranking_rows(&self.order, limit, |c| self.candidate(c)) {
            line.push(interval_text(distance(id), distances));
            for (s, &decimals) in self.worlds.iter().zip(&values) {
                let standing = s.standing(id, s.rank);
                line.extend([
                    interval_text(standing.value, decimals),
                    standing.verdict.text().to_string(),
                ]);
            }
            t.push(line);
        }
        t
    }

    /// The columns of `ranking` aligned left: the candidate and the verdicts.
    fn ranking_words(&self) -> Vec<usize> {
        let first = 3 + self.study.parameters.len();
        std::iter::once(1)
            .chain((0..self.worlds.len()).map(|w| first + 2 * w + 1))
            .collect()
    }

    /// The findings as a table: candidate, figure, the verdict on each world, whether it holds on
    /// every world.
    pub(super) fn findings_table(&self) -> TextTable {
        let columns = &self.worlds[0].columns;
        let mut t = TextTable::default();
        let mut header = vec!["candidate".to_string(), "figure".into()];
        header.extend(self.names().iter().map(|n| n.to_string()));
        header.push("on every world".into());
        t.push(header);
        for a in self.findings() {
            let mut line = vec![
                candidate_name(self.candidate(a.candidate)),
                columns[a.figure].0.clone(),
            ];
            line.extend(a.verdicts.iter().map(|v| v.text().to_string()));
            line.push(if a.agree() { "yes" } else { "NO" }.into());
            t.push(line);
        }
        t
    }

    /// Every column of `findings_table` is words, aligned left.
    pub(super) fn findings_words(&self) -> Vec<usize> {
        (0..self.worlds.len() + 3).collect()
    }

    /// What the agreement table lists, and how many of its findings do not hold on every world.
    pub(super) fn agreement_text(&self) -> String {
        let columns = &self.worlds[0].columns;
        let figures: Vec<&str> = self
            .listed_figures()
            .iter()
            .map(|&f| columns[f].0.as_str())
            .collect();
        let found = self.findings();
        let apart: Vec<String> = found
            .iter()
            .filter(|a| !a.agree())
            .map(|a| self.disagreement(a))
            .collect();
        let intro = format!(
            "Agreement between the worlds on {}: every finding (a candidate better or worse than the baseline on some world) and whether it holds on every world.",
            figures.join(", ")
        );
        match (found.len(), apart.len()) {
            (0, _) => format!("{intro} No candidate is better or worse than the baseline on any world on these figures."),
            (n, 0) => format!("{intro} All {n} hold on every world."),
            (n, k) => format!(
                "{intro} {k} of {n} do not hold on every world: {}.",
                apart.join("; ")
            ),
        }
    }

    /// "candidate 3: flatness.rms better on fide-2001-2025, no clear difference on fewer-upsets".
    fn disagreement(&self, a: &Agreement) -> String {
        let columns = &self.worlds[0].columns;
        let by_world: Vec<String> = a
            .verdicts
            .iter()
            .zip(self.names())
            .map(|(v, w)| format!("{} on {w}", verdict_words(*v)))
            .collect();
        format!(
            "{} {}: {}",
            candidate_name(self.candidate(a.candidate)),
            columns[a.figure].0,
            by_world.join(", ")
        )
    }

    pub fn text(&self) -> String {
        self.document(false)
    }

    pub fn markdown(&self) -> String {
        self.document(true)
    }

    /// One world's summary as it is; several: the overall order, the agreement, then each world's.
    fn document(&self, markdown: bool) -> String {
        if let [one] = &self.worlds[..] {
            return if markdown { one.markdown() } else { one.text() };
        }
        let limit = if markdown { usize::MAX } else { 20 };
        let mut out = if markdown {
            format!("**{}**\n\n", self.headline())
        } else {
            format!("{}\n", self.headline())
        };
        out.push_str(&format!("{}\n\n", self.explanation()));
        out.push_str(&self.ranking(limit).written(markdown, &self.ranking_words()));
        let points = self.ranked_points().count();
        if points > limit {
            out.push_str(&format!(
                "(the best {limit} of {points} points; results.csv has every row)\n"
            ));
        }
        if let Some(best) = self.ranked_points().next() {
            let c = self.candidate(best);
            out.push_str(&format!(
                "\nThe best point over the worlds: {} ({}).\n",
                candidate_name(c),
                c.values_text(self.study)
            ));
        }
        out.push_str(&format!("\n{}\n", self.agreement_text()));
        if !self.findings().is_empty() {
            out.push_str(if markdown { "\n" } else { "" });
            out.push_str(
                &self
                    .findings_table()
                    .written(markdown, &self.findings_words()),
            );
        }
        for s in &self.worlds {
            let title = format!("World {}", s.world);
            if markdown {
                out.push_str(&format!("\n## {title}\n\n{}", s.markdown()));
            } else {
                let rule = "=".repeat(title.chars().count());
                out.push_str(&format!("\n{title}\n{rule}\n{}", s.text()));
            }
        }
        out
    }

    /// One world's `summary.json` as it is; several: what identifies the study (as each world's
    /// summary gives it), the overall order, each world's summary (as a single world's), and the
    /// agreement on every judged figure.
    pub fn json(&self) -> String {
        if let [one] = &self.worlds[..] {
            return one.json();
        }
        // Each world's summary read back (float_roundtrip keeps every number as written).
        let summaries: Vec<serde_json::Value> = self
            .worlds
            .iter()
            .map(|s| serde_json::from_str(&s.json()).unwrap_or_default())
            .collect();
        let mut top = serde_json::Map::new();
        for key in [
            "elosim",
            "study",
            "file",
            "fingerprint",
            "design",
            "seeds",
            "rank",
        ] {
            if let Some(value) = summaries[0].get(key) {
                top.insert(key.into(), value.clone());
            }
        }
        let order: Vec<OrderJson> = self
            .order
            .iter()
            .enumerate()
            .map(|(place, &id)| OrderJson {
                candidate: id,
                rank: place + 1,
                label: self.candidate(id).label(),
                mean_distance: mean_loss(&self.worlds, id).map(|l| round_to(l, 6)),
            })
            .collect();
        let worlds: Vec<WorldJson> = summaries
            .into_iter()
            .zip(self.study.input.worlds())
            .map(|(summary, w)| WorldJson {
                name: w.settings.name.clone(),
                source: w.source.clone(),
                summary,
            })
            .collect();
        let columns = &self.worlds[0].columns;
        let names = self.names();
        let agreement: Vec<AgreementJson> = self
            .agreement()
            .into_iter()
            .map(|a| AgreementJson {
                candidate: a.candidate,
                figure: columns[a.figure].0.clone(),
                agree: a.agree(),
                verdicts: names
                    .iter()
                    .zip(&a.verdicts)
                    .map(|(w, v)| {
                        let text = (*v != Verdict::None).then(|| v.text());
                        (w.to_string(), serde_json::json!(text))
                    })
                    .collect(),
            })
            .collect();
        top.insert("order".into(), serde_json::json!(order));
        top.insert("worlds".into(), serde_json::json!(worlds));
        top.insert("agreement".into(), serde_json::json!(agreement));
        crate::output::pretty_json(&top)
    }

    /// Each picture of the study, one per world (the world in its title and file stem with
    /// several), grouped by kind in the order the report shows them.
    pub fn pictures(&self) -> Vec<Vec<(String, Picture)>> {
        let per_world: Vec<Vec<(String, Picture)>> = self.worlds.iter().map(pictures).collect();
        if self.worlds.len() == 1 {
            return per_world.into_iter().flatten().map(|p| vec![p]).collect();
        }
        let mut kinds: Vec<String> = Vec::new();
        for (stem, _) in per_world.iter().flatten() {
            if !kinds.contains(stem) {
                kinds.push(stem.clone());
            }
        }
        let mut out: Vec<Vec<(String, Picture)>> = kinds.iter().map(|_| Vec::new()).collect();
        for (s, pictures) in self.worlds.iter().zip(per_world) {
            for (stem, picture) in pictures {
                let kind = kinds.iter().position(|k| *k == stem).unwrap_or(0);
                out[kind].push((format!("{stem}-{}", s.world), titled(picture, &s.world)));
            }
        }
        out
    }
}

/// A candidate's mean over the worlds of its mean distance from the ideal on each world's rank
/// figure; `None` where a world lacks it.
fn mean_loss(worlds: &[Summary<'_>], candidate: u32) -> Option<f64> {
    super::stats::mean_of_all(worlds.iter().map(|s| s.table.loss(candidate, s.rank)))
}

/// A verdict in a sentence: the baseline's own (none) as "no verdict".
fn verdict_words(v: Verdict) -> &'static str {
    match v {
        Verdict::None => "no verdict",
        v => v.text(),
    }
}

/// The picture with its world before its title.
fn titled(mut picture: Picture, world: &str) -> Picture {
    match &mut picture {
        Picture::Heatmap(p) => p.title = format!("{world}: {}", p.title),
        Picture::Lines(p) => p.title = format!("{world}: {}", p.title),
        Picture::Scatter(p) => p.title = format!("{world}: {}", p.title),
        Picture::Bars(_) | Picture::Density(_) | Picture::Panels(_) => {}
    }
    picture
}

#[derive(Serialize)]
struct OrderJson {
    candidate: u32,
    rank: usize,
    label: String,
    mean_distance: Option<f64>,
}

#[derive(Serialize)]
struct WorldJson {
    name: String,
    source: String,
    summary: serde_json::Value,
}

#[derive(Serialize)]
struct AgreementJson {
    candidate: u32,
    figure: String,
    verdicts: serde_json::Map<String, serde_json::Value>,
    agree: bool,
}

/// A verification of the best points over the worlds, world by world: on each, whether the
/// search's order of the points verified and its verdicts held.
pub struct Verification<'a> {
    pub reports: Vec<Report<'a>>,
}

impl<'a> Verification<'a> {
    pub fn new(search: &'a Summaries<'_>, verified: &'a Summaries<'_>) -> Verification<'a> {
        Verification {
            reports: search
                .worlds
                .iter()
                .zip(&verified.worlds)
                .map(|(search, verified)| Report { search, verified })
                .collect(),
        }
    }

    /// The worlds where the ranking did not hold.
    fn not_held(&self) -> Vec<&str> {
        self.reports
            .iter()
            .filter(|r| !r.held())
            .map(|r| r.search.world.as_str())
            .collect()
    }

    pub(super) fn conclusion(&self) -> String {
        match &self.not_held()[..] {
            [] => "The ranking held on every world.".into(),
            worlds => format!("The ranking did not hold on {}.", worlds.join(", ")),
        }
    }

    pub fn text(&self) -> String {
        self.document(Report::text)
    }

    pub fn markdown(&self) -> String {
        self.document(Report::markdown)
    }

    fn document(&self, each: impl Fn(&Report<'a>) -> String) -> String {
        if let [one] = &self.reports[..] {
            return each(one);
        }
        let mut out: String = self
            .reports
            .iter()
            .map(|r| format!("World {}. {}\n", r.search.world, each(r)))
            .collect();
        out.push_str(&format!("{}\n", self.conclusion()));
        out
    }

    /// One world's `verify.json` as it is; several: each world's, and whether it held on all.
    pub fn json(&self) -> String {
        if let [one] = &self.reports[..] {
            return one.json();
        }
        crate::output::pretty_json(&VerificationJson {
            held: self.not_held().is_empty(),
            worlds: self
                .reports
                .iter()
                .map(|r| VerifiedWorldJson {
                    name: r.search.world.clone(),
                    verification: serde_json::from_str(&r.json()).unwrap_or_default(),
                })
                .collect(),
        })
    }
}

#[derive(Serialize)]
struct VerificationJson {
    held: bool,
    worlds: Vec<VerifiedWorldJson>,
}

#[derive(Serialize)]
struct VerifiedWorldJson {
    name: String,
    verification: serde_json::Value,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::candidates;
    use crate::sweep::testing::{flatness_row as row, floor_study};

    /// A study of the floor on two worlds (read, never generated) judged by flatness.
    fn study() -> Study {
        let input = "worlds = [\"north.toml\", \"south.toml\"]";
        floor_study(
            "sweep-worlds-agreement",
            input,
            "[1601, 2001]",
            &["north", "south"],
            "",
        )
    }

    #[test]
    fn findings_that_hold_on_one_world_only_are_flagged() {
        let study = study();
        let (candidates, _) = candidates::all(&study);
        assert_eq!(candidates.len(), 3);
        // On both worlds candidate 1 is 1 lower than the baseline on every seed (better) and
        // candidate 2 is 2 lower on every seed of north but 1 lower and 1 higher on south's.
        let mut rows = Vec::new();
        for (world, shift) in [("north", 0.0), ("south", 5.0)] {
            for seed in 1..=4u64 {
                let base = 10.0 + shift + seed as f64;
                let wobble = if seed % 2 == 0 { 1.0 } else { -1.0 };
                let two = if world == "north" { -2.0 } else { wobble };
                rows.extend([
                    row(world, 0, seed, base),
                    row(world, 1, seed, base - 1.0),
                    row(world, 2, seed, base + two),
                ]);
            }
        }
        let s = Summaries::new(&study, &candidates, &rows);
        assert_eq!(s.worlds.len(), 2);
        assert_eq!(
            (s.worlds[0].world.as_str(), s.worlds[1].world.as_str()),
            ("north", "south")
        );
        // Mean distances over the worlds: 1 is 1 lower on both, 2 is 2 lower on north only.
        assert_eq!(s.order, [1, 2, 0]);
        assert_eq!(s.ranked_points().collect::<Vec<_>>(), [1, 2]);
        let agreement = s.agreement();
        let on_rms: Vec<&Agreement> = agreement.iter().filter(|a| a.figure == 0).collect();
        assert_eq!(on_rms.len(), 2);
        assert_eq!(on_rms[0].verdicts, [Verdict::Better, Verdict::Better]);
        assert!(on_rms[0].agree());
        assert_eq!(on_rms[1].verdicts, [Verdict::Better, Verdict::Unclear]);
        assert!(!on_rms[1].agree());
        // Underdogs are 0 everywhere: the same on every world, agreeing, and no finding.
        let underdogs = agreement.iter().find(|a| a.figure == 1).unwrap();
        assert_eq!(underdogs.verdicts, [Verdict::Same, Verdict::Same]);
        assert!(underdogs.agree() && !underdogs.finding());
        let text = s.agreement_text();
        assert!(
            text.contains("1 of 2 do not hold on every world: 2 flatness.rms: better on north, no clear difference on south."),
            "{text}"
        );
        let summary = s.text();
        assert!(
            summary.contains("\nWorld north\n===========\n"),
            "{summary}"
        );
        let table = s.findings_table().render(&s.findings_words());
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 3, "{table}");
        assert!(
            lines[1].starts_with("1 ") && lines[1].trim_end().ends_with("yes"),
            "{table}"
        );
        assert!(
            lines[2].starts_with("2 ") && lines[2].trim_end().ends_with("NO"),
            "{table}"
        );
        assert_eq!(s.best(1).iter().map(|c| c.id).collect::<Vec<_>>(), [0, 1]);
    }
}
