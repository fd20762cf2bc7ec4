//! A study's pictures: a response curve per parameter (the rank figure against the parameter's
//! value, its interval as a band, the baseline as a dashed line with its own band), a heatmap of
//! two parameters (each cell's improvement on the baseline), and the Pareto front on its first two
//! figures, joined and labelled, with the baseline and the reference scenarios, and the front's
//! members that beat the baseline with corrected significance picked out.

use crate::keys::{Domain, KeyValue};
use crate::plot::{
    black, categorical, grey, ordered, Band, Dot, HeatCell, Heatmap, LineChart, Picture, Scatter,
    Series, XAxis,
};

use super::candidates::{Candidate, Kind};
use super::stats::Verdict;
use super::study::Design;
use super::summary::{candidate_name, number_text, Summary};

/// (file stem, picture), in the order the report shows them.
pub fn pictures(s: &Summary<'_>) -> Vec<(String, Picture)> {
    let mut out = Vec::new();
    for k in 0..s.study.parameters.len() {
        if let Some(p) = response(s, k) {
            out.push((format!("response-{}", k + 1), p));
        }
    }
    if let Some(h) = heatmap(s) {
        out.push(("heatmap".into(), h));
    }
    if let Some(p) = pareto(s) {
        out.push(("pareto".into(), p));
    }
    out
}

/// A range with a margin of a twentieth on each side (and some room when it is one value).
fn padded(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (low, high) = extent(values)?;
    let margin = ((high - low) / 20.0).max(high.abs().max(1.0) * 1e-3);
    Some((low - margin, high + margin))
}

/// The smallest and largest finite values, if any.
fn extent(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (low, high) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
            (l.min(v), h.max(v))
        });
    low.is_finite().then_some((low, high))
}

fn axis(s: &Summary<'_>, figure: usize) -> String {
    let (name, goal, unit) = &s.columns[figure];
    let unit = if unit.is_empty() {
        String::new()
    } else {
        format!(", {unit}")
    };
    format!("{name} ({}{unit})", goal.text())
}

