//! A scatter of labelled points: a study's candidates on two figures, its Pareto front joined.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::FONT;

/// One point: where, its colour, whether it stands out, and a label beside it.
#[derive(Clone, Debug)]
pub struct Dot {
    pub x: f64,
    pub y: f64,
    pub colour: RGBColor,
    /// Drawn larger, with a black ring.
    pub emphasised: bool,
    pub label: Option<String>,
}

#[derive(Clone, Debug)]
pub struct Scatter {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x_range: (f64, f64),
    pub y_range: (f64, f64),
    pub dots: Vec<Dot>,
    /// Points joined by a line, in order (a front).
    pub line: Vec<(f64, f64)>,
    /// What the colours mean, drawn as a legend in the corner with the fewest points.
    pub legend: Vec<(String, RGBColor)>,
    pub x_axis: super::XAxis,
}

impl Scatter {
    pub fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let mut chart = super::Axes {
            title: &self.title,
            x_label: &self.x_label,
            y_label: &self.y_label,
            x_range: self.x_range,
            y_range: self.y_range,
            y_label_area: 90,
            number: precise,
            x_axis: self.x_axis,
        }
        .draw(area)?;
        if self.line.len() > 1 {
            chart.draw_series(LineSeries::new(
                self.line.iter().copied(),
                RGBColor(120, 120, 120).stroke_width(2),
            ))?;
        }
        for dot in &self.dots {
            let size = if dot.emphasised || dot.label.is_some() {
                8
            } else {
                5
            };
            chart.draw_series(std::iter::once(Circle::new(
                (dot.x, dot.y),
                size,
                dot.colour.filled(),
            )))?;
            if dot.emphasised {
                chart.draw_series(std::iter::once(Circle::new(
                    (dot.x, dot.y),
                    size,
                    BLACK.stroke_width(2),
                )))?;
            }
            if let Some(label) = &dot.label {
                // Labels of points in the right quarter go to their left, inside the picture.
                let right = dot.x > self.x_range.0 + 0.75 * (self.x_range.1 - self.x_range.0);
                let (h, dx) = if right {
                    (HPos::Right, -(size + 5))
                } else {
                    (HPos::Left, size + 5)
                };
                let style = TextStyle::from((FONT, 15).into_font())
                    .color(&BLACK)
                    .pos(Pos::new(h, VPos::Center));
                chart.draw_series(std::iter::once(
                    EmptyElement::at((dot.x, dot.y)) + Text::new(label.clone(), (dx, 0), style),
                ))?;
            }
        }
        for (name, colour) in &self.legend {
            let colour = *colour;
            chart
                .draw_series(std::iter::once(Circle::new(
                    (self.x_range.0, self.y_range.0),
                    0,
                    colour.filled(),
                )))?
                .label(name)
                .legend(move |(x, y)| Circle::new((x + 12, y), 6, colour.filled()));
        }
        if !self.legend.is_empty() {
            chart
                .configure_series_labels()
                .position(self.emptiest_corner())
                .label_font((FONT, 16))
                .background_style(WHITE.mix(0.85))
                .border_style(RGBColor(160, 160, 160))
                .draw()?;
        }
        Ok(())
    }
}

impl Scatter {
    /// The corner whose quarter of the chart's width and third of its height holds the fewest
    /// points (the upper right on a tie), so that the legend hides as few as it can; a labelled
    /// point counts thrice, its label reaching across.
    fn emptiest_corner(&self) -> SeriesLabelPosition {
        let ((x0, x1), (y0, y1)) = (self.x_range, self.y_range);
        let near = |value: f64, low: f64, high: f64, share: f64, at_high: bool| {
            let edge = if at_high {
                high - share * (high - low)
            } else {
                low + share * (high - low)
            };
            if at_high {
                value >= edge
            } else {
                value <= edge
            }
        };
        let crowd = |right: bool, upper: bool| -> usize {
            self.dots
                .iter()
                .filter(|d| near(d.x, x0, x1, 0.45, right) && near(d.y, y0, y1, 0.35, upper))
                .map(|d| if d.label.is_some() { 3 } else { 1 })
                .sum()
        };
        [
            (SeriesLabelPosition::UpperRight, crowd(true, true)),
            (SeriesLabelPosition::UpperLeft, crowd(false, true)),
            (SeriesLabelPosition::LowerRight, crowd(true, false)),
            (SeriesLabelPosition::LowerLeft, crowd(false, false)),
        ]
        .into_iter()
        .min_by_key(|(_, n)| *n)
        .map_or(SeriesLabelPosition::UpperRight, |(corner, _)| corner)
    }
}

/// An axis number with as many decimals as the range's top needs, and more where the range is
/// too narrow for them to tell its ticks apart.
fn precise(value: f64, (low, top): (f64, f64)) -> String {
    let decimals = if top.abs() >= 100.0 {
        0
    } else if top.abs() >= 10.0 {
        1
    } else if top.abs() >= 1.0 {
        2
    } else {
        4
    };
    let decimals = decimals.max(super::tick_decimals(top - low));
    format!("{value:.decimals$}")
}
