//! What a finished study says, computed once from its rows and shown as text, Markdown, JSON,
//! pictures and the HTML page: every candidate ranked by one figure with its interval, its paired
//! difference from the baseline and the verdict corrected for the study's many comparisons, the
//! Pareto front over two or three figures (and which of its members surely beat the baseline),
//! the best point's parameters at the edge of what was searched, and the parameters whose values
//! made no difference.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::keys::KeyValue;
use crate::numbers::{counted, fixed, round_to};
use crate::report::TextTable;
use crate::simulate::Goal;

use super::candidates::{ranked_ids, same_as_baseline, Candidate, Kind, BASELINE};
use super::journal::{value_json, Row};
use super::stats::{beats, pareto, Interval, Standing, Table, Verdict, ALPHA};
use super::study::{Design, Input, Study, Values};

/// A finished study's figures, ranked.
pub struct Summary<'a> {
    pub study: &'a Study,
    pub candidates: &'a [Candidate],
    pub columns: Vec<(String, Goal, &'static str)>,
    pub table: Table<'a>,
    /// The rank figure's column.
    pub rank: usize,
    /// Candidates by the rank figure's mean distance from its ideal (those without one last).
    pub order: Vec<u32>,
    pub pareto_figures: Vec<usize>,
    pub front: Vec<u32>,
    /// The front's members that beat the baseline with corrected significance (`stats::beats` on
    /// the Pareto figures).
    pub beating: Vec<u32>,
    /// Parameters whose values gave identical figures on every seed wherever only they changed.
    pub inert: Vec<String>,
    /// The points that set the base scenario's own values: the baseline itself, left out of the
    /// order and the front.
    pub same_as_baseline: Vec<u32>,
    /// The best point's parameters at the smallest or largest value searched.
    pub edges: Vec<Edge>,
    pub seeds: Vec<u64>,
    /// The world of the rows (a study's summary is one world's: `worlds::Summaries` has one per
    /// world); empty for one history of real games.
    pub world: String,
    /// Each candidate's place in `candidates`, by id.
    index: std::collections::HashMap<u32, usize>,
    /// Per figure, every candidate's standing with its verdict corrected over the candidates.
    standings: Vec<BTreeMap<u32, Standing>>,
}

/// A parameter of the best point at the smallest or largest value searched: the best may lie
/// beyond.
pub struct Edge {
    pub parameter: String,
    pub value: KeyValue,
    /// At the largest value searched (else the smallest).
    pub top: bool,
    /// The value is as far as the key goes, so the search cannot be widened that way.
    pub key_limit: bool,
    /// The values searched were a list (else a range).
    pub list: bool,
}

impl<'a> Summary<'a> {
    pub fn new(study: &'a Study, candidates: &'a [Candidate], rows: &'a [Row]) -> Summary<'a> {
        let columns = study.columns();
        let goals = columns.iter().map(|(_, g, _)| *g).collect();
        let mut table = Table::new(rows, goals);
        table.errors = study.paired_errors();
        table.one_history = !study.input.is_world();
        table.thresholds = columns.iter().map(|(n, _, _)| study.threshold(n)).collect();
        let standings: Vec<BTreeMap<u32, Standing>> =
            (0..columns.len()).map(|f| table.corrected(f)).collect();
        let index = |name: &str| columns.iter().position(|(c, _, _)| c == name);
        let rank = index(&study.rank).unwrap_or(0);
        let ids = ranked_ids(candidates);
        let order = ranked(ids.clone(), |c| table.loss(c, rank));
        let pareto_figures: Vec<usize> = study.pareto.iter().filter_map(|p| index(p)).collect();
        let front = pareto(&table, &ids, &pareto_figures);
        let beating = front
            .iter()
            .copied()
            .filter(|c| {
                let verdicts: Vec<Verdict> = pareto_figures
                    .iter()
                    .filter_map(|&f| Some(standings[f].get(c)?.verdict))
                    .collect();
                beats(&verdicts)
            })
            .collect();
        let inert = inert(study, candidates, rows);
        let best = order
            .iter()
            .filter_map(|&id| candidates.iter().find(|c| c.id == id))
            .find(|c| c.kind == Kind::Point)
            .filter(|c| table.loss(c.id, rank).is_some());
        let edges = best.map(|c| edges(study, c)).unwrap_or_default();
        Summary {
            study,
            candidates,
            columns,
            table,
            rank,
            order,
            pareto_figures,
            front,
            beating,
            inert,
            same_as_baseline: same_as_baseline(candidates),
            edges,
            standings,
            index: candidates
                .iter()
                .enumerate()
                .map(|(i, c)| (c.id, i))
                .collect(),
            seeds: {
                let mut seeds: Vec<u64> = rows.iter().map(|r| r.seed).collect();
                seeds.sort_unstable();
                seeds.dedup();
                seeds
            },
            world: rows.first().map(|r| r.world.clone()).unwrap_or_default(),
        }
    }

    pub fn candidate(&self, id: u32) -> &Candidate {
        let at = self.index.get(&id).copied().unwrap_or(0);
        &self.candidates[at]
    }

    /// The candidates of the design (not the baseline or the references), best first.
    pub fn ranked_points(&self) -> impl Iterator<Item = u32> + '_ {
        self.order
            .iter()
            .copied()
            .filter(|&c| self.candidate(c).kind == Kind::Point)
    }