/// The rank figure against parameter `k`: in a grid, one line per value of another parameter; in
/// other designs, each candidate as a dot.
fn response(s: &Summary<'_>, k: usize) -> Option<Picture> {
    let f = s.rank;
    let points: Vec<_> = s
        .candidates
        .iter()
        .filter(|c| c.kind == Kind::Point)
        .filter_map(|c| {
            Some((
                c,
                c.values[k].as_ref()?.coordinate()?,
                s.standing(c.id, f).value?,
            ))
        })
        .collect();
    if points.is_empty() {
        return None;
    }
    let parameter = s.study.parameters[k].path.to_string();
    let x_axis = if s.study.parameters[k].domain == Domain::Month {
        XAxis::Months
    } else {
        XAxis::Numbers
    };
    let title = format!("{} against {parameter}", s.columns[f].0);
    let base = s.standing(0, f).value;
    let x_range = match x_axis {
        // A month's number counts from year 0: a margin relative to it would be years wide.
        XAxis::Months => {
            let (low, high) = extent(points.iter().map(|p| p.1))?;
            (low - 1.0, high + 1.0)
        }
        XAxis::Numbers => padded(points.iter().map(|p| p.1))?,
    };
    let lows = points.iter().map(|p| p.2.low().unwrap_or(p.2.mean));
    let highs = points.iter().map(|p| p.2.high().unwrap_or(p.2.mean));
    let extra = base
        .iter()
        .flat_map(|b| [b.low().unwrap_or(b.mean), b.high().unwrap_or(b.mean)]);
    let y_range = padded(lows.chain(highs).chain(extra))?;
    if s.study.design != Design::Grid {
        let mut dots: Vec<Dot> = points
            .iter()
            .map(|(_, x, i)| Dot {
                x: *x,
                y: i.mean,
                colour: categorical(0),
                emphasised: false,
                label: None,
            })
            .collect();
        if let (Some(b), Some(x)) = (
            base,
            s.candidate(0).values[k]
                .as_ref()
                .and_then(KeyValue::coordinate),
        ) {
            dots.push(Dot {
                x,
                y: b.mean,
                colour: categorical(6),
                emphasised: true,
                label: Some("baseline".into()),
            });
        }
        return Some(Picture::Scatter(Scatter {
            x_axis,
            title,
            x_label: parameter,
            y_label: axis(s, f),
            x_range,
            y_range,
            dots,
            line: Vec::new(),
            legend: Vec::new(),
        }));
    }
    // One line per combination of the other parameters' values (the first eight).
    // Each line: the other parameters' values, and its points (x, mean, low, high).
    type Line = (Vec<Option<KeyValue>>, Vec<(f64, f64, f64, f64)>);
    let mut groups: Vec<Line> = Vec::new();
    for (c, x, i) in &points {
        let mut others = c.values.clone();
        others.remove(k);
        let point = (
            *x,
            i.mean,
            i.low().unwrap_or(i.mean),
            i.high().unwrap_or(i.mean),
        );
        match groups.iter_mut().find(|(o, _)| *o == others) {
            Some((_, v)) => v.push(point),
            None => groups.push((others, vec![point])),
        }
    }
    groups.truncate(8);
    let n = groups.len();
    let mut series = Vec::new();
    let mut bands = Vec::new();
    for (g, (others, mut line)) in groups.into_iter().enumerate() {
        line.sort_by(|a, b| a.0.total_cmp(&b.0));
        let colour = if n > 1 { ordered(g, n) } else { categorical(0) };
        let name = s
            .study
            .parameters
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != k)
            .zip(&others)
            .filter_map(|((_, p), v)| {
                Some(format!("{} = {}", short(&p.path.to_string()), v.as_ref()?))
            })
            .collect::<Vec<_>>()
            .join(", ");
        series.push(Series {
            name: if name.is_empty() {
                s.columns[f].0.clone()
            } else {
                name
            },
            colour,
            points: line.iter().map(|p| (p.0, p.1)).collect(),
            dashed: false,
            markers: true,
        });
        bands.push(Band {
            colour,
            points: line.iter().map(|p| (p.0, p.2, p.3)).collect(),
        });
    }
    if let Some(b) = base {
        let colour = categorical(6);
        series.push(Series {
            name: "baseline (the base scenario as it stands)".into(),
            colour,
            points: vec![(x_range.0, b.mean), (x_range.1, b.mean)],
            dashed: true,
            markers: false,
        });
        if let (Some(low), Some(high)) = (b.low(), b.high()) {
            bands.push(Band {
                colour,
                points: vec![(x_range.0, low, high), (x_range.1, low, high)],
            });
        }
    }
    Some(Picture::Lines(LineChart {
        x_axis,
        title,
        x_label: parameter,
        y_label: if s.study.input.is_world() {
            format!("{}, 95 % interval shaded", over_seeds(s, &axis(s, f)))
        } else {
            over_seeds(s, &axis(s, f))
        },
        x_range,
        y_range,
        series,
        legend_lower_right: false,
        bands,
    }))
}

/// `event[compression 2017-01].below` → `below`, for legends.
fn short(path: &str) -> &str {
    path.rsplit('.').next().unwrap_or(path)
}

