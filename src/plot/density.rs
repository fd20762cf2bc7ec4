//! A scatter of many points as a density: squares shaded by how many points fall in them (on a
//! logarithmic scale), with the diagonal y = x.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{shade, FONT};

#[derive(Clone, Debug)]
pub struct Density {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// Square size in data units.
    pub bin: i32,
    /// (x bin lower bound, y bin lower bound, points).
    pub cells: Vec<(i32, i32, u64)>,
}

impl Density {
    pub fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let low = self.cells.iter().map(|c| c.0.min(c.1)).min().unwrap_or(0);
        let high = self.cells.iter().map(|c| c.0.max(c.1)).max().unwrap_or(1) + self.bin;
        let most = self.cells.iter().map(|c| c.2).max().unwrap_or(1).max(2) as f64;
        let (low, high) = (f64::from(low), f64::from(high));
        let mut chart = ChartBuilder::on(area)
            .caption(&self.title, (FONT, 26))
            .margin(24)
            .x_label_area_size(60)
            .y_label_area_size(80)
            .build_cartesian_2d(low..high, low..high)?;
        chart
            .configure_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .label_style((FONT, 16))
            .axis_desc_style((FONT, 18))
            .light_line_style(RGBColor(240, 240, 240))
            .draw()?;
        let bin = f64::from(self.bin);
        chart
            .draw_series(self.cells.iter().map(|&(x, y, n)| {
                let t = 0.15 + 0.85 * (n as f64).ln() / most.ln();
                let (x, y) = (f64::from(x), f64::from(y));
                Rectangle::new(
                    [(x, y), (x + bin, y + bin)],
                    shade(RGBColor(31, 70, 150), t).filled(),
                )
            }))?
            .label(format!(
                "players per {}-point square (darker: more, log scale; most {most:.0})",
                self.bin
            ))
            .legend(|(x, y)| {
                Rectangle::new(
                    [(x, y - 6), (x + 16, y + 6)],
                    RGBColor(31, 70, 150).filled(),
                )
            });
        chart
            .draw_series(LineSeries::new(
                vec![(low, low), (high, high)],
                BLACK.stroke_width(1),
            ))?
            .label("equal ratings")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .label_font((FONT, 16))
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(160, 160, 160))
            .draw()?;
        Ok(())
    }
}
