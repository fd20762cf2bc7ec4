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
        let (x_top, y_top) = (self.x_range.1, self.y_range.1);
        let mut chart = ChartBuilder::on(area)
            .caption(&self.title, (FONT, 26))
            .margin(24)
            .x_label_area_size(60)
            .y_label_area_size(80)
            .build_cartesian_2d(
                self.x_range.0..self.x_range.1,
                self.y_range.0..self.y_range.1,
            )?;
        chart
            .configure_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .x_label_formatter(&|x| super::axis_number(*x, x_top))
            .y_label_formatter(&|y| super::axis_number(*y, y_top))
            .label_style((FONT, 16))
            .axis_desc_style((FONT, 18))
            .light_line_style(RGBColor(235, 235, 235))
            .draw()?;
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