/// The first two parameters of a grid: each cell's improvement on the baseline in the rank
/// figure's distance from its ideal (blue better, red worse), its mean written in it, `*` where its
/// corrected verdict is better or worse (beyond the threshold).
fn heatmap(s: &Summary<'_>) -> Option<Picture> {
    if s.study.design != Design::Grid || s.study.parameters.len() < 2 {
        return None;
    }
    let f = s.rank;
    let (p, q) = (&s.study.parameters[0], &s.study.parameters[1]);
    let (rows, columns) = (p.grid(), q.grid());
    let base = s.table.loss(0, f)?;
    // The first point with each pair of values (the others, if any, as the grid has them first).
    let mut first: std::collections::HashMap<String, u32> = std::collections::HashMap::new();
    for cand in s.candidates.iter().filter(|c| c.kind == Kind::Point) {
        let key = format!("{:?} {:?}", cand.values[0], cand.values[1]);
        first.entry(key).or_insert(cand.id);
    }
    let mut cells = Vec::new();
    let mut largest: f64 = 0.0;
    for r in &rows {
        let mut line = Vec::new();
        for c in &columns {
            let key = format!("{:?} {:?}", Some(r), Some(c));
            let point = first.get(&key).map(|&id| s.candidate(id));
            let cell = point.and_then(|cand| {
                let loss = s.table.loss(cand.id, f)?;
                let standing = s.standing(cand.id, f);
                let mark = match standing.verdict {
                    Verdict::Better | Verdict::Worse => "*",
                    _ => "",
                };
                let gain = base - loss;
                largest = largest.max(gain.abs());
                Some(HeatCell {
                    text: format!("{}{mark}", number_text(standing.value?.mean)),
                    value: Some(gain),
                })
            });
            line.push(cell.unwrap_or(HeatCell {
                text: "–".into(),
                value: None,
            }));
        }
        cells.push(line);
    }
    let (name, goal, _) = &s.columns[f];
    Some(Picture::Heatmap(Heatmap {
        title: format!("{name} by {} and {}", p.path, q.path),
        subtitle: format!(
            "{} · colour: gain on the baseline ({}; {}) · *: better or worse, corrected (Holm, α {}, beyond the threshold)",
            over_seeds(s, "cell"),
            s.standing(0, f).value.map_or("–".into(), |i| number_text(i.mean)),
            goal.text(),
            super::stats::ALPHA
        ),
        corner: format!("{} ↓  {} →", short(&p.path.to_string()), short(&q.path.to_string())),
        columns: columns.iter().map(ToString::to_string).collect(),
        column_prefix: short(&q.path.to_string()).to_string(),
        rows: rows.iter().map(|v| (v.to_string(), String::new())).collect(),
        cells,
        full_at: largest.max(1e-9),
        legend: "blue: better than the baseline · red: worse".into(),
    }))
}

