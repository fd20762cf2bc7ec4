//! Grouped bars: two lists side by side (a before/after pair such as the compression month).

use plotters::coord::Shift;
use plotters::prelude::*;

use super::FONT;

#[derive(Clone, Debug)]
pub struct BarChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// Each bin's lower bound and width.
    pub bins: Vec<i32>,
    pub width: i32,
    /// (name, colour, one value per bin) for each bar of a bin.
    pub groups: Vec<(String, RGBColor, Vec<f64>)>,
}

impl BarChart {
    pub fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let low = self.bins.first().copied().unwrap_or(0);
        let high = self.bins.last().copied().unwrap_or(0) + self.width;
        let top = self
            .groups
            .iter()
            .flat_map(|g| g.2.iter().copied())
            .fold(1.0, f64::max);
        let y_top = top * 1.08;
        let mut chart = ChartBuilder::on(area)
            .caption(&self.title, (FONT, 26))
            .margin(24)
            .x_label_area_size(60)
            .y_label_area_size(80)
            .build_cartesian_2d(f64::from(low)..f64::from(high), 0.0..y_top)?;
        chart
            .configure_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| super::axis_number(*y, (0.0, y_top)))
            .label_style((FONT, 16))
            .axis_desc_style((FONT, 18))
            .light_line_style(RGBColor(235, 235, 235))
            .draw()?;
        let n = self.groups.len().max(1) as f64;
        let slot = f64::from(self.width) / n;
        for (g, (name, colour, values)) in self.groups.iter().enumerate() {
            let colour = *colour;
            chart
                .draw_series(self.bins.iter().zip(values).map(|(&bin, &v)| {
                    let x0 = f64::from(bin) + slot * g as f64;
                    Rectangle::new([(x0, 0.0), (x0 + slot * 0.9, v)], colour.filled())
                }))?
                .label(name)
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 6), (x + 16, y + 6)], colour.filled())
                });
        }
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
