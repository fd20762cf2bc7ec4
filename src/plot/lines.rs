//! Line charts: expectation curves and histograms drawn as one line per list.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::FONT;

/// One line. A series without a name is left out of the legend; one without points is listed in
/// it only (a key: "dashed: the second run").
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
    /// Where a short legend goes inside the chart: lower right (curves) or upper left
    /// (histograms). A long one goes beside the chart.
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

/// More legend entries than this go beside the chart, where they cannot hide a line.
const LEGEND_INSIDE_AT_MOST: usize = 6;

/// The height of one legend entry, in pixels.
const LEGEND_ROW: i32 = 22;

/// The width of a legend's line sample, in pixels.
const SAMPLE: i32 = 30;

impl LineChart {
    pub fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let listed: Vec<&Series> = self.series.iter().filter(|s| !s.name.is_empty()).collect();
        let font = TextStyle::from((FONT, 16).into_font());
        let label_width = listed
            .iter()
            .map(|s| {
                area.estimate_text_size(&s.name, &font)
                    .map(|(w, _)| w as i32)
            })
            .try_fold(0, |widest, w| w.map(|w| widest.max(w)))?;
        let legend_size = (
            SAMPLE + label_width + 24,
            listed.len() as i32 * LEGEND_ROW + 12,
        );
        let beside = listed.len() > LEGEND_INSIDE_AT_MOST;
        let (chart_area, legend_area) = if beside {
            let width = area.dim_in_pixel().0 as i32;
            area.split_horizontally(width - legend_size.0 - 16)
        } else {
            area.split_horizontally(area.dim_in_pixel().0)
        };
        let plotted = self.draw_lines(&chart_area)?;
        if listed.is_empty() {
            return Ok(());
        }
        // Where the legend's top left corner goes, in `area`'s pixels.
        let (base_x, base_y) = area.get_base_pixel();
        let (x_range, y_range) = plotted;
        let corner = if beside {
            let (x, _) = legend_area.get_base_pixel();
            (x - base_x, y_range.start - base_y)
        } else if self.legend_lower_right {
            (
                x_range.end - base_x - legend_size.0 - 10,
                y_range.end - base_y - legend_size.1 - 10,
            )
        } else {
            (x_range.start - base_x + 10, y_range.start - base_y + 10)
        };
        draw_legend(area, &listed, corner, legend_size, &font)
    }

    /// The axes, the bands and the lines; returns the plotting area's pixels, for the legend.
    fn draw_lines<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
    ) -> Result<(std::ops::Range<i32>, std::ops::Range<i32>), DrawingAreaErrorKind<DB::ErrorType>>
    {
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
            let line = colour.stroke_width(if series.dashed { 2 } else { 3 });
            if series.dashed {
                chart.draw_series(DashedLineSeries::new(
                    series.points.iter().copied(),
                    8,
                    6,
                    line,
                ))?;
            } else {
                chart.draw_series(LineSeries::new(series.points.iter().copied(), line))?;
            }
            if series.markers {
                chart.draw_series(
                    series
                        .points
                        .iter()
                        .map(|&p| Circle::new(p, 3, colour.filled())),
                )?;
            }
        }
        Ok(chart.plotting_area().get_pixel_range())
    }
}

/// A framed legend with its top left corner at `corner`: each entry's line drawn as the chart
/// draws it (dashed or solid, with a dot where the line has dots), then its name.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    listed: &[&Series],
    corner: (i32, i32),
    size: (i32, i32),
    font: &TextStyle,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let (x, y) = corner;
    area.draw(&Rectangle::new(
        [(x, y), (x + size.0, y + size.1)],
        WHITE.mix(0.9).filled(),
    ))?;
    area.draw(&Rectangle::new(
        [(x, y), (x + size.0, y + size.1)],
        RGBColor(160, 160, 160),
    ))?;
    for (i, series) in listed.iter().enumerate() {
        let middle = y + 6 + i as i32 * LEGEND_ROW + LEGEND_ROW / 2;
        let (start, end) = (x + 8, x + 8 + SAMPLE);
        let style = series.colour.stroke_width(3);
        if series.dashed {
            // Two dashes with a gap, the chart's 8-on 6-off pattern.
            for dash in [start..start + 10, start + 17..end] {
                area.draw(&PathElement::new(
                    vec![(dash.start, middle), (dash.end, middle)],
                    style,
                ))?;
            }
        } else {
            area.draw(&PathElement::new(
                vec![(start, middle), (end, middle)],
                style,
            ))?;
        }
        if series.markers {
            area.draw(&Circle::new(
                ((start + end) / 2, middle),
                3,
                series.colour.filled(),
            ))?;
        }
        area.draw(&Text::new(
            series.name.clone(),
            (end + 8, middle),
            font.pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}