/// Every candidate on the first two Pareto figures; the front emphasised, joined in order along
/// the first figure and labelled, each member with its values (and, over three figures, its value
/// of the third, which the picture cannot place).
fn pareto(s: &Summary<'_>) -> Option<Picture> {
    let (fx, fy) = (*s.pareto_figures.first()?, *s.pareto_figures.get(1)?);
    let mean = |c: u32, f: usize| s.standing(c, f).value.map(|i| i.mean);
    let best = s.ranked_points().next();
    let third = s.pareto_figures.get(2).map(|&f| (f, s.value_decimals(f)));
    // Each dot, and whether it is a reference scenario.
    let mut dots: Vec<(Dot, bool)> = Vec::new();
    for c in s.candidates {
        // The point that is the baseline itself is drawn once, as the baseline.
        if s.same_as_baseline.contains(&c.id) {
            continue;
        }
        let (Some(x), Some(y)) = (mean(c.id, fx), mean(c.id, fy)) else {
            continue;
        };
        let on_front = s.front.contains(&c.id);
        let beating = s.beating.contains(&c.id);
        // What a label says besides the name: a point's values, then on the front the third
        // figure's value; the best point and a reference keep their colours and say it instead.
        let mut says: Vec<String> = Vec::new();
        if c.kind == Kind::Point {
            says.push(values_short(c));
        }
        if let (Some((f, decimals)), true) = (third, on_front) {
            says.extend(mean(c.id, f).map(|v| format!("{} {v:.decimals$}", s.columns[f].0)));
        }
        if Some(c.id) == best {
            says.push(format!("best by {}", s.columns[s.rank].0));
        }
        if beating {
            says.push("beats the baseline".into());
        }
        let name = match &c.kind {
            Kind::Baseline => "baseline".to_string(),
            Kind::Reference(name) => name.clone(),
            Kind::Point => candidate_name(c),
        };
        let label = if says.is_empty() {
            name
        } else {
            format!("{name} ({})", says.join("; "))
        };
        let (colour, label) = match &c.kind {
            Kind::Baseline => (black(), Some(label)),
            Kind::Reference(_) => (categorical(1), Some(label)),
            Kind::Point if Some(c.id) == best => (categorical(2), Some(label)),
            Kind::Point if beating => (categorical(3), Some(label)),
            Kind::Point if on_front => (categorical(0), Some(label)),
            Kind::Point => (grey(), None),
        };
        let dot = Dot {
            x,
            y,
            colour,
            emphasised: on_front,
            label,
        };
        dots.push((dot, matches!(c.kind, Kind::Reference(_))));
    }
    let mut line: Vec<(f64, f64)> = s
        .front
        .iter()
        .filter_map(|&c| Some((mean(c, fx)?, mean(c, fy)?)))
        .collect();
    line.sort_by(|a, b| a.0.total_cmp(&b.0));
    // The baseline and the references on top of the candidates that share their place.
    dots.sort_by_key(|(d, _)| d.label.is_some() && !d.emphasised);
    // The axes fit the study's own candidates; a reference scenario far outside them is drawn at
    // the edge, its label saying where it lies.
    let inside = || dots.iter().filter(|(_, r)| !r).map(|(d, _)| d);
    let x_range = padded(inside().map(|d| d.x))?;
    let (low, high) = padded(inside().map(|d| d.y))?;
    // Headroom above the candidates, for the legend and an off-scale reference.
    let y_range = (low, high + 0.3 * (high - low));
    for (dot, reference) in &mut dots {
        let outside =
            dot.x < x_range.0 || dot.x > x_range.1 || dot.y < y_range.0 || dot.y > y_range.1;
        if *reference && outside {
            let label = dot.label.take().unwrap_or_default();
            dot.label = Some(format!(
                "{label} ({}, {}), off the scale",
                number_text(dot.x),
                number_text(dot.y)
            ));
            // Just inside the edge, so that the whole dot shows.
            let inset =
                |(low, high): (f64, f64)| (low + 0.01 * (high - low), high - 0.01 * (high - low));
            let ((x0, x1), (y0, y1)) = (inset(x_range), inset(y_range));
            dot.x = dot.x.clamp(x0, x1);
            dot.y = dot.y.clamp(y0, y1);
        }
    }
    let mut figures: Vec<&str> = s
        .pareto_figures
        .iter()
        .map(|&f| s.columns[f].0.as_str())
        .collect();
    let last = figures.pop().unwrap_or_default();
    Some(Picture::Scatter(Scatter {
        x_axis: XAxis::Numbers,
        title: format!("The Pareto front over {} and {last}", figures.join(", ")),
        x_label: axis(s, fx),
        y_label: axis(s, fy),
        x_range,
        y_range,
        dots: dots.into_iter().map(|(d, _)| d).collect(),
        line,
        legend: pareto_legend(s),
    }))
}

/// A point's values for a label, as the parameters are listed: `2001 / 15`.
fn values_short(c: &Candidate) -> String {
    c.values
        .iter()
        .map(|v| v.as_ref().map_or("–".into(), ToString::to_string))
        .collect::<Vec<_>>()
        .join(" / ")
}

/// What the Pareto picture's colours mean; a reference scenario only where the study has one.
fn pareto_legend(s: &Summary<'_>) -> Vec<(String, plotters::style::RGBColor)> {
    let mut legend = vec![("baseline".into(), black())];
    if !s.study.references.is_empty() {
        legend.push(("reference scenario".into(), categorical(1)));
    }
    legend.extend([
        ("on the front (ringed)".into(), categorical(0)),
        (
            "on the front, beats the baseline (corrected)".into(),
            categorical(3),
        ),
        (format!("best by {}", s.columns[s.rank].0), categorical(2)),
        ("other candidates".into(), grey()),
    ]);
    legend
}

