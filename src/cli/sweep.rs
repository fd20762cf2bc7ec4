use std::path::{Path, PathBuf};

use super::progress::Bar;
use super::set_threads;
use crate::numbers::{counted, thousands};
use crate::sweep::{self, Options, Outcome, Overrides, Study, Summaries, Verification};

/// Search regulations: replay a study's candidates on the same seeds and rank them.
///
/// STUDY (TOML) names the scenario to vary (the baseline), the parameters (key paths into it, such
/// as "event[compression 2017-01].factor", with values or ranges), the input (one or more generated
/// worlds with their scale and seeds, or your own games), the measures (truth gap, crosstable flatness,
/// curve gap, predictive, disruption, pool shape) and the design (grid, sobol, latin or optimise);
/// see scenarios/studies/ and docs/sweep.md. Every candidate runs on the same seeds of each world;
/// each figure is reported as its mean over the seeds with a 95 % interval and as the paired
/// difference from the baseline, world by world, with a verdict corrected for the study's many
/// comparisons (Holm) and the practical thresholds of [summary] threshold. Each (world, candidate,
/// seed) row is appended to DIR/results.partial.jsonl as it arrives (renamed results.jsonl when all
/// are in); then DIR gets results.parquet and results.csv (one row per world, candidate and seed),
/// summary.txt, summary.md and summary.json (each world's ranking and Pareto front, and whether the
/// worlds agree), pictures and report.html.
#[derive(clap::Args)]
pub struct Args {
    /// The study file (TOML); with --merge it may be left out (the shards name it)
    #[arg(required_unless_present = "merge")]
    study: Option<PathBuf>,
    /// Output directory [default: the study's `out`, or output/<study name>; a shard's
    /// output/<study name>/shard-I-of-N]
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// The worlds' scale instead of the study's (a quick look before the real run)
    #[arg(long, value_name = "SCALE", allow_negative_numbers = true)]
    scale: Option<f64>,
    /// The worlds' seeds instead of the study's (comma-separated)
    #[arg(long, value_name = "N,N", value_delimiter = ',')]
    seeds: Option<Vec<u64>>,
    /// Evaluate only the I-th of N equal shares of the (world, seed, candidate) triples, for one
    /// machine of many; join the shards' directories with --merge
    #[arg(long, value_name = "I/N", value_parser = shard, conflicts_with = "merge")]
    shard: Option<(u32, u32)>,
    /// Join the shards in these directories into the study's results (the same bytes as one
    /// machine's run)
    #[arg(long, value_name = "DIR", num_args = 1..)]
    merge: Option<Vec<PathBuf>>,
    /// Go on with the interrupted sweep in the output directory, skipping the rows its journal
    /// holds (with no journal yet, start it: a restarted shard may always pass --resume)
    #[arg(long, conflicts_with = "merge")]
    resume: bool,
    /// Replay every candidate from the first list. By default a candidate carries on from the
    /// baseline's replay at the first list its rules can differ on (a snapshot of the baseline's
    /// state there), which gives the same results, byte for byte, in less time; this flag is
    /// for checking that it does
    #[arg(long, conflicts_with = "merge")]
    whole_replays: bool,
    /// Replay the best K candidates over the worlds (default: the study's [verify] top, 3) and the
    /// baseline again on every world at the study's verification scale (default 1) on seeds the
    /// search did not use, and say whether the ranking held
    #[arg(long, value_name = "K", num_args = 0..=1, value_parser = verify_top)]
    verify: Option<Option<usize>>,
    /// The verification's scale instead of the study's [verify] scale (a quick check of the
    /// verification itself)
    #[arg(
        long,
        value_name = "SCALE",
        requires = "verify",
        allow_negative_numbers = true
    )]
    verify_scale: Option<f64>,
    /// The verification's seeds instead of the study's [verify] seeds (comma-separated)
    #[arg(long, value_name = "N,N", value_delimiter = ',', requires = "verify")]
    verify_seeds: Option<Vec<u64>>,
    /// Worker threads, 1 to 256 (or the cores if more) [default: all cores]; results are identical
    /// whatever the number
    #[arg(long, value_name = "N", value_parser = super::thread_count)]
    threads: Option<usize>,
    /// No progress bar
    #[arg(long)]
    quiet: bool,
}

/// How many of the best candidates `--verify` replays: as `[verify] top` takes it.
fn verify_top(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(k) if (1..=1000).contains(&k) => Ok(k),
        _ => Err(format!(
            "expected how many of the best candidates to replay again, a whole number from 1 to 1000, got {text:?}"
        )),
    }
}

/// `I/N` with 1 ≤ I ≤ N.
fn shard(text: &str) -> Result<(u32, u32), String> {
    let parsed = text
        .split_once('/')
        .and_then(|(i, n)| Some((i.trim().parse::<u32>().ok()?, n.trim().parse::<u32>().ok()?)));
    match parsed {
        Some((i, n)) if 1 <= i && i <= n => Ok((i, n)),
        _ => Err(format!(
            "expected I/N with 1 ≤ I ≤ N, such as 3/8 (the third of eight shares), got {text:?}"
        )),
    }
}