    /// A candidate's standing on a figure, its verdict corrected over the study's candidates.
    pub fn standing(&self, candidate: u32, figure: usize) -> Standing {
        self.standings
            .get(figure)
            .and_then(|s| s.get(&candidate))
            .copied()
            .unwrap_or_else(|| self.table.standing(candidate, figure))
    }

    pub(super) fn headline(&self) -> String {
        let s = self.study;
        let points = self
            .candidates
            .iter()
            .filter(|c| c.kind == Kind::Point)
            .count();
        let input = match &s.input {
            Input::World {
                worlds,
                scale,
                seeds,
            } => format!(
                "{} at scale {scale}, seeds {}",
                worlds
                    .iter()
                    .find(|w| w.settings.name == self.world)
                    .map_or("", |w| w.source.as_str()),
                seeds
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Input::Games { files, .. } => {
                format!("the games of {} (one history)", files.games.display())
            }
        };
        format!(
            "Study {} ({}): the baseline {}, {}, {} of {} design; {input}",
            s.name,
            s.file.display(),
            s.base.base().name,
            counted(s.references.len() as u64, "reference"),
            counted(points as u64, "point"),
            s.design.with_article()
        )
    }

    pub(super) fn explanation(&self) -> String {
        let (name, goal, _) = &self.columns[self.rank];
        let intervals = match self.seeds.len() {
            1 if self.study.input.is_world() => "one seed: figures have no interval and differences from the baseline no verdict's certainty; give more seeds.".to_string(),
            1 => format!("one history: no seeds, so figures have no interval; a difference from the baseline has one only where its measure gives the standard error of the paired per-game difference (predictive: ± 1.96 of them, the games taken as independent), and otherwise no verdict's certainty.{}", self.correction("on each figure with such a standard error", "paired z-test by the per-game standard error")),
            n => format!("± is the half-width of the 95 % interval over the {n} seeds (Student's t); Δ is the candidate minus the baseline on the same seeds.{}", self.correction("per figure", &format!("paired t-test over {n} seeds"))),
        };
        format!("Ranked by {name} ({}); {intervals}", goal.text())
    }

    /// How the verdicts were reached, where any figure was tested: the test, Holm's correction over
    /// the candidates compared, α and the thresholds in force.
    fn correction(&self, figures: &str, test: &str) -> String {
        let families: BTreeSet<usize> = self
            .standings
            .iter()
            .flat_map(|s| s.values().filter_map(|s| Some(s.test?.family)))
            .collect();
        let (Some(fewest), Some(most)) = (families.first(), families.last()) else {
            return String::new();
        };
        let fewer = if fewest == most {
            ""
        } else {
            " On a figure where some candidates equal the baseline on every seed or lack the figure, the correction is over fewer."
        };
        let named: Vec<String> = self
            .study
            .thresholds
            .iter()
            .map(|(figure, t)| format!("{figure} {t}"))
            .collect();
        let thresholds = if named.is_empty() {
            "none (0 on every figure: any sure gain counts)".to_string()
        } else {
            format!("{} (0 on every other figure)", named.join(", "))
        };
        format!(" Verdicts are corrected for multiplicity (Holm–Bonferroni over the {most} candidates compared with the baseline {figures}, {test}, α {ALPHA}): better or worse where the adjusted p-value of the paired difference in distance from the ideal is below {ALPHA} and the mean gain exceeds the figure's threshold, \"below the threshold\" where it does not; thresholds: {thresholds}.{fewer}")
    }

    /// The ranking as a table: rank, candidate, its values, the rank figure, Δ and verdict, and
    /// the Pareto figures' means; `limit` rows of the design at most, the baseline and the
    /// references always.
    pub(super) fn ranking(&self, limit: usize) -> TextTable {
        let mut t = TextTable::default();
        let (values, differences) = (
            self.value_decimals(self.rank),
            self.difference_decimals(self.rank),
        );
        let others: Vec<(usize, usize)> = self
            .pareto_figures
            .iter()
            .filter(|&&f| f != self.rank)
            .map(|&f| (f, self.value_decimals(f)))
            .collect();
        let mut header: Vec<String> = vec!["rank".into(), "candidate".into()];
        header.extend(self.study.parameters.iter().map(|p| p.path.to_string()));
        let rank_name = &self.columns[self.rank].0;
        header.extend([
            rank_name.clone(),
            "Δ baseline".into(),
            "verdict".into(),
            "adjusted p".into(),
        ]);
        header.extend(others.iter().map(|&(f, _)| self.columns[f].0.clone()));
        t.push(header);
        for (id, mut line) in ranking_rows(&self.order, limit, |c| self.candidate(c)) {
            let s = self.standing(id, self.rank);
            line.push(interval_text(s.value, values));
            line.push(difference_text(s.difference, differences));
            line.push(s.verdict.text().to_string());
            line.push(adjusted_p_text(&s));
            for &(f, decimals) in &others {
                line.push(interval_text(self.standing(id, f).value, decimals));
            }
            t.push(line);
        }
        t
    }

    pub(super) fn front_text(&self) -> String {
        let names: Vec<&str> = self
            .pareto_figures
            .iter()
            .map(|&f| self.columns[f].0.as_str())
            .collect();
        let front: Vec<String> = self
            .front
            .iter()
            .map(|&c| candidate_name(self.candidate(c)))
            .collect();
        if front.is_empty() {
            return format!(
                "No Pareto front over {}: no candidate has all of these figures (a window without games, or a list without players?).",
                names.join(", ")
            );
        }
        let beating: Vec<String> = self
            .beating
            .iter()
            .map(|&c| candidate_name(self.candidate(c)))
            .collect();
        format!(
            "Pareto front over {} (no other candidate is as good on all and better on one): {}. Of these, beating the baseline with corrected significance (better on at least one of these figures and worse on none, by the corrected verdicts with their thresholds): {}.",
            names.join(", "),
            front.join(", "),
            if beating.is_empty() {
                "none".to_string()
            } else {
                beating.join(", ")
            }
        )
    }

    /// The decimals of figure `f`'s values, in every table: one precision for all its candidates'
    /// means and intervals.
    pub fn value_decimals(&self, f: usize) -> usize {
        decimals(self.order.iter().filter_map(|&c| self.standing(c, f).value))
    }

    /// The decimals of figure `f`'s differences from the baseline, likewise.
    pub fn difference_decimals(&self, f: usize) -> usize {
        decimals(
            self.order
                .iter()
                .filter_map(|&c| self.standing(c, f).difference),
        )
    }

    /// The columns of `figures_of` that are words, aligned left: the figure, the verdict, its goal.
    pub(super) const FIGURES_OF_WORDS: [usize; 3] = [0, 4, 5];

    /// Every judged figure of one candidate beside the baseline's: where a study's verdicts are
    /// read with the baseline's own figures (its slope against the truth, say) in view.
    pub(super) fn figures_of(&self, id: u32) -> TextTable {
        let mut t = TextTable::default();
        t.push(vec![
            "figure".into(),
            "value".into(),
            "baseline".into(),
            "Δ baseline".into(),
            "verdict".into(),
            "better".into(),
            "adjusted p".into(),
        ]);
        for (f, (name, goal, unit)) in self.columns.iter().enumerate() {
            if *goal == Goal::Shown {
                continue;
            }
            let s = self.standing(id, f);
            let values = self.value_decimals(f);
            t.push(vec![
                format!(
                    "{name}{}",
                    if unit.is_empty() {
                        String::new()
                    } else {
                        format!(" ({unit})")
                    }
                ),
                interval_text(s.value, values),
                interval_text(self.standing(BASELINE, f).value, values),
                difference_text(s.difference, self.difference_decimals(f)),
                s.verdict.text().into(),
                goal.text().into(),
                adjusted_p_text(&s),
            ]);
        }
        t
    }

    pub(super) fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        for &id in &self.same_as_baseline {
            let values = self.candidate(id).values_text(self.study);
            notes.push(format!("Point {id} ({values}) sets the base scenario's own values: it is the baseline itself, its rows the baseline's, so it takes no place in the ranking or the Pareto front."));
        }
        for p in &self.inert {
            notes.push(format!("{p} made no difference: every figure was identical on every seed wherever only it changed."));
        }
        if let Design::Optimise { minimise, .. } = &self.study.design {
            let what: Vec<String> = minimise.iter().map(|(n, w)| format!("{w} × {n}")).collect();
            let over = if self.study.input.worlds().len() > 1 {
                "the worlds and seeds"
            } else {
                "the seeds"
            };
            notes.push(format!(
                "The optimiser minimised the mean over {over} of {}.",
                what.join(" + ")
            ));
        }
        notes.extend(self.edges.iter().map(Edge::text));
        let points = self.ranked_points().count();
        if points > 1 {
            let remedy = if self.study.input.is_world() {
                "`--verify` replays it on fresh seeds, which do not share the bias"
            } else {
                "one history has no fresh seeds to verify on: only other games would tell"
            };
            notes.push(format!("The best point's Δ is biased in its favour: it was chosen as the best of {points} points on these same results, so its lead includes their luck (the winner's curse), which the correction for multiplicity does not remove; {remedy}."));
        }
        notes
    }

