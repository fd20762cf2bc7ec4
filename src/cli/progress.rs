use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

use crate::pipeline::Progress;

/// A progress bar on stderr when it is a terminal; nothing otherwise or with `--quiet`.
pub struct Bar(Option<ProgressBar>);

impl Bar {
    pub fn new(quiet: bool) -> Bar {
        let shown = !quiet && std::io::stderr().is_terminal();
        Bar(shown.then(|| {
            let bar = ProgressBar::new_spinner();
            bar.enable_steady_tick(std::time::Duration::from_millis(120));
            bar
        }))
    }

    /// `done` of `total` steps, named by `unit` ("lists", "months").
    pub fn steps(&self, done: usize, total: usize, unit: &str) {
        self.position(
            done,
            total,
            &format!("{{msg}} [{{bar:40}}] {{pos}}/{{len}} {unit} {{elapsed}}"),
        );
    }

    /// `done` of `total` steps with the time left, named by `unit`.
    pub fn steps_left(&self, done: usize, total: usize, unit: &str) {
        self.position(
            done,
            total,
            &format!("[{{bar:30}}] {{pos}}/{{len}} {unit} · {{elapsed}} · {{eta}} left · {{msg}}"),
        );
    }

    /// The bar at `done` of `total`, drawn by `template` (set when the total changes).
    fn position(&self, done: usize, total: usize, template: &str) {
        if let Some(bar) = &self.0 {
            if bar.length() != Some(total as u64) {
                bar.set_length(total as u64);
                bar.set_style(
                    ProgressStyle::with_template(template)
                        .expect("a valid template")
                        .progress_chars("=> "),
                );
            }
            bar.set_position(done as u64);
        }
    }

    /// Text beside the bar (the best value so far, say).
    pub fn message(&self, text: &str) {
        if let Some(bar) = &self.0 {
            bar.set_message(text.to_string());
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

impl Progress for Bar {
    fn stage(&self, name: &str) {
        if let Some(bar) = &self.0 {
            if name != "replaying" {
                bar.set_style(
                    ProgressStyle::with_template("{spinner} {msg} {elapsed}")
                        .expect("a valid template"),
                );
            }
            bar.set_message(name.to_string());
        }
    }

    fn reading(&self, done: usize, total: usize, unit: &str) {
        self.steps(done, total, unit);
    }

    fn lists(&self, done: usize, total: usize) {
        self.steps(done, total, "lists");
    }
}