impl sweep::Progress for Bar {
    fn stage(&self, text: &str) {
        self.message(text);
    }

    fn rows(&self, done: usize, total: usize, best: &str) {
        self.steps_left(done, total, "replays");
        self.message(best);
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    set_threads(args.threads)?;
    if let Some(dirs) = &args.merge {
        return merge(&args, dirs);
    }
    let file = args.study.clone().unwrap_or_default();
    let overrides = Overrides {
        scale: args.scale,
        seeds: args.seeds.clone(),
        verify_scale: args.verify_scale,
        verify_seeds: args.verify_seeds.clone(),
    };
    let study = Study::load(&file, &overrides)?;
    if args.verify.is_some() {
        sweep::verifiable(&study)?;
    }
    let out = out_dir(&args, &study);
    sweep::check_out(&out, &study)?;
    let bar = Bar::new(args.quiet);
    let outcome = sweep::run(
        &study,
        &Options {
            out: out.clone(),
            shard: args.shard,
            resume: args.resume,
            whole_replays: args.whole_replays,
        },
        &bar,
    )?;
    bar.finish();
    if outcome.cut_short {
        eprintln!("note: the journal's last line had been cut short by the interruption; that row was evaluated again");
    }
    if !outcome.complete {
        let (i, n) = args.shard.unwrap_or((1, 1));
        println!(
            "Shard {i} of {n} of {} ({}): {} ({} resumed) in {:.1} s, in {}",
            study.name,
            file.display(),
            counted(outcome.rows.len() as u64, "row"),
            thousands(outcome.resumed as u64),
            outcome.seconds,
            out.join("results.jsonl").display()
        );
        println!(
            "When every shard is done: elosim sweep {} --merge DIR... (the shards' directories)",
            file.display()
        );
        return Ok(());
    }
    finish(&study, &outcome, &out)?;
    verify_if_asked(&args, &study, &outcome, &out)
}

fn out_dir(args: &Args, study: &Study) -> PathBuf {
    let base = args
        .out
        .clone()
        .or(study.out.clone())
        .unwrap_or_else(|| PathBuf::from("output").join(&study.name));
    match (args.shard, &args.out) {
        (Some(shard), None) => sweep::shard_dir(&base, shard),
        _ => base,
    }
}

/// Writes a finished study's files and prints its summary.
fn finish(study: &Study, outcome: &Outcome, out: &Path) -> anyhow::Result<()> {
    let names = write_outputs(study, outcome, out)?;
    sweep::write_timings(out, outcome.seconds, &outcome.worlds, &outcome.rows)?;
    let replays = outcome.rows.len() - outcome.resumed - outcome.reused;
    println!(
        "\n{} in {:.1} s: {} ({} carried on from the baseline's replay where their rules first differ), {} resumed from the journal, {} taken from the baseline's replay (points that set its own values){}; files in {}/: {}, timings.json",
        counted(outcome.rows.len() as u64, "row"),
        outcome.seconds,
        counted(replays as u64, "replay"),
        thousands(outcome.carried_on as u64),
        thousands(outcome.resumed as u64),
        thousands(outcome.reused as u64),
        if outcome.repeated > 0 {
            format!(
                "; {} drawn points repeated another after rounding and were dropped",
                outcome.repeated
            )
        } else {
            String::new()
        },
        out.display(),
        names.join(", ")
    );
    Ok(())
}

/// Writes a finished study's files and prints its summary; the names of the files.
fn write_outputs(study: &Study, outcome: &Outcome, out: &Path) -> anyhow::Result<Vec<String>> {
    let summary = Summaries::new(study, &outcome.candidates, &outcome.rows);
    let written = sweep::write_study(out, &summary, &outcome.rows)?;
    print!("{}", summary.text());
    Ok(written
        .iter()
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect())
}

/// The study the journals in `dirs` belong to: `file`, or the one their header names, with the
/// scale and seeds they ran.
fn study_of(dirs: &[PathBuf], file: Option<&Path>) -> anyhow::Result<Study> {
    let header = sweep::first_header(dirs)?;
    let file = file.map_or_else(|| PathBuf::from(&header.file), Path::to_path_buf);
    if !file.is_file() {
        anyhow::bail!(
            "the journals name the study {}, which is not here: give the study file (elosim sweep STUDY --merge DIR...)",
            file.display()
        );
    }
    // A world's scale and seeds as the journals ran them; one history of real games has neither.
    // The verification's, as its journal ran it, where there is one.
    let verified = dirs.first().and_then(|dir| sweep::verify_header(dir));
    let overrides = Overrides {
        scale: header.scale,
        seeds: header.scale.map(|_| header.seeds),
        verify_scale: verified.as_ref().and_then(|h| h.scale),
        verify_seeds: verified.map(|h| h.seeds),
    };
    Ok(Study::load(&file, &overrides)?)
}

/// `elosim report DIR` on a finished study's directory: its report.html written again.
pub fn report(dir: &Path, out: Option<&Path>) -> anyhow::Result<PathBuf> {
    if !dir.join("results.jsonl").is_file() {
        if dir.join("results.partial.jsonl").is_file() {
            anyhow::bail!(
                "{} holds a study still running or interrupted (results.partial.jsonl): finish it with `elosim sweep STUDY --out {} --resume`, then report on it",
                dir.display(),
                dir.display()
            );
        }
        anyhow::bail!(
            "{} holds a study's files but not its journal (results.jsonl), which the report is made from: run the study again into it",
            dir.display()
        );
    }
    let dirs = [dir.to_path_buf()];
    let header = sweep::first_header(&dirs)?;
    if header.shard.1 > 1 {
        anyhow::bail!(
            "{} is shard {} of {} of the study {:?}: join the shards first (`elosim sweep {} --merge DIR...` with every shard's directory) and report on the merged directory",
            dir.display(),
            header.shard.0,
            header.shard.1,
            header.study,
            header.file
        );
    }
    let study = study_of(&dirs, None)?;
    let merged = sweep::merge(&study, &dirs)?;
    let search = Summaries::new(&study, &merged.candidates, &merged.rows);
    let verified = sweep::verified(&study, dir, &merged.candidates);
    let verified_summary = verified
        .as_ref()
        .map(|v| Summaries::new(&study, &v.candidates, &v.rows));
    let report = verified_summary
        .as_ref()
        .map(|v| Verification::new(&search, v));
    let page = sweep::page(&search, report.as_ref());
    let path = out.map_or_else(|| dir.join("report.html"), Path::to_path_buf);
    crate::output::write_file(&path, page.as_bytes())?;
    Ok(path)
}

fn merge(args: &Args, dirs: &[PathBuf]) -> anyhow::Result<()> {
    if args.scale.is_some() || args.seeds.is_some() {
        anyhow::bail!(
            "--merge takes the scale and seeds the shards ran with: leave out --scale and --seeds"
        );
    }
    let study = study_of(dirs, args.study.as_deref())?;
    let merged = sweep::merge(&study, dirs)?;
    let out = args
        .out
        .clone()
        .or(study.out.clone())
        .unwrap_or_else(|| PathBuf::from("output").join(&study.name));
    sweep::check_out(&out, &study)?;
    std::fs::create_dir_all(&out)?;
    sweep::write_journal(&out, &sweep::search_header(&study), &merged)?;
    let outcome = Outcome {
        candidates: merged.candidates,
        rows: merged.rows,
        worlds: merged.worlds,
        resumed: 0,
        reused: 0,
        carried_on: 0,
        repeated: 0,
        complete: true,
        cut_short: false,
        seconds: 0.0,
    };
    let names = write_outputs(&study, &outcome, &out)?;
    // The shards' times are in their own directories; one machine's earlier timings here would
    // describe another run.
    let stale = out.join("timings.json");
    if stale.exists() {
        std::fs::remove_file(&stale)?;
    }
    println!(
        "\nMerged {} of {}; files in {}/: results.jsonl, {}",
        counted(outcome.rows.len() as u64, "row"),
        counted(dirs.len() as u64, "shard"),
        out.display(),
        names.join(", ")
    );
    verify_if_asked(args, &study, &outcome, &out)
}

/// With `--verify`, the best candidates replayed again (`verify`).
fn verify_if_asked(
    args: &Args,
    study: &Study,
    outcome: &Outcome,
    out: &Path,
) -> anyhow::Result<()> {
    match args.verify {
        Some(k) => verify(
            study,
            outcome,
            &Options {
                out: out.to_path_buf(),
                shard: None,
                resume: args.resume,
                whole_replays: args.whole_replays,
            },
            k.unwrap_or(study.verify.top),
            args.quiet,
        ),
        None => Ok(()),
    }
}

/// Replays the best `k` candidates and the baseline at the verification scale on new seeds.
fn verify(
    study: &Study,
    outcome: &Outcome,
    options: &Options,
    k: usize,
    quiet: bool,
) -> anyhow::Result<()> {
    let out = options.out.as_path();
    let search = Summaries::new(study, &outcome.candidates, &outcome.rows);
    let bar = Bar::new(quiet);
    let verified = sweep::verify(study, search.best(k), options, &bar)?;
    bar.finish();
    let summary = Summaries::new(study, &verified.candidates, &verified.rows);
    let report = Verification::new(&search, &summary);
    sweep::write_report(out, &search, Some(&report))?;
    for (name, text) in [
        ("verify.txt", report.text()),
        ("verify.md", report.markdown()),
        ("verify.json", report.json()),
    ] {
        crate::output::write_file(&out.join(name), text.as_bytes())?;
    }
    print!("\n{}", report.text());
    println!(
        "{} replays in {:.1} s; files in {}/: verify.txt, verify.md, verify.json, verify.jsonl, report.html (with the verification)",
        verified.rows.len() - verified.resumed - verified.reused,
        verified.seconds,
        out.display()
    );
    Ok(())
}