    pub fn text(&self) -> String {
        self.document(false)
    }

    pub fn markdown(&self) -> String {
        self.document(true)
    }

    /// The summary for a terminal (the best 20 points) or in Markdown (every point).
    fn document(&self, markdown: bool) -> String {
        let table = |t: TextTable, left: &[usize]| {
            if markdown {
                t.markdown(left)
            } else {
                t.render(left)
            }
        };
        let limit = if markdown { usize::MAX } else { 20 };
        let headline = if markdown {
            format!("**{}**\n", self.headline())
        } else {
            self.headline()
        };
        let mut out = format!("{headline}\n{}\n\n", self.explanation());
        // The candidate's name and the verdict are words, aligned left.
        let words = [1, 1 + self.study.parameters.len() + 3];
        out.push_str(&table(
            self.ranking(limit),
            if markdown { &words[..1] } else { &words },
        ));
        let points = self.ranked_points().count();
        if points > limit {
            out.push_str(&format!(
                "(the best {limit} of {points} points; results.csv has every row)\n"
            ));
        }
        out.push_str(&format!("\n{}\n", self.front_text()));
        if let Some(best) = self.ranked_points().next() {
            out.push_str(&format!(
                "\nThe best point, {} ({}), on every figure, beside the baseline:\n{}",
                candidate_name(self.candidate(best)),
                self.candidate(best).values_text(self.study),
                if markdown { "\n" } else { "" }
            ));
            out.push_str(&table(self.figures_of(best), &Self::FIGURES_OF_WORDS));
        }
        for n in self.notes() {
            out.push_str(&format!("\n{n}\n"));
        }
        out
    }

