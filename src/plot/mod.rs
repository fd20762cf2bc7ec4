//! Pictures of report tables (plotters lives only here: docs/architecture.md's layers). SVG needs no system library;
//! PNG text is drawn with DejaVu Sans embedded in the binary (no fontconfig), so a picture looks
//! the same on every machine.

mod bars;
mod density;
mod heatmap;
mod lines;
mod scatter;

use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;

pub use bars::BarChart;
pub use density::Density;
pub use heatmap::{HeatCell, Heatmap};
pub use lines::{Band, LineChart, Series};
pub use scatter::{Dot, Scatter};

/// The size pictures are drawn at, in pixels: readable at 1200×800 as the issue asks.
pub const SIZE: (u32, u32) = (1200, 800);

/// The font family every text uses.
const FONT: &str = "sans-serif";

/// DejaVu Sans (Bitstream Vera licence, see `font/LICENSE-DejaVu.txt`).
static DEJAVU_SANS: &[u8] = include_bytes!("font/DejaVuSans.ttf");

#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    #[error("{}: cannot tell the picture format; name the file .svg or .png", path.display())]
    Format { path: PathBuf },
    #[error("cannot write {}: directory {} does not exist", path.display(), dir.display())]
    NoDirectory { path: PathBuf, dir: PathBuf },
    #[error("cannot write {}: it is a directory; give a file name ending .svg or .png", path.display())]
    IsDirectory { path: PathBuf },
    #[error("cannot draw {}: {message}", path.display())]
    Draw { path: PathBuf, message: String },
    #[error("cannot write {}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// One picture, ready to draw.
pub enum Picture {
    Heatmap(Heatmap),
    Lines(LineChart),
    Bars(BarChart),
    Density(Density),
    Scatter(Scatter),
    /// Heatmaps side by side, each at the usual size.
    Panels(Vec<Heatmap>),
}

impl Picture {
    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), String> {
        area.fill(&WHITE).map_err(|e| e.to_string())?;
        match self {
            Picture::Heatmap(h) => h.draw(area),
            Picture::Lines(l) => l.draw(area),
            Picture::Bars(b) => b.draw(area),
            Picture::Density(d) => d.draw(area),
            Picture::Scatter(s) => s.draw(area),
            Picture::Panels(panels) => {
                let areas = area.split_evenly((1, panels.len().max(1)));
                panels
                    .iter()
                    .zip(&areas)
                    .try_for_each(|(panel, area)| panel.draw(area))
            }
        }
        .map_err(|e| e.to_string())?;
        area.present().map_err(|e| e.to_string())
    }

    /// Its size in pixels: panels side by side are each of the usual width; a heatmap is only
    /// as tall as its rows need.
    fn size(&self) -> (u32, u32) {
        match self {
            Picture::Panels(panels) => (
                SIZE.0 * panels.len().max(1) as u32,
                panels.iter().map(Heatmap::height).max().unwrap_or(SIZE.1),
            ),
            Picture::Heatmap(heatmap) => (SIZE.0, heatmap.height()),
            _ => SIZE,
        }
    }

    /// The picture as an SVG document (for files and for inlining in HTML).
    pub fn svg(&self) -> Result<String, String> {
        register_font();
        let mut out = String::new();
        {
            let area = SVGBackend::with_string(&mut out, self.size()).into_drawing_area();
            self.draw(&area)?;
        }
        Ok(out)
    }

    /// Whether a picture can be written to `path`: a name ending .svg or .png in a directory that
    /// exists. Commands ask before their work, so that a bad `--plot` costs nothing and leaves
    /// no other output written.
    pub fn check_path(path: &Path) -> Result<(), PlotError> {
        if path.is_dir() {
            return Err(PlotError::IsDirectory {
                path: path.to_path_buf(),
            });
        }
        if !matches!(extension(path).as_deref(), Some("svg" | "png")) {
            return Err(PlotError::Format {
                path: path.to_path_buf(),
            });
        }
        match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() && !dir.is_dir() => {
                Err(PlotError::NoDirectory {
                    path: path.to_path_buf(),
                    dir: dir.to_path_buf(),
                })
            }
            _ => Ok(()),
        }
    }

    /// Writes the picture as SVG or PNG, by the path's extension, under a temporary name that is
    /// renamed when complete.
    pub fn save(&self, path: &Path) -> Result<(), PlotError> {
        Picture::check_path(path)?;
        let extension = extension(path);
        let draw_error = |message| PlotError::Draw {
            path: path.to_path_buf(),
            message,
        };
        let temporary = temporary_name(path);
        match extension.as_deref() {
            Some("svg") => {
                let svg = self.svg().map_err(draw_error)?;
                std::fs::write(&temporary, svg).map_err(|source| PlotError::Io {
                    path: path.to_path_buf(),
                    source,
                })?;
            }
            Some("png") => {
                register_font();
                let area = BitMapBackend::new(&temporary, self.size()).into_drawing_area();
                if let Err(message) = self.draw(&area) {
                    let _ = std::fs::remove_file(&temporary);
                    return Err(draw_error(message));
                }
            }
            _ => {
                return Err(PlotError::Format {
                    path: path.to_path_buf(),
                })
            }
        }
        std::fs::rename(&temporary, path).map_err(|source| {
            let _ = std::fs::remove_file(&temporary);
            PlotError::Io {
                path: path.to_path_buf(),
                source,
            }
        })
    }
}

