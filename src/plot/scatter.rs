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
            let font = TextStyle::from((FONT, 16).into_font());
            let widest = self
                .legend
                .iter()
                .map(|(name, _)| area.estimate_text_size(name, &font).map(|(w, _)| w as i32))
                .try_fold(0, |widest, w| w.map(|w| widest.max(w)))?;
            let size = (
                widest + LEGEND_SAMPLE,
                self.legend.len() as i32 * LEGEND_ROW + 10,
            );
            let (x, y) = chart.plotting_area().get_pixel_range();
            let plot = (x.start, y.start, x.end, y.end);
            let corner = self.emptiest_corner(plot, size, &|x, y| chart.backend_coord(&(x, y)));
            chart
                .configure_series_labels()
                .position(corner)
                .margin(LEGEND_MARGIN as u32)
                .label_font((FONT, 16))
                .background_style(WHITE.mix(0.85))
                .border_style(RGBColor(160, 160, 160))
                .draw()?;
        }
        Ok(())
    }
}

/// The legend's box, as plotters draws it: a row of 16-point text a label, its marker and
/// padding beside the widest label, and its margin from the plotting area's edges.
const LEGEND_ROW: i32 = 21;
const LEGEND_SAMPLE: i32 = 45;
const LEGEND_MARGIN: i32 = 10;

/// A rectangle of pixels: left, top, right, bottom.
type Rect = (i32, i32, i32, i32);

impl Scatter {
    /// The corner where a legend of `size` pixels covers the fewest points and labels (the upper
    /// right on a tie), each point's pixels given by `at` in the plotting area `plot`: the legend
    /// hides as little as it can.
    fn emptiest_corner(
        &self,
        plot: Rect,
        size: (i32, i32),
        at: &dyn Fn(f64, f64) -> (i32, i32),
    ) -> SeriesLabelPosition {
        let (left, top) = (plot.0 + LEGEND_MARGIN, plot.1 + LEGEND_MARGIN);
        let (right, bottom) = (
            plot.2 - LEGEND_MARGIN - size.0,
            plot.3 - LEGEND_MARGIN - size.1,
        );
        let boxes = [
            (SeriesLabelPosition::UpperRight, (right, top)),
            (SeriesLabelPosition::UpperLeft, (left, top)),
            (SeriesLabelPosition::LowerRight, (right, bottom)),
            (SeriesLabelPosition::LowerLeft, (left, bottom)),
        ];
        let marks: Vec<Rect> = self.dots.iter().map(|d| self.mark(d, at)).collect();
        let covered = |(x, y): (i32, i32)| {
            let legend = (x, y, x + size.0, y + size.1);
            marks.iter().filter(|m| overlap(legend, **m)).count()
        };
        boxes
            .into_iter()
            .min_by_key(|&(_, corner)| covered(corner))
            .map_or(SeriesLabelPosition::UpperRight, |(position, _)| position)
    }

    /// The pixels a point and its label take: the dot, and the label beside it (to its left in
    /// the right quarter, as drawn), about 8 pixels a character of 15-point text.
    fn mark(&self, dot: &Dot, at: &dyn Fn(f64, f64) -> (i32, i32)) -> Rect {
        let (x, y) = at(dot.x, dot.y);
        let (mut left, mut right) = (x - 8, x + 8);
        if let Some(label) = &dot.label {
            let width = 13 + 8 * label.chars().count() as i32;
            if dot.x > self.x_range.0 + 0.75 * (self.x_range.1 - self.x_range.0) {
                left -= width;
            } else {
                right += width;
            }
        }
        (left, y - 8, right, y + 8)
    }
}

fn overlap(a: Rect, b: Rect) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
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

#[cfg(test)]
mod tests {
    use super::*;

    fn dot(x: f64, y: f64) -> Dot {
        Dot {
            x,
            y,
            colour: BLACK,
            emphasised: false,
            label: None,
        }
    }

    /// The legend goes where its own box covers no point, not where the corner's quarter holds
    /// fewest: three points near the lower right's corner but clear of the box, one point under
    /// the box in every other corner.
    #[test]
    fn the_legend_goes_where_its_box_hides_nothing() {
        let scatter = Scatter {
            title: String::new(),
            x_label: String::new(),
            y_label: String::new(),
            x_range: (0.0, 1.0),
            y_range: (0.0, 1.0),
            dots: [
                (0.85, 0.9),
                (0.15, 0.9),
                (0.15, 0.1),
                (0.6, 0.25),
                (0.62, 0.3),
                (0.64, 0.2),
            ]
            .map(|(x, y)| dot(x, y))
            .to_vec(),
            line: Vec::new(),
            legend: Vec::new(),
            x_axis: crate::plot::XAxis::Numbers,
        };
        let at = |x: f64, y: f64| ((x * 1000.0) as i32, (600.0 - y * 600.0) as i32);
        let corner = scatter.emptiest_corner((0, 0, 1000, 600), (300, 120), &at);
        assert!(matches!(corner, SeriesLabelPosition::LowerRight));
        // A label reaching under a box counts as its point does.
        let mut labelled = scatter.clone();
        labelled.dots[5].label = Some("a label long enough to reach the corner".into());
        let corner = labelled.emptiest_corner((0, 0, 1000, 600), (300, 120), &at);
        assert!(matches!(corner, SeriesLabelPosition::UpperRight));
    }
}
