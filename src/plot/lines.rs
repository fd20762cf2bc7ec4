//! Line charts: expectation curves and histograms drawn as one line per list.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Rect, FONT};

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
    pub x_axis: super::XAxis,
}

/// A shaded band between a lower and an upper line: (x, low, high) in order of x.
#[derive(Clone, Debug)]
pub struct Band {
    pub colour: RGBColor,
    pub points: Vec<(f64, f64, f64)>,
}

/// More legend entries than this go beside the chart whatever the room inside.
const LEGEND_INSIDE_AT_MOST: usize = 10;

/// The height of one legend entry, in pixels.
const LEGEND_ROW: i32 = 22;

/// The width of a legend's line sample, in pixels.
const SAMPLE: i32 = 30;

/// Pixels between a legend inside the chart and the plotting area's edges.
const INSET: i32 = 10;

/// A corner of the plotting area, where a legend may go.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Corner {
    UpperLeft,
    UpperRight,
    LowerRight,
    LowerLeft,
}

impl Corner {
    /// The top left pixel of a legend of `size` in this corner of the plotting area `plot`.
    fn place(self, plot: Rect, size: (i32, i32)) -> (i32, i32) {
        let (left, top) = (plot.0 + INSET, plot.1 + INSET);
        let (right, bottom) = (plot.2 - INSET - size.0, plot.3 - INSET - size.1);
        match self {
            Corner::UpperLeft => (left, top),
            Corner::UpperRight => (right, top),
            Corner::LowerRight => (right, bottom),
            Corner::LowerLeft => (left, bottom),
        }
    }
}

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
        let (width, height) = area.dim_in_pixel();
        let (width, height) = (width as i32, height as i32);
        let inside = if listed.len() > LEGEND_INSIDE_AT_MOST {
            None
        } else {
            self.free_corner(self.axes().plot_rect((width, height)), legend_size)
        };
        let (chart_area, legend_area) = match inside {
            Some(_) => area.split_horizontally(width),
            None => area.split_horizontally(width - legend_size.0 - 16),
        };
        let plotted = self.draw_lines(&chart_area)?;
        if listed.is_empty() {
            return Ok(());
        }
        // Where the legend's top left corner goes, in `area`'s pixels.
        let (base_x, base_y) = area.get_base_pixel();
        let (x, y) = match inside {
            Some(corner) => corner.place(plotted, legend_size),
            None => (legend_area.get_base_pixel().0, plotted.1),
        };
        draw_legend(area, &listed, (x - base_x, y - base_y), legend_size, &font)
    }

    fn axes(&self) -> super::Axes<'_> {
        super::Axes {
            title: &self.title,
            x_label: &self.x_label,
            y_label: &self.y_label,
            x_range: self.x_range,
            y_range: self.y_range,
            y_label_area: 80,
            number: super::axis_number,
            x_axis: self.x_axis,
        }
    }

    /// The first corner, the preferred one first, where a legend of `size` would cover no line
    /// and no band; none when it would hide data in every corner.
    fn free_corner(&self, plot: Rect, size: (i32, i32)) -> Option<Corner> {
        let preferred = if self.legend_lower_right {
            Corner::LowerRight
        } else {
            Corner::UpperLeft
        };
        let drawn = self.drawn_pixels(plot);
        let corners = [
            preferred,
            Corner::UpperRight,
            Corner::UpperLeft,
            Corner::LowerRight,
            Corner::LowerLeft,
        ];
        corners.into_iter().find(|corner| {
            let (x, y) = corner.place(plot, size);
            let covers = |&(px, py): &(i32, i32)| {
                (x - 6..=x + size.0 + 6).contains(&px) && (y - 6..=y + size.1 + 6).contains(&py)
            };
            !drawn.iter().any(covers)
        })
    }

    /// Pixels along every line and band edge in the plotting area `plot`, a few pixels apart, so
    /// that a legend covering part of a line covers one of them.
    fn drawn_pixels(&self, plot: Rect) -> Vec<(i32, i32)> {
        let ((x0, x1), (y0, y1)) = (self.x_range, self.y_range);
        let pixel = |(x, y): (f64, f64)| {
            (
                f64::from(plot.0) + (x - x0) / (x1 - x0) * f64::from(plot.2 - plot.0),
                f64::from(plot.3) - (y - y0) / (y1 - y0) * f64::from(plot.3 - plot.1),
            )
        };
        let edges = self.bands.iter().flat_map(|band| {
            [
                band.points.iter().map(|&(x, low, _)| (x, low)).collect(),
                band.points.iter().map(|&(x, _, high)| (x, high)).collect(),
            ]
        });
        let lines = self.series.iter().map(|s| s.points.clone()).chain(edges);
        let mut out = Vec::new();
        for line in lines {
            let pixels: Vec<(f64, f64)> = line.into_iter().map(pixel).collect();
            out.extend(pixels.iter().map(|&(x, y)| (x as i32, y as i32)));
            for pair in pixels.windows(2) {
                let ((ax, ay), (bx, by)) = (pair[0], pair[1]);
                let steps = ((bx - ax).abs().max((by - ay).abs()) / 4.0).ceil() as usize;
                out.extend((1..steps).map(|k| {
                    let t = k as f64 / steps as f64;
                    ((ax + (bx - ax) * t) as i32, (ay + (by - ay) * t) as i32)
                }));
            }
        }
        out
    }

    /// The axes, the bands and the lines; returns the plotting area's pixels, for the legend.
    fn draw_lines<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
    ) -> Result<Rect, DrawingAreaErrorKind<DB::ErrorType>> {
        let mut chart = self.axes().draw(area)?;
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
        let (x, y) = chart.plotting_area().get_pixel_range();
        Ok((x.start, y.start, x.end, y.end))
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