/// A path's extension in lower case.
fn extension(path: &Path) -> Option<String> {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
}

/// `.name.tmp-PID.ext` beside the file (the extension kept, so the PNG encoder recognises it).
fn temporary_name(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let extension = path
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.tmp-{}{extension}", std::process::id()))
}

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        for style in [FontStyle::Normal, FontStyle::Bold] {
            // The font is compiled in and known to be valid; a failure would only lose text.
            let _ = plotters::style::register_font(FONT, style, DEJAVU_SANS);
        }
    });
}

/// The axes of a chart of lines or dots: where its numbers go and how they are written.
pub(crate) struct Axes<'t> {
    pub title: &'t str,
    pub x_label: &'t str,
    pub y_label: &'t str,
    pub x_range: (f64, f64),
    pub y_range: (f64, f64),
    /// Pixels for the y axis's numbers and label.
    pub y_label_area: u32,
    /// A number as an axis writes it, given the axis's range.
    pub number: fn(f64, (f64, f64)) -> String,
    pub x_axis: XAxis,
}

/// What an x axis counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum XAxis {
    /// Numbers, written as the chart writes its numbers.
    Numbers,
    /// Months counted as `Month` counts them (months since year 0), written `YYYY-MM`: a study's
    /// parameter that moves an event.
    Months,
}

impl XAxis {
    /// At most how many numbers an axis of months writes across `range`: no more than one a
    /// month, so that no month is written twice (`None`: as many as plotters chooses).
    fn labels(self, range: (f64, f64)) -> Option<usize> {
        match self {
            XAxis::Numbers => None,
            XAxis::Months => Some(((range.1 - range.0).floor() as usize + 1).clamp(2, 10)),
        }
    }
}

/// A month on an axis of months.
fn axis_month(value: f64, _range: (f64, f64)) -> String {
    crate::model::Month::from_index(value.round() as i32).to_string()
}

type Plane = plotters::coord::cartesian::Cartesian2d<
    plotters::coord::types::RangedCoordf64,
    plotters::coord::types::RangedCoordf64,
>;

/// Pixels around a chart, under its x axis (numbers and label), and of its caption.
const MARGIN: i32 = 24;
const X_LABEL_AREA: i32 = 60;
const CAPTION: i32 = 30;

/// A rectangle of pixels: left, top, right, bottom.
pub(crate) type Rect = (i32, i32, i32, i32);

impl Axes<'_> {
    /// Where `draw` puts the plotting area in an area of `size` pixels, before drawing it.
    fn plot_rect(&self, size: (i32, i32)) -> Rect {
        (
            MARGIN + self.y_label_area as i32,
            MARGIN + CAPTION,
            size.0 - MARGIN,
            size.1 - MARGIN - X_LABEL_AREA,
        )
    }

    /// The caption, the labelled axes and a light grid, ready for series.
    fn draw<'a, DB: DrawingBackend>(
        &self,
        area: &'a DrawingArea<DB, Shift>,
    ) -> Result<ChartContext<'a, DB, Plane>, DrawingAreaErrorKind<DB::ErrorType>> {
        let (x_range, y_range, number) = (self.x_range, self.y_range, self.number);
        let x_number = match self.x_axis {
            XAxis::Numbers => number,
            XAxis::Months => axis_month,
        };
        let mut chart = ChartBuilder::on(area)
            .caption(self.title, (FONT, 26))
            .margin(MARGIN)
            .x_label_area_size(X_LABEL_AREA)
            .y_label_area_size(self.y_label_area)
            .build_cartesian_2d(
                self.x_range.0..self.x_range.1,
                self.y_range.0..self.y_range.1,
            )?;
        let (x_text, y_text) = (
            |x: &f64| x_number(*x, x_range),
            |y: &f64| number(*y, y_range),
        );
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(self.x_label)
            .y_desc(self.y_label)
            .x_label_formatter(&x_text)
            .y_label_formatter(&y_text)
            .label_style((FONT, 16))
            .axis_desc_style((FONT, 18))
            .light_line_style(RGBColor(235, 235, 235));
        if let Some(labels) = self.x_axis.labels(self.x_range) {
            mesh.x_labels(labels);
        }
        mesh.draw()?;
        Ok(chart)
    }
}

/// A colour between white and `full` (0 = white, 1 = full).
fn shade(full: RGBColor, t: f64) -> RGBColor {
    let t = t.clamp(0.0, 1.0);
    let mix = |c: u8| (255.0 - (255.0 - f64::from(c)) * t).round() as u8;
    RGBColor(mix(full.0), mix(full.1), mix(full.2))
}