    pub fn json(&self) -> String {
        let candidates = self
            .order
            .iter()
            .enumerate()
            .map(|(place, &id)| {
                let c = self.candidate(id);
                CandidateJson {
                    candidate: id,
                    rank: place + 1,
                    label: c.label(),
                    values: self
                        .study
                        .parameters
                        .iter()
                        .zip(&c.values)
                        .map(|(p, v)| (p.path.to_string(), v.as_ref().map(|_| value_json(v))))
                        .collect(),
                    figures: self
                        .columns
                        .iter()
                        .enumerate()
                        .map(|(f, (name, goal, _))| {
                            let s = self.standing(id, f);
                            FigureJson {
                                name: name.clone(),
                                goal: goal.text(),
                                mean: s.value.map(|i| round_to(i.mean, 6)),
                                half_width: s.value.and_then(|i| i.half).map(|h| round_to(h, 6)),
                                difference: s.difference.map(|i| round_to(i.mean, 6)),
                                difference_half_width: s
                                    .difference
                                    .and_then(|i| i.half)
                                    .map(|h| round_to(h, 6)),
                                verdict: (s.verdict != Verdict::None).then(|| s.verdict.text()),
                                distance_difference: s.test.map(|t| round_to(t.distance.mean, 6)),
                                distance_difference_half_width: s
                                    .test
                                    .and_then(|t| t.distance.half)
                                    .map(|h| round_to(h, 6)),
                                p_value: s.test.map(|t| round_to(t.p, 6)),
                                adjusted_p_value: s.test.map(|t| round_to(t.adjusted, 6)),
                                method: s.test.map(|t| t.method()),
                                threshold: (*goal != Goal::Shown)
                                    .then(|| self.study.threshold(name)),
                            }
                        })
                        .collect(),
                }
            })
            .collect();
        crate::output::pretty_json(&SummaryJson {
            elosim: env!("CARGO_PKG_VERSION"),
            study: &self.study.name,
            file: self.study.file.display().to_string(),
            fingerprint: &self.study.fingerprint,
            design: self.study.design.name(),
            seeds: &self.seeds,
            rank: &self.columns[self.rank].0,
            alpha: ALPHA,
            pareto: PairJson {
                figures: self
                    .pareto_figures
                    .iter()
                    .map(|&f| self.columns[f].0.clone())
                    .collect(),
                front: self.front.clone(),
                beating: self.beating.clone(),
            },
            no_difference: &self.inert,
            same_as_baseline: &self.same_as_baseline,
            edges: self
                .edges
                .iter()
                .map(|e| EdgeJson {
                    parameter: e.parameter.clone(),
                    value: value_json(&Some(e.value.clone())),
                    side: if e.top { "max" } else { "min" },
                    key_limit: e.key_limit,
                })
                .collect(),
            candidates,
        })
    }
}

