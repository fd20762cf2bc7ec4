//! Line charts: expectation curves and histograms drawn as one line per list.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::FONT;

#[derive(Clone, Debug)]
pub struct Series {
    pub name: String,
    pub colour: RGBColor,
    pub points: Vec<(f64, f64)>,
    /// Dashed (a reference curve) rather than solid.
    pub dashed: bool,
    /// A dot at each point (measured data) as well as the line.
    pub markers: bool,
}

#[derive(Clone, Debug)]
pub struct LineChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x_range: (f64, f64),
    pub y_range: (f64, f64),
    pub series: Vec<Series>,
    /// Where the legend goes: lower right (curves) or upper left (histograms).
    pub legend_lower_right: bool,
    /// Shaded bands (intervals), drawn under the lines.
    pub bands: Vec<Band>,
}

/// A shaded band between a lower and an upper line: (x, low, high) in order of x.
#[derive(Clone, Debug)]
pub struct Band {
    pub colour: RGBColor,
    pub points: Vec<(f64, f64, f64)>,
}

impl LineChart {
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
            y_label_area: 80,
            number: super::axis_number,
        }
        .draw(area)?;
        for band in &self.bands {
            let mut outline: Vec<(f64, f64)> =
                band.points.iter().map(|&(x, low, _)| (x, low)).collect();
            outline.extend(band.points.iter().rev().map(|&(x, _, high)| (x, high)));
            chart.draw_series(std::iter::once(Polygon::new(
                outline,
                band.colour.mix(0.18).filled(),
            )))?;
        }
        for series in &self.series {
            let colour = series.colour;
            let dashed = series.dashed;
            let line = colour.stroke_width(if series.dashed { 2 } else { 3 });
            let drawn = if series.dashed {
                chart.draw_series(DashedLineSeries::new(
                    series.points.iter().copied(),
                    8,
                    6,
                    line,
                ))?
            } else {
                chart.draw_series(LineSeries::new(series.points.iter().copied(), line))?
            };
            // The legend draws a dashed line dashed: two strokes with a gap.
            drawn.label(&series.name).legend(move |(x, y)| {
                let style = colour.stroke_width(3);
                let gap = if dashed { 15 } else { 9 };
                EmptyElement::at((0, 0))
                    + PathElement::new(vec![(x, y), (x + 9, y)], style)
                    + PathElement::new(vec![(x + gap, y), (x + 24, y)], style)
            });
            if series.markers {
                chart.draw_series(
                    series
                        .points
                        .iter()
                        .map(|&p| Circle::new(p, 3, colour.filled())),
                )?;
            }
        }
        chart
            .configure_series_labels()
            .position(if self.legend_lower_right {
                SeriesLabelPosition::LowerRight
            } else {
                SeriesLabelPosition::UpperLeft
            })
            .label_font((FONT, 16))
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(160, 160, 160))
            .draw()?;
        Ok(())
    }
}
