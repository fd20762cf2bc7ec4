//! A dozen players on two lists, every statistic worked out by hand: differences B − A of
//! 0, +5, −10, +25, −20, +40, 0, +10, −1, 0 (sum 49, squares 2851, absolute 111).

use super::*;
use serde_json::json;

fn list(label: &str, players: &[(&str, i32, bool)]) -> List {
    List {
        label: label.into(),
        month: None,
        ids: players.iter().map(|p| p.0.to_string()).collect(),
        ratings: players.iter().map(|p| p.1).collect(),
        inactive: players.iter().map(|p| p.2).collect(),
        run: None,
        left: Vec::new(),
    }
}

fn pair() -> (List, List) {
    let a = list(
        "A",
        &[
            ("1", 2000, false),
            ("2", 2100, false),
            ("3", 2200, false),
            ("4", 1800, false),
            ("5", 1900, false),
            ("6", 2500, false),
            ("7", 1500, false),
            ("8", 1600, false),
            ("9", 2000, false),
            ("10", 2300, false),
            ("11", 1700, false),
            ("12", 1750, true),
        ],
    );
    let b = list(
        "B",
        &[
            ("13", 1400, false),
            ("1", 2000, false),
            ("2", 2105, false),
            ("3", 2190, false),
            ("4", 1825, false),
            ("5", 1880, false),
            ("6", 2540, false),
            ("7", 1500, false),
            ("8", 1610, false),
            ("9", 1999, false),
            ("10", 2300, false),
        ],
    );
    (a, b)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn overall_statistics_are_the_hand_computed_ones() {
    let (a, b) = pair();
    let c = Comparison::of(&a, &b, 3).unwrap();
    let s = &c.overall;
    assert_eq!(s.both, 10);
    assert!(close(s.mean_diff, 4.9));
    assert!(close(s.median_diff, 0.0));
    assert!(close(s.rmse, 285.1f64.sqrt()));
    assert!(close(s.mae, 11.1));
    assert_eq!(s.within, [0.3, 0.5, 0.7, 0.9]);
    // Ranks (ties averaged) differ only for players 1 and 9: ρ = 82 / √(82 × 82.5).
    assert!(close(s.spearman, 82.0 / (82.0f64 * 82.5).sqrt()));
}

#[test]
fn bands_follow_bs_rating() {
    let (a, b) = pair();
    let c = Comparison::of(&a, &b, 3).unwrap();
    let bands: Vec<(i32, usize, f64)> = c
        .bands
        .iter()
        .map(|(k, s)| (*k, s.both, s.mean_diff))
        .collect();
    assert_eq!(
        bands,
        vec![
            (1500, 1, 0.0),
            (1600, 1, 10.0),
            (1800, 2, 2.5),
            (1900, 1, -1.0),
            (2000, 1, 0.0),
            (2100, 2, -2.5),
            (2300, 1, 0.0),
            (2500, 1, 40.0)
        ]
    );
}

#[test]
fn players_on_one_list_only_are_counted_with_a_reason() {
    let (a, b) = pair();
    let c = Comparison::of(&a, &b, 3).unwrap();
    assert_eq!(
        c.only_a,
        BTreeMap::from([(Absence::InactiveOnTheOther, 1), (Absence::Absent, 1)])
    );
    assert_eq!(c.only_b, BTreeMap::from([(Absence::Absent, 1)]));
    assert_eq!(
        c.largest,
        vec![
            ("6".into(), 2500, 2540),
            ("4".into(), 1800, 1825),
            ("5".into(), 1900, 1880)
        ]
    );
    let json = serde_json::to_value(c.json()).unwrap();
    assert_eq!(
        (
            json["both"].clone(),
            json["only_a"].clone(),
            json["only_b"].clone()
        ),
        (json!(10), json!(2), json!(1))
    );
    assert_eq!(json["median_diff"], json!(0.0));
    assert_eq!(json["bands"][2]["band"], json!(1800));
}

#[test]
fn lists_without_common_players_are_an_error() {
    let a = list("A", &[("1", 2000, false)]);
    let b = list("B", &[("2", 2000, false)]);
    let e = Comparison::of(&a, &b, 3).unwrap_err().to_string();
    assert!(e.contains("no player in common"), "{e}");
}