#[derive(Serialize)]
struct SummaryJson<'a> {
    elosim: &'static str,
    study: &'a str,
    file: String,
    fingerprint: &'a str,
    design: &'static str,
    seeds: &'a [u64],
    rank: &'a str,
    /// The level of the corrected verdicts.
    alpha: f64,
    pareto: PairJson,
    no_difference: &'a [String],
    /// The points that set the base scenario's own values, left out of `candidates`' ranks.
    same_as_baseline: &'a [u32],
    edges: Vec<EdgeJson>,
    candidates: Vec<CandidateJson>,
}

#[derive(Serialize)]
struct PairJson {
    figures: Vec<String>,
    front: Vec<u32>,
    /// The front's members that beat the baseline with corrected significance.
    beating: Vec<u32>,
}

#[derive(Serialize)]
struct EdgeJson {
    parameter: String,
    value: serde_json::Value,
    side: &'static str,
    key_limit: bool,
}

#[derive(Serialize)]
struct CandidateJson {
    candidate: u32,
    rank: usize,
    label: String,
    values: Vec<(String, Option<serde_json::Value>)>,
    figures: Vec<FigureJson>,
}

#[derive(Serialize)]
struct FigureJson {
    name: String,
    goal: &'static str,
    mean: Option<f64>,
    half_width: Option<f64>,
    difference: Option<f64>,
    difference_half_width: Option<f64>,
    verdict: Option<&'static str>,
    /// Candidate minus baseline in distance from the ideal, what the test and threshold judge.
    distance_difference: Option<f64>,
    distance_difference_half_width: Option<f64>,
    p_value: Option<f64>,
    /// Holm's adjustment over the candidates compared on the figure.
    adjusted_p_value: Option<f64>,
    method: Option<String>,
    threshold: Option<f64>,
}

