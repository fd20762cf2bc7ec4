//! Pictures and the files the report commands write: a `--plot` that cannot be written is refused
//! before any work, every written file is confirmed, and differences are B − A everywhere.

use std::path::Path;

use super::common::*;

#[test]
fn a_plot_that_cannot_be_written_is_refused_before_any_work() {
    let dir = scratch("plot-paths");
    let rated = fixture("rated-games.csv");
    let missing = dir.join("nodir").join("c.png");
    let missing = missing.to_str().unwrap();
    let out = dir.join("t.txt");
    let out = out.to_str().unwrap();
    let list = fixture("list-a.csv");
    let commands: [&[&str]; 6] = [
        &["crosstable", &rated, "--out", out, "--plot", missing],
        &["curve", &rated, "--out", out, "--plot", missing],
        &["histogram", &list, "--out", out, "--plot", missing],
        &["compare", &list, &list, "--out", out, "--plot", missing],
        &[
            "compare",
            &list,
            &list,
            "--out",
            out,
            "--plot-distribution",
            missing,
        ],
        &[
            "score",
            dir.to_str().unwrap(),
            "--out",
            out,
            "--plot",
            missing,
        ],
    ];
    for args in commands {
        let result = elosim(args);
        let stderr = text(&result.stderr);
        assert!(!result.status.success(), "{args:?} succeeded");
        assert!(
            stderr.contains(&format!(
                "cannot write {missing}: directory {} does not exist",
                dir.join("nodir").display()
            )),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("backend"), "{args:?}: {stderr}");
        assert!(!Path::new(out).exists(), "{args:?} wrote {out}");
    }
    // An unknown picture format is refused before the table is written, too.
    let result = elosim(&["crosstable", &rated, "--out", out, "--plot", "x.jpg"]);
    assert!(text(&result.stderr).contains("x.jpg: cannot tell the picture format"));
    assert!(!Path::new(out).exists());
}

#[test]
fn every_written_file_is_confirmed() {
    let dir = scratch("confirmed");
    let run = replayed_fixture(&dir);
    let run = run.as_str();
    let [list_csv, list_parquet, curve_txt, curve_svg] =
        ["list.csv", "list.parquet", "curve.txt", "curve.svg"]
            .map(|name| dir.join(name).display().to_string());
    let cases = [
        (
            vec!["list", run, "--csv", "--out", &list_csv],
            format!("wrote {list_csv}: the 2019-04 list of"),
        ),
        (
            vec!["list", run, "--parquet", &list_parquet],
            format!("wrote {list_parquet}: the 2019-04 list of"),
        ),
        (
            vec!["curve", run, "--out", &curve_txt],
            format!("wrote {curve_txt}"),
        ),
        (
            vec!["curve", run, "--plot", &curve_svg],
            format!("wrote {curve_svg}"),
        ),
    ];
    for (args, expected) in cases {
        let result = elosim(&args);
        let stderr = text(&result.stderr);
        assert!(result.status.success(), "{args:?}: {stderr}");
        assert!(stderr.contains(&expected), "{args:?}: {stderr}");
    }
}

/// Two hand-made games files: under A, 1200s beat 1300s (+64 points, .36 expected); under B they
/// draw (+14). B − A is −50 for the 1200s, +50 for the 1300s, as `compare` subtracts.
#[test]
fn crosstable_differences_are_b_minus_a_and_zero_has_no_sign() {
    let dir = scratch("difference-sign");
    let header = "period,white,black,score,white_rating,black_rating";
    let a = write_csv(
        &dir,
        "a.csv",
        header,
        ["2010-01,x,y,1,1250,1350".to_string()],
    );
    let b = write_csv(
        &dir,
        "b.csv",
        header,
        ["2010-01,x,y,0.5,1250,1350".to_string()],
    );
    let grouping = ["--lowest", "1200", "--top", "1300", "--min-games", "1"];
    let mut args = vec!["crosstable", a.as_str(), "--vs", b.as_str()];
    args.extend(grouping);
    let table = succeeds(&args);
    let difference = &table[table.find("Difference").expect("a difference table")..];
    assert!(
        difference.starts_with("Difference: the second table minus the first (B − A)"),
        "{difference}"
    );
    let row = |group: &str| {
        difference
            .lines()
            .find(|l| l.contains(group) && l.contains("in total"))
            .unwrap_or_else(|| panic!("no row {group} in {difference}"))
            .split_whitespace()
            .collect::<Vec<_>>()
    };
    assert_eq!(
        row("1200-99"),
        ["-50.0%", "in", "total", "1200-99", "×", "-50%"]
    );
    assert_eq!(
        row("1300+"),
        ["+50.0%", "in", "total", "1300+", "+50%", "×"]
    );
    let mut args = vec!["crosstable", a.as_str(), "--vs", a.as_str()];
    args.extend(grouping);
    let same = succeeds(&args);
    let same = &same[same.find("Difference").unwrap()..];
    assert!(
        same.contains("0.0% in total") && same.contains(" 0% "),
        "{same}"
    );
    assert!(!same.contains("+0"), "{same}");
}

#[test]
fn the_reports_difference_tables_say_b_minus_a() {
    let dir = scratch("report-difference");
    let run = replayed_fixture(&dir);
    let run = run.as_str();
    let html = dir.join("report.html");
    let result = elosim(&[
        "report",
        run,
        "--vs",
        run,
        "--min-games",
        "1",
        "--out",
        html.to_str().unwrap(),
    ]);
    assert!(text(&result.stderr).contains(&format!("wrote {}", html.display())));
    let html = std::fs::read_to_string(&html).unwrap();
    assert!(html.contains("<caption>A: "), "run A not labelled");
    assert!(
        html.contains("<caption>B − A: "),
        "the difference not labelled"
    );
    let difference = &html[html.find("<caption>B − A: ").unwrap()..];
    let difference = &difference[..difference.find("</table>").unwrap()];
    assert!(difference.contains(">0%</td>"), "{difference}");
    assert!(!difference.contains("+0%"), "{difference}");
}
