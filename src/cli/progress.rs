use std::io::IsTerminal;
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};

use crate::pipeline::Progress;
use crate::replay::Step;

/// A progress bar on stderr when it is a terminal; nothing otherwise or with `--quiet`. It keeps
/// the template it draws with, so that steps of another unit ("partitions", then "lists") redraw
/// it even when their totals are equal.
pub struct Bar(Option<ProgressBar>, Mutex<String>);

impl Bar {
    pub fn new(quiet: bool) -> Bar {
        let shown = !quiet && std::io::stderr().is_terminal();
        let bar = shown.then(|| {
            let bar = ProgressBar::new_spinner();
            bar.enable_steady_tick(std::time::Duration::from_millis(120));
            bar
        });
        Bar(bar, Mutex::new(String::new()))
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

    /// The bar at `done` of `total`, drawn by `template` (set when the total or the template
    /// changes).
    fn position(&self, done: usize, total: usize, template: &str) {
        if let Some(bar) = &self.0 {
            let mut drawn = self.1.lock().unwrap_or_else(|e| e.into_inner());
            if bar.length() != Some(total as u64) || *drawn != template {
                bar.set_length(total as u64);
                bar.set_style(
                    ProgressStyle::with_template(template)
                        .expect("a valid template")
                        .progress_chars("=> "),
                );
                template.clone_into(&mut drawn);
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
            // A spinner until the stage's first step draws its bar.
            let template = "{spinner} {msg} {elapsed}";
            bar.set_style(ProgressStyle::with_template(template).expect("a valid template"));
            template.clone_into(&mut self.1.lock().unwrap_or_else(|e| e.into_inner()));
            bar.set_message(name.to_string());
        }
    }

    fn reading(&self, done: usize, total: usize, unit: &str) {
        self.steps(done, total, unit);
    }

    fn step(&self, step: Step) {
        match step {
            Step::Lists { done, total } => {
                self.steps(done, total, "lists");
                self.message("replaying");
            }
            Step::Piece {
                list,
                pass,
                piece,
                pieces,
            } => self.message(&format!(
                "replaying the list of {list}: {pass} piece {} of {pieces}",
                piece + 1
            )),
        }
    }
}