/// Sonas's gradient: blue where the row outperformed, red where it underperformed; full colour
/// at `full_at` percentage points.
pub fn diverging(points: f64, full_at: f64) -> RGBColor {
    let t = (points.abs() / full_at).min(1.0);
    if points >= 0.0 {
        shade(RGBColor(33, 102, 172), t)
    } else {
        shade(RGBColor(178, 24, 43), t)
    }
}

/// Distinct colours in order, cool to warm, for series that follow one another (lists by date,
/// bands of rating): neighbours differ in hue, not only in shade, and none is too pale to see on
/// white; the earliest is blue and the latest red.
pub fn ordered(i: usize, n: usize) -> RGBColor {
    const STOPS: [RGBColor; 9] = [
        RGBColor(40, 40, 150),
        RGBColor(31, 110, 220),
        RGBColor(0, 175, 205),
        RGBColor(0, 150, 80),
        RGBColor(120, 180, 0),
        RGBColor(205, 160, 0),
        RGBColor(240, 110, 0),
        RGBColor(210, 30, 30),
        RGBColor(130, 0, 70),
    ];
    if n <= STOPS.len() {
        // Spread over the whole range, so that three series are blue, green-yellow and red.
        let at = if n > 1 {
            (i * (STOPS.len() - 1) + (n - 1) / 2) / (n - 1)
        } else {
            0
        };
        return STOPS[at];
    }
    let last = STOPS.len() - 1;
    let t = i as f64 / (n - 1) as f64 * last as f64;
    let (low, high) = (
        STOPS[t.floor() as usize],
        STOPS[(t.ceil() as usize).min(last)],
    );
    let f = t - t.floor();
    let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * f).round() as u8;
    RGBColor(mix(low.0, high.0), mix(low.1, high.1), mix(low.2, high.2))
}

/// Black, for what a picture compares with (a baseline).
pub fn black() -> RGBColor {
    RGBColor(0, 0, 0)
}

/// The grey of what is shown but not picked out.
pub fn grey() -> RGBColor {
    RGBColor(170, 170, 170)
}

/// Distinct colours for series that are not ordered in time.
pub fn categorical(i: usize) -> RGBColor {
    const COLOURS: [RGBColor; 8] = [
        RGBColor(31, 119, 180),
        RGBColor(230, 159, 0),
        RGBColor(0, 158, 115),
        RGBColor(204, 121, 167),
        RGBColor(213, 94, 0),
        RGBColor(86, 180, 233),
        RGBColor(120, 120, 120),
        RGBColor(240, 228, 66),
    ];
    COLOURS[i % COLOURS.len()]
}

/// Hex notation of a colour, for HTML.
pub fn hex(colour: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", colour.0, colour.1, colour.2)
}

/// An axis number: two decimals on a 0–1 scale, else whole numbers, with thousands separators on
/// an axis that reaches 10,000 (years and ratings are written 2008 and 2400); more decimals where
/// the range is too narrow for these to tell its ticks apart (a figure that moves little).
fn axis_number(value: f64, (low, high): (f64, f64)) -> String {
    if high <= 1.5 {
        let decimals = 2.max(tick_decimals(high - low));
        format!("{value:.decimals$}")
    } else if high.abs() < 10_000.0 {
        let decimals = tick_decimals(high - low);
        format!("{value:.decimals$}")
    } else {
        let whole = value.round();
        let text = crate::numbers::thousands(whole.abs() as u64);
        if whole < 0.0 {
            format!("-{text}")
        } else {
            text
        }
    }
}

/// The decimals that tell apart ticks a tenth of `span` apart (none for a span of 10 or more).
fn tick_decimals(span: f64) -> usize {
    if span <= 0.0 || !span.is_finite() {
        return 0;
    }
    (-(span / 10.0).log10()).ceil().clamp(0.0, 6.0) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An axis of months writes months, never the same month twice and at most ten.
    #[test]
    fn an_axis_of_months_writes_each_month_once() {
        let january_2017 = f64::from(crate::model::Month::parse("2017-01").unwrap().index());
        assert_eq!(axis_month(january_2017, (0.0, 0.0)), "2017-01");
        assert_eq!(axis_month(january_2017 + 5.6, (0.0, 0.0)), "2017-07");
        let labels = |range| XAxis::Months.labels(range);
        assert_eq!(labels((january_2017 - 0.1, january_2017 + 2.1)), Some(3));
        assert_eq!(labels((january_2017, january_2017 + 120.0)), Some(10));
        assert_eq!(XAxis::Numbers.labels((0.0, 1.0)), None);
    }

    /// A figure that moves little gets the decimals its ticks need; wide ranges are written as
    /// before (two decimals on a 0–1 scale, whole numbers above).
    #[test]
    fn axis_numbers_have_the_decimals_their_range_needs() {
        assert_eq!(axis_number(0.675, (0.671, 0.679)), "0.6750");
        assert_eq!(axis_number(0.5, (0.0, 1.0)), "0.50");
        assert_eq!(axis_number(2400.0, (1000.0, 2700.0)), "2400");
        assert_eq!(axis_number(237.55, (236.0, 239.0)), "237.6");
        assert_eq!(axis_number(12_000.0, (0.0, 20_000.0)), "12,000");
    }
}
