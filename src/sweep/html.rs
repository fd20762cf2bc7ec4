//! A study's page, `report.html`: the ranking, the Pareto front, the pictures, the best point on
//! every figure, the verification when there is one, and the study file itself. Self-contained
//! like the run's report: no scripts, no external files.

use crate::report::html::{escape, page_end, page_start, svg};

use super::pictures::pictures;
use super::summary::{candidate_name, Summary};
use super::verify::Report;

pub fn page(s: &Summary<'_>, verified: Option<&Report<'_>>) -> String {
    let study = s.study;
    let mut page = page_start(&format!("elosim study: {}", study.name));
    if !study.description.is_empty() {
        page.push_str(&format!("<p><b>{}</b></p>\n", escape(&study.description)));
    }
    page.push_str(&format!(
        "<p>{}</p>\n<p>{}</p>\n",
        escape(&s.headline()),
        escape(&s.explanation())
    ));
    page.push_str("<h2>Ranking</h2>\n");
    page.push_str(&s.ranking(usize::MAX).html(&[1]));
    page.push_str(&format!("<p>{}</p>\n", escape(&s.front_text())));
    for note in s.notes() {
        page.push_str(&format!("<p class=\"note\">{}</p>\n", escape(&note)));
    }
    page.push_str("<h2>Pictures</h2>\n");
    for (_, picture) in pictures(s) {
        page.push_str(&svg(&picture));
    }
    if let Some(best) = s.ranked_points().next() {
        let c = s.candidate(best);
        page.push_str(&format!(
            "<h2>The best point against the baseline</h2>\n<p>{} ({}), every judged figure: its mean over the seeds, the paired difference from the baseline, the verdict and its p-value adjusted for the study's many comparisons.</p>\n",
            escape(&candidate_name(c)),
            escape(&c.values_text(study))
        ));
        page.push_str(&s.figures_of(best).html(&[0, 3, 4]));
    }
    if let Some(report) = verified {
        page.push_str("<h2>Verification</h2>\n");
        page.push_str(&format!("<p>{}</p>\n", escape(&report.scales())));
        page.push_str(&report.table().html(&[1]));
        page.push_str(&format!("<p>{}</p>\n", escape(&report.conclusion())));
    }
    page.push_str(&format!(
        "<h2>The study file</h2>\n<p>{}</p>\n<pre>{}</pre>\n",
        escape(&study.file.display().to_string()),
        escape(&std::fs::read_to_string(&study.file).unwrap_or_default())
    ));
    page.push_str(&page_end());
    page
}