impl Edge {
    /// `event[compression 2017-01].factor: the best point is at the top of the range searched
    /// (0.6): the best may lie beyond; widen it upwards.`
    fn text(&self) -> String {
        let (side, way) = if self.top {
            ("top", "upwards")
        } else {
            ("bottom", "downwards")
        };
        let searched = if self.list { "values" } else { "range" };
        let advice = if self.key_limit {
            ", as far as the key goes".to_string()
        } else {
            let them = if self.list { "them" } else { "it" };
            format!(": the best may lie beyond; widen {them} {way}")
        };
        format!(
            "{}: the best point is at the {side} of the {searched} searched ({}){advice}.",
            self.parameter, self.value
        )
    }
}

/// The best point's parameters at the smallest or largest number searched.
fn edges(study: &Study, best: &Candidate) -> Vec<Edge> {
    study
        .parameters
        .iter()
        .zip(&best.values)
        .filter_map(|(p, v)| {
            let x = v.as_ref()?.coordinate()?;
            let (low, high) = p.extremes()?;
            let top = x >= high;
            if !top && x > low {
                return None;
            }
            let key_limit = p
                .domain
                .bounds()
                .is_some_and(|(min, max)| if top { x >= max } else { x <= min });
            Some(Edge {
                parameter: p.path.to_string(),
                value: v.clone()?,
                top,
                key_limit,
                list: matches!(p.values, Values::List(_)),
            })
        })
        .collect()
}

/// A p-value for people: three decimals, or `< 0.001`.
fn p_text(p: f64) -> String {
    if p < 0.001 {
        "< 0.001".into()
    } else {
        format!("{p:.3}")
    }
}

fn adjusted_p_text(s: &Standing) -> String {
    s.test.map_or(String::new(), |t| p_text(t.adjusted))
}

/// The rows a ranking shows, each with its first cells (rank, candidate, its values): every
/// candidate of `order`, but no more than `limit` points of the design.
pub(super) fn ranking_rows<'c>(
    order: &[u32],
    limit: usize,
    candidate: impl Fn(u32) -> &'c Candidate,
) -> Vec<(u32, Vec<String>)> {
    let mut rows = Vec::new();
    let mut shown = 0;
    for (place, &id) in order.iter().enumerate() {
        let c = candidate(id);
        if c.kind == Kind::Point {
            if shown >= limit {
                continue;
            }
            shown += 1;
        }
        let mut line = vec![(place + 1).to_string(), candidate_name(c)];
        line.extend(
            c.values
                .iter()
                .map(|v| v.as_ref().map_or("–".into(), ToString::to_string)),
        );
        rows.push((id, line));
    }
    rows
}

