//! A study's page, `report.html`: the ranking, the Pareto front, the pictures, the best point on
//! every figure, the verification when there is one, and the study file itself. With several
//! worlds: the order over the worlds, their agreement, each picture side by side world by world,
//! then each world's section as a single world's page has it. Self-contained like the run's
//! report: no scripts, no external files.

use crate::report::html::{escape, page_end, page_start, svg};

use super::summary::{candidate_name, Summary};
use super::verify::Report;
use super::worlds::{Summaries, Verification};

pub fn page(s: &Summaries<'_>, verified: Option<&Verification<'_>>) -> String {
    let study = s.study;
    let mut page = page_start(&format!("elosim study: {}", study.name));
    if !study.description.is_empty() {
        page.push_str(&format!("<p><b>{}</b></p>\n", escape(&study.description)));
    }
    if let [one] = &s.worlds[..] {
        page.push_str(&ranking(one, "h2"));
        page.push_str("<h2>Pictures</h2>\n");
        for (_, picture) in s.pictures().iter().flatten() {
            page.push_str(&svg(picture));
        }
        page.push_str(&best_point(one, "h2"));
    } else {
        page.push_str(&worlds(s));
    }
    if let Some(verification) = verified {
        page.push_str("<h2>Verification</h2>\n");
        match &verification.reports[..] {
            [one] => page.push_str(&report(one)),
            reports => {
                for r in reports {
                    page.push_str(&format!("<h3>World {}</h3>\n", escape(&r.search.world)));
                    page.push_str(&report(r));
                }
                page.push_str(&format!("<p>{}</p>\n", escape(&verification.conclusion())));
            }
        }
    }
    page.push_str(&format!(
        "<h2>The study file</h2>\n<p>{}</p>\n<pre>{}</pre>\n",
        escape(&study.file.display().to_string()),
        escape(&std::fs::read_to_string(&study.file).unwrap_or_default())
    ));
    page.push_str(&page_end());
    page
}

/// The order over the worlds, their agreement, the pictures world beside world, then each world.
fn worlds(s: &Summaries<'_>) -> String {
    let mut out = format!(
        "<p>{}</p>\n<p>{}</p>\n<h2>Ranking over the worlds</h2>\n",
        escape(&s.headline()),
        escape(&s.explanation())
    );
    out.push_str(&s.ranking(usize::MAX).html(&[1]));
    out.push_str("<h2>Agreement between the worlds</h2>\n");
    out.push_str(&format!("<p>{}</p>\n", escape(&s.agreement_text())));
    if !s.findings().is_empty() {
        out.push_str(&s.findings_table().html(&s.findings_words()));
    }
    out.push_str("<h2>Pictures</h2>\n");
    for kind in s.pictures() {
        out.push_str("<div class=\"row\">\n");
        for (_, picture) in &kind {
            out.push_str(&format!("<div class=\"half\">{}</div>\n", svg(picture)));
        }
        out.push_str("</div>\n");
    }
    for world in &s.worlds {
        out.push_str(&format!("<h2>World {}</h2>\n", escape(&world.world)));
        out.push_str(&ranking(world, "h3"));
        out.push_str(&best_point(world, "h3"));
    }
    out
}

/// One world's headline, ranking, Pareto front and notes, under headings of level `h`.
fn ranking(s: &Summary<'_>, h: &str) -> String {
    let mut out = format!(
        "<p>{}</p>\n<p>{}</p>\n<{h}>Ranking</{h}>\n",
        escape(&s.headline()),
        escape(&s.explanation())
    );
    out.push_str(&s.ranking(usize::MAX).html(&[1]));
    out.push_str(&format!("<p>{}</p>\n", escape(&s.front_text())));
    for note in s.notes() {
        out.push_str(&format!("<p class=\"note\">{}</p>\n", escape(&note)));
    }
    out
}

/// One world's best point on every judged figure against the baseline.
fn best_point(s: &Summary<'_>, h: &str) -> String {
    let Some(best) = s.ranked_points().next() else {
        return String::new();
    };
    let c = s.candidate(best);
    format!(
        "<{h}>The best point against the baseline</{h}>\n<p>{} ({}), every judged figure: its mean over the seeds, the baseline's, the paired difference from the baseline, the verdict and its p-value adjusted for the study's many comparisons.</p>\n{}",
        escape(&candidate_name(c)),
        escape(&c.values_text(s.study)),
        s.figures_of(best).html(&Summary::FIGURES_OF_WORDS)
    )
}

/// One world's verification: the scales, the table, whether the ranking held.
fn report(r: &Report<'_>) -> String {
    format!(
        "<p>{}</p>\n{}<p>{}</p>\n",
        escape(&r.scales()),
        r.table().html(&[1]),
        escape(&r.conclusion())
    )
}