/// What a figure's value is on a picture: a mean over a world's seeds with its interval, or one
/// history's single value.
fn over_seeds(s: &Summary<'_>, what: &str) -> String {
    if s.study.input.is_world() {
        format!("{what}: mean over the seeds")
    } else {
        format!("{what} (one history)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::candidates;
    use crate::sweep::journal::Row;
    use crate::sweep::testing::{flatness_row, floor_study};

    /// A study of one history's pictures say so, with no "mean over the seeds" nor interval, and
    /// its Pareto legend names no reference scenario it does not have.
    #[test]
    fn the_pictures_of_one_history_say_so() {
        let games = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/games-2019.csv");
        let input = format!("games = {games:?}");
        let more = "[summary]\npareto = [\"flatness.rms\", \"flatness.underdogs\"]\n";
        let study = floor_study("sweep-one-history", &input, "[1601, 2001]", &[], more);
        let (candidates, _) = candidates::all(&study);
        let rows: Vec<Row> = (0..candidates.len() as u32)
            .map(|c| flatness_row("", c, 0, 3.0 - f64::from(c)))
            .collect();
        let s = Summary::new(&study, &candidates, &rows);
        let response = response(&s, 0).unwrap().svg().unwrap();
        let pareto = pareto(&s).unwrap().svg().unwrap();
        assert!(response.contains("(one history)"), "{response}");
        for svg in [&response, &pareto] {
            assert!(!svg.contains("mean over the seeds"), "{svg}");
        }
        assert!(!pareto.contains("reference scenario"), "{pareto}");
    }

    /// The Pareto picture over three figures: a title naming them, the front joined by a line,
    /// each member labelled with its values and its third figure; the point that is the baseline
    /// itself drawn once, as the baseline.
    #[test]
    fn the_pareto_front_of_three_figures_is_named_joined_and_labelled() {
        let more = "[[measure]]\nkind = \"curve-gap\"\nfrom = \"2002-07\"\nto = \"2003-06\"\n[summary]\npareto = [\"flatness.rms\", \"flatness.underdogs\", \"curve_gap.rms\"]\n";
        let input = "world = \"fide-2001-2025\"\nseeds = [1, 2]";
        let study = floor_study("sweep-pareto-three", input, "[1601, 1801, 2001]", &[], more);
        let (candidates, _) = candidates::all(&study);
        // Flatness RMS, underdogs and the curve's RMS: 1 flatter, 3 fairer to underdogs and
        // nearer the curve, the baseline (and 2, its own floor) between.
        let figures = |c: u32| match c {
            1 => [2.5, 1.5, 2.0],
            3 => [3.5, 0.5, 1.0],
            _ => [3.0, 1.0, 2.0],
        };
        let rows: Vec<Row> = (1..=2u64)
            .flat_map(|seed| {
                (0..4u32).map(move |candidate| {
                    let [rms, underdogs, curve] = figures(candidate);
                    let wobble = 0.01 * seed as f64;
                    Row {
                        world: "fide-2001-2025".into(),
                        candidate,
                        seed,
                        label: String::new(),
                        values: Vec::new(),
                        figures: [rms + wobble, underdogs, 100.0, 10.0, curve, 0.0, 100.0]
                            .map(Some)
                            .to_vec(),
                        seconds: 0.0,
                        measure_seconds: 0.0,
                    }
                })
            })
            .collect();
        let s = Summary::new(&study, &candidates, &rows);
        assert_eq!(s.front, [0, 1, 3]);
        let picture = pareto(&s).unwrap();
        let svg = picture.svg().unwrap();
        assert!(
            svg.contains(
                "The Pareto front over flatness.rms, flatness.underdogs and curve_gap.rms"
            ),
            "{svg}"
        );
        assert!(svg.contains("<polyline"), "no line joins the front");
        for label in [
            "baseline (curve_gap.rms 2.000)",
            "1 (1601; curve_gap.rms 2.000;",
            "3 (2001; curve_gap.rms 1.000)",
        ] {
            assert!(svg.contains(label), "{label}: {svg}");
        }
        assert!(!svg.contains("2 (1801"), "{svg}");
    }
}