/// Candidates by a distance from the ideal, nearest first (those without one last), ties by id.
pub(super) fn ranked(mut ids: Vec<u32>, loss: impl Fn(u32) -> Option<f64>) -> Vec<u32> {
    ids.sort_by(|&a, &b| match (loss(a), loss(b)) {
        (Some(x), Some(y)) => x.total_cmp(&y).then(a.cmp(&b)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.cmp(&b),
    });
    ids
}

/// `12`, `baseline (0)`, `fide-historical (1)`.
pub fn candidate_name(c: &Candidate) -> String {
    match &c.kind {
        Kind::Baseline => "baseline (0)".into(),
        Kind::Reference(name) => format!("{name} ({})", c.id),
        Kind::Point => c.id.to_string(),
    }
}

/// A figure for people: four significant digits.
pub fn number_text(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let digits = significant(x, 4);
    format!("{x:.digits$}")
}

/// The decimals that show `x` to `digits` significant digits (0 to 8).
fn significant(x: f64, digits: i32) -> usize {
    if x == 0.0 || !x.is_finite() {
        return 0;
    }
    (digits - 1 - x.abs().log10().floor() as i32).clamp(0, 8) as usize
}

/// The decimals of one column of a figure, every mean and ± in it alike, so that they line up and
/// none claims digits the others lack: two significant digits of the column's typical (median)
/// half-width, as far as its intervals vouch for; without intervals (one seed, one history),
/// four significant digits of its largest value.
pub fn decimals(intervals: impl Iterator<Item = Interval>) -> usize {
    let mut halves = Vec::new();
    let mut largest = 0f64;
    for i in intervals {
        if i.mean.is_finite() {
            largest = largest.max(i.mean.abs());
        }
        halves.extend(i.half.filter(|h| *h > 0.0 && h.is_finite()));
    }
    halves.sort_by(f64::total_cmp);
    match halves.get(halves.len() / 2) {
        Some(&typical) => significant(typical, 2),
        None => significant(largest, 4),
    }
}

/// A mean and its ± to `decimals` places; `–` where there is no value.
pub fn interval_text(i: Option<Interval>, decimals: usize) -> String {
    match i {
        None => "–".into(),
        Some(i) => match i.half {
            Some(h) => format!("{} ± {h:.decimals$}", fixed(i.mean, decimals)),
            None => fixed(i.mean, decimals),
        },
    }
}

/// A difference from the baseline with its sign always written (`+0.012 ± 0.004`), to `decimals`
/// places; empty where there is none.
pub fn difference_text(d: Option<Interval>, decimals: usize) -> String {
    let Some(d) = d else {
        return String::new();
    };
    let mean = crate::numbers::signed(d.mean, decimals);
    match d.half {
        Some(h) => format!("{mean} ± {h:.decimals$}"),
        None => mean,
    }
}

/// The parameters whose values made no difference: in a grid, every group of points that differ
/// only in that parameter has identical figures on every seed; in other designs, where points
/// differ in every parameter, every point's figures are identical.
fn inert(study: &Study, candidates: &[Candidate], rows: &[Row]) -> Vec<String> {
    // Each candidate's figures seed by seed, bit for bit.
    type Bits = Vec<(u64, Vec<Option<u64>>)>;
    let mut figures: BTreeMap<u32, Bits> = BTreeMap::new();
    for r in rows {
        let bits = r.figures.iter().map(|f| f.map(f64::to_bits)).collect();
        figures.entry(r.candidate).or_default().push((r.seed, bits));
    }
    let same = |a: u32, b: u32| figures.get(&a) == figures.get(&b);
    let points: Vec<&Candidate> = candidates
        .iter()
        .filter(|c| c.kind == Kind::Point)
        .collect();
    if study.design != Design::Grid {
        // Points that differ in every parameter at once: only when all of them gave the same
        // figures can no parameter have made a difference.
        let all = points.len() > 1 && points.iter().all(|c| same(c.id, points[0].id));
        return if all {
            study
                .parameters
                .iter()
                .map(|p| p.path.to_string())
                .collect()
        } else {
            Vec::new()
        };
    }
    let mut out = Vec::new();
    for (k, p) in study.parameters.iter().enumerate() {
        // The points that differ only in parameter k, grouped by the others' values.
        let mut groups: BTreeMap<String, Vec<u32>> = BTreeMap::new();
        for c in &points {
            let mut others = c.values.clone();
            others.remove(k);
            groups.entry(format!("{others:?}")).or_default().push(c.id);
        }
        let compared: Vec<&Vec<u32>> = groups.values().filter(|m| m.len() > 1).collect();
        if !compared.is_empty() && compared.iter().all(|m| m.iter().all(|&c| same(c, m[0]))) {
            out.push(p.path.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::candidates;
    use crate::sweep::testing::{flatness_row, floor_study};
    use crate::sweep::verify::Report;

    /// A grid of the October 2002 floor through the base scenario's own (1801) on one world (read,
    /// never generated), judged by flatness.
    fn study() -> Study {
        let input = "world = \"fide-2001-2025\"";
        floor_study(
            "sweep-summary-precision",
            input,
            "[1601, 1801, 2001]",
            &[],
            "",
        )
    }

    /// Rows of the baseline and points 1 to 3 (2 sets the baseline's floor, so its rows are the
    /// baseline's) on four seeds, flatness RMS about `scale` apart from seed to seed.
    fn rows(scale: f64) -> Vec<Row> {
        let mut rows = Vec::new();
        for seed in 1..=4u64 {
            let base = 3.0 + scale * seed as f64;
            for (candidate, rms) in [(0, base), (1, base - 0.1), (2, base), (3, base + 0.2)] {
                rows.push(flatness_row("fide-2001-2025", candidate, seed, rms));
            }
        }
        rows
    }

    /// The decimals of a cell `mean ± half`: (the mean's, the half-width's).
    fn cell_decimals(cell: &str) -> (usize, usize) {
        let places = |n: &str| n.split_once('.').map_or(0, |(_, d)| d.len());
        let (mean, half) = cell.split_once(" ± ").unwrap();
        (places(mean), places(half))
    }

    #[test]
    fn a_figure_s_means_and_intervals_share_one_precision_from_its_spread() {
        let interval = |mean, half| Interval {
            mean,
            half: Some(half),
            n: 8,
        };
        // Two significant digits of the interval, the mean to as many places.
        let tight = [interval(0.592134, 0.00003808)];
        let d = decimals(tight.into_iter());
        assert_eq!(interval_text(Some(tight[0]), d), "0.592134 ± 0.000038");
        let wide = [interval(237.63, 6.034)];
        let d = decimals(wide.into_iter());
        assert_eq!(interval_text(Some(wide[0]), d), "237.6 ± 6.0");
        // Without intervals, four significant digits of the largest value, for every value.
        let one = |mean| Interval {
            mean,
            half: None,
            n: 1,
        };
        let d = decimals([one(0.6699), one(12.5)].into_iter());
        assert_eq!(interval_text(Some(one(0.6699)), d), "0.67");
        assert_eq!(difference_text(Some(one(-0.004)), 3), "-0.004");
        assert_eq!(difference_text(Some(one(0.012)), 3), "+0.012");
        assert_eq!(difference_text(Some(one(0.0)), 3), "0.000");

        let study = study();
        let (candidates, _) = candidates::all(&study);
        for scale in [0.01, 10.0] {
            let rows = rows(scale);
            let s = Summary::new(&study, &candidates, &rows);
            let table = s.ranking(usize::MAX).render(&[1]);
            let column = s.study.parameters.len() + 2;
            let cells: Vec<(usize, usize)> = table
                .lines()
                .skip(1)
                .map(|line| {
                    let cells: Vec<&str> = line
                        .split("  ")
                        .map(str::trim)
                        .filter(|c| !c.is_empty())
                        .collect();
                    cell_decimals(cells[column])
                })
                .collect();
            assert!(cells.windows(2).all(|w| w[0] == w[1]), "{table}");
            assert_eq!(cells[0].0, cells[0].1, "{table}");
        }
    }

    #[test]
    fn the_point_that_is_the_baseline_takes_no_place_in_the_ranking() {
        let study = study();
        let (candidates, _) = candidates::all(&study);
        assert_eq!(candidates[2].values, candidates[0].values);
        let rows = rows(0.01);
        let s = Summary::new(&study, &candidates, &rows);
        assert_eq!(s.order, [1, 0, 3]);
        assert_eq!(s.ranked_points().collect::<Vec<_>>(), [1, 3]);
        assert!(!s.front.contains(&2), "{:?}", s.front);
        let text = s.text();
        assert!(
            text.contains("Point 2 (revision[2002-07].floor = 1801) sets the base scenario's own values: it is the baseline itself"),
            "{text}"
        );
        assert!(text.contains("the best of 2 points"), "{text}");
        let json = s.json();
        assert!(
            json.contains("\"same_as_baseline\": [\n    2\n  ]"),
            "{json}"
        );
        // The verification's differences carry their signs: 1 is 0.1 lower, 3 is 0.2 higher.
        let report = Report {
            search: &s,
            verified: &s,
        };
        let table = report.table().render(&[1]);
        assert!(table.contains(" -0.1000 ± 0.0000 "), "{table}");
        assert!(table.contains(" +0.2000 ± 0.0000 "), "{table}");
    }
}
