//! A crosstable as a coloured grid, in Sonas's blue–red gradient.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{diverging, FONT};

/// One cell: its text and the value that colours it (`None`: white, as Sonas's `=0%` and ×).
#[derive(Clone, Debug)]
pub struct HeatCell {
    pub text: String,
    pub value: Option<f64>,
}

#[derive(Clone, Debug)]
pub struct Heatmap {
    pub title: String,
    /// A line under the title (what the cells mean).
    pub subtitle: String,
    /// Written above the row labels (the window).
    pub corner: String,
    pub columns: Vec<String>,
    /// Written above each column's name ("vs." in a crosstable: the row group against it).
    pub column_prefix: String,
    /// Each row's long label (Sonas's total) and its group.
    pub rows: Vec<(String, String)>,
    pub cells: Vec<Vec<HeatCell>>,
    /// The value drawn in full colour (and beyond).
    pub full_at: f64,
    /// What the legend's colours mean, e.g. "red: row group underperformed · blue: outperformed
    /// (percentage points)".
    pub legend: String,
}

fn style(size: u32, h: HPos) -> TextStyle<'static> {
    TextStyle::from((FONT, size).into_font())
        .color(&BLACK)
        .pos(Pos::new(h, VPos::Center))
}

/// The largest font size up to `size` at which `text` fits the picture's `width` with a margin (a
/// study's title names its world and two key paths), 10 at least; `size` where the backend cannot
/// measure text.
fn fitting<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    size: u32,
    width: i32,
) -> u32 {
    let fits = |s: u32| {
        area.estimate_text_size(text, &style(s, HPos::Center))
            .ok()
            .map(|(w, _)| w as i32 <= width - 20)
    };
    match fits(size) {
        Some(false) => (10..size)
            .rev()
            .find(|&s| fits(s) == Some(true))
            .unwrap_or(10),
        _ => size,
    }
}

/// Pixels above the grid (title, subtitle, column names) and under it (the colour bar).
const TOP: i32 = 110;
const BOTTOM: i32 = 80;

/// The tallest a row is drawn, in pixels.
const ROW_MAX: i32 = 96;

impl Heatmap {
    /// The picture's height: the usual one, or less for a table of few rows, whose rows stop
    /// growing at `ROW_MAX` (a picture of the usual height would leave its bottom blank).
    pub fn height(&self) -> u32 {
        let rows = self.rows.len().max(1) as u32;
        (TOP + BOTTOM) as u32 + (rows * ROW_MAX as u32).min(super::SIZE.1 - (TOP + BOTTOM) as u32)
    }

    pub fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let (width, height) = area.dim_in_pixel();
        let (width, height) = (width as i32, height as i32);
        area.draw(&Text::new(
            self.title.clone(),
            (width / 2, 24),
            style(fitting(area, &self.title, 24, width), HPos::Center),
        ))?;
        area.draw(&Text::new(
            self.subtitle.clone(),
            (width / 2, 52),
            style(fitting(area, &self.subtitle, 14, width), HPos::Center),
        ))?;
        let (left, top) = (300, TOP);
        let n_cols = self.columns.len().max(1) as i32;
        let n_rows = self.rows.len().max(1) as i32;
        let cell_w = (width - left - 20) / n_cols;
        // Rows fill the picture, up to twice a crosstable's usual height.
        let cell_h = ((height - top - BOTTOM) / n_rows).min(ROW_MAX);
        let font = if cell_w < 60 { 12 } else { 14 };
        area.draw(&Text::new(
            self.corner.clone(),
            (10, top - 20),
            style(14, HPos::Left),
        ))?;
        for (c, name) in self.columns.iter().enumerate() {
            let x = left + c as i32 * cell_w + cell_w / 2;
            area.draw(&Text::new(
                self.column_prefix.clone(),
                (x, top - 32),
                style(font, HPos::Center),
            ))?;
            area.draw(&Text::new(
                name.clone(),
                (x, top - 14),
                style(font, HPos::Center),
            ))?;
        }
        for (r, (total, group)) in self.rows.iter().enumerate() {
            let y = top + r as i32 * cell_h;
            let middle = y + cell_h / 2;
            area.draw(&Text::new(
                total.clone(),
                (left - 80, middle),
                style(font, HPos::Right),
            ))?;
            area.draw(&Text::new(
                group.clone(),
                (left - 70, middle),
                style(font, HPos::Left),
            ))?;
            for (c, cell) in self.cells[r].iter().enumerate() {
                let x = left + c as i32 * cell_w;
                let fill = cell.value.map_or(WHITE, |v| diverging(v, self.full_at));
                area.draw(&Rectangle::new(
                    [(x, y), (x + cell_w, y + cell_h)],
                    fill.filled(),
                ))?;
                area.draw(&Rectangle::new(
                    [(x, y), (x + cell_w, y + cell_h)],
                    RGBColor(210, 210, 210).stroke_width(1),
                ))?;
                let dark = cell.value.is_some_and(|v| v.abs() > self.full_at * 0.6);
                let colour = if dark { WHITE } else { BLACK };
                area.draw(&Text::new(
                    cell.text.clone(),
                    (x + cell_w / 2, y + cell_h / 2),
                    style(font, HPos::Center).color(&colour),
                ))?;
            }
        }
        self.draw_legend(area, width, (top + n_rows * cell_h + 30).min(height - 45))
    }

    /// A colour bar from −full to +full under the grid.
    fn draw_legend<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        width: i32,
        y: i32,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let (w, h) = (400, 16);
        let x0 = (width - w) / 2;
        let steps = 80;
        for i in 0..steps {
            let v = -self.full_at + 2.0 * self.full_at * (f64::from(i) + 0.5) / f64::from(steps);
            let x = x0 + i * w / steps;
            area.draw(&Rectangle::new(
                [(x, y), (x + w / steps + 1, y + h)],
                diverging(v, self.full_at).filled(),
            ))?;
        }
        let label = |v: f64| {
            if self.full_at >= 10.0 {
                format!("{v:+.0}")
            } else {
                let decimals = (2.0 - self.full_at.log10().floor()).max(0.0) as usize;
                format!("{v:+.decimals$}")
            }
        };
        area.draw(&Text::new(
            label(-self.full_at),
            (x0 - 8, y + h / 2),
            style(13, HPos::Right),
        ))?;
        area.draw(&Text::new(
            label(self.full_at),
            (x0 + w + 8, y + h / 2),
            style(13, HPos::Left),
        ))?;
        area.draw(&Text::new(
            self.legend.clone(),
            (x0 + w / 2, y + h + 14),
            style(13, HPos::Center),
        ))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A title wider than the picture is drawn smaller until it fits; a short one keeps its size.
    #[test]
    fn a_long_title_is_drawn_small_enough_to_fit() {
        super::super::register_font();
        let mut pixels = vec![0u8; 1200 * 800 * 3];
        let area = BitMapBackend::with_buffer(&mut pixels, (1200, 800)).into_drawing_area();
        assert_eq!(fitting(&area, "a short title", 24, 1200), 24);
        let long = "fide-2001-2025-form: truth_gap.active.rms by event[compression 2017-01].factor and event[compression 2017-01].below";
        let (w, _) = area
            .estimate_text_size(long, &style(24, HPos::Center))
            .unwrap();
        assert!(w > 1180, "the title should not fit at 24: {w}");
        let size = fitting(&area, long, 24, 1200);
        let (w, _) = area
            .estimate_text_size(long, &style(size, HPos::Center))
            .unwrap();
        assert!(size < 24 && w <= 1180, "{size}: {w}");
    }
}
