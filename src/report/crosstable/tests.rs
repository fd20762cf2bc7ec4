//! A hand-computed fixture: every number below was worked out on paper from FIDE's table 8.1.2
//! (PD(100) = .64, PD(150) = .70, PD(200) = .76, PD(400) = .92, PD(50) = .57).

use super::*;

fn fixture() -> GamesWithRatings {
    let m = |y, n| Month::new(y, n).unwrap();
    // (month, white rating, black rating, White's score in half points)
    let games = [
        (m(2010, 1), 1250, 1350, 2), // 1200 beats 1300: E(white) .36
        (m(2010, 2), 1350, 1250, 1), // 1300 draws 1200: E(white) .64
        (m(2010, 2), 1300, 1450, 0), // 1300 loses to 1400: E(white) .30
        (m(2010, 3), 1500, 1300, 2), // 1500+ beats 1300: E(white) .76
        (m(2010, 3), 1900, 1450, 1), // 1500+ draws 1400: D 450 capped to 400, E(white) .92
        (m(2010, 3), 1100, 1250, 2), // below 1200: dropped
        (m(2010, 4), 1260, 1210, 1), // 1200 against itself: the diagonal
        (m(2011, 1), 1250, 1350, 2), // outside the window
    ];
    GamesWithRatings {
        label: "fixture".into(),
        month: games.iter().map(|g| g.0).collect(),
        white_rating: games.iter().map(|g| g.1).collect(),
        black_rating: games.iter().map(|g| g.2).collect(),
        score: games.iter().map(|g| g.3).collect(),
        prior_games: None,
        without_ratings: 3,
        ..GamesWithRatings::default()
    }
}

fn table(expectation: Expectation) -> Crosstable {
    let grouping = Grouping {
        width: 100,
        lowest: 1200,
        top: 1500,
        below: Below::Drop,
    };
    let selection = Selection {
        from: Month::parse("2010-01"),
        to: Month::parse("2010-12"),
        established: None,
    };
    Crosstable::build(&fixture(), grouping, expectation, 2, selection)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn cells_sum_each_games_own_expectation() {
    let t = table(Expectation::Fide);
    let (g1200, g1300, g1400, top) = (1, 2, 3, 4);
    let c = t.cell(g1200, g1300);
    assert_eq!((c.games, c.half_points), (2, 3));
    assert!(close(c.score(), 0.75) && close(c.expected(), 0.36) && close(c.diff(), 39.0));
    let c = t.cell(g1300, g1200);
    assert!(close(c.score(), 0.25) && close(c.expected(), 0.64) && close(c.diff(), -39.0));
    // The 400-point rule: D 450 is looked up as 400.
    let c = t.cell(top, g1400);
    assert!(close(c.expected(), 0.92) && close(c.diff(), -42.0));
    assert!(close(t.cell(g1400, top).diff(), 42.0));
    // Both sides of a game within a group land on the diagonal.
    assert_eq!(t.cell(g1200, g1200).games, 2);
    assert_eq!(
        t.counts,
        Counts {
            used: 6,
            outside_window: 1,
            below_lowest: 1,
            not_established: 0,
            without_ratings: 3
        }
    );
}

#[test]
fn row_totals_leave_out_the_diagonal() {
    let t = table(Expectation::Fide);
    let total = t.row_total(2);
    assert_eq!(total.games, 4);
    assert!(close(total.score(), 0.125) && close(total.expected(), 0.455));
    assert!(close(total.diff(), -33.0));
    assert_eq!(t.row_text(1), "+39.0% in 2 games");
    assert_eq!(t.row_text(2), "-33.0% in 4 games");
    assert_eq!(t.row_text(3), "+36.0% in 2 games");
    assert_eq!(t.row_text(4), "-9.0% in 2 games");
}

#[test]
fn the_interval_uses_the_per_game_deviations() {
    let t = table(Expectation::Fide);
    // Deviations .64 and .14: sample variance .125, standard error .25, margin 1.96 × 25 points.
    assert!(close(t.cell(1, 2).margin(), 49.0));
    assert!(t.cell(2, 3).margin().is_nan());
}

#[test]
fn sonas_layout() {
    let t = table(Expectation::Fide);
    assert_eq!(t.shown, vec![1, 2, 3, 4]);
    assert_eq!(t.cell_text(1, 1), "×");
    assert_eq!(t.cell_text(1, 2), "+39%");
    assert_eq!(t.cell_text(2, 1), "-39%");
    // One game only, under --min-games 2.
    assert_eq!(t.cell_text(2, 3), "=0%");
    assert_eq!(t.cell_text(1, 4), "=0%");
    assert_eq!(signed_percent(-0.4, 0), "-0%");
    assert_eq!(signed_percent(0.4, 0), "+0%");
    assert_eq!(signed_percent(0.0, 0), "0%");
    assert_eq!(signed_percent(-0.0, 1), "0.0%");
    assert_eq!(signed_percent(2.5, 0), "+3%");
    assert_eq!(signed_percent(-2.5, 0), "-3%");
    let text = t.render(Format::Text, "Fixture");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[2],
        "                    opponent      vs.      vs.      vs.    vs."
    );
    assert_eq!(
        lines[3],
        "2010-01 to 2010-12  player    1200-99  1300-99  1400-99  1500+"
    );
    assert_eq!(
        lines[4],
        " +39.0% in 2 games  1200-99         ×     +39%      =0%    =0%"
    );
    assert_eq!(
        lines[5],
        " -33.0% in 4 games  1300-99      -39%        ×      =0%    =0%"
    );
}

#[test]
fn csv_has_one_row_per_cell_and_one_total_per_row() {
    let csv = table(Expectation::Fide).render(Format::Csv, "");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "row_group,col_group,games,score,expected,diff,ci_low,ci_high,few_games"
    );
    assert_eq!(
        lines[1],
        "1200,1300,2,0.750000,0.360000,39.0000,-10.00,88.00,false"
    );
    assert!(lines.contains(&"1500,1400,1,0.500000,0.920000,-42.0000,,,true"));
    assert!(lines.contains(&"1300,all,4,0.125000,0.455000,-33.0000,-54.26,-11.74,false"));
    // 8 off-diagonal cells with games and 4 row totals.
    assert_eq!(lines.len(), 1 + 8 + 4);
}

#[test]
fn logistic_expectations_are_uncapped() {
    let t = table(Expectation::Logistic);
    let e = 1.0 / (1.0 + 10f64.powf(-450.0 / 400.0));
    assert!((t.cell(4, 3).expected() - e).abs() < 1e-9);
}

#[test]
fn below_the_lowest_can_be_one_group() {
    let mut grouping = table(Expectation::Fide).grouping;
    grouping.below = Below::Group;
    let t = Crosstable::build(&fixture(), grouping, Expectation::Fide, 1, Selection::all());
    assert_eq!(t.shown, vec![0, 1, 2, 3, 4]);
    assert_eq!(t.label(0), "<1200");
    assert_eq!(t.cell(0, 1).games, 1);
    assert_eq!(t.counts.below_lowest, 0);
}

#[test]
fn established_players_only() {
    let mut games = fixture();
    games.prior_games = Some((vec![30; 8], vec![30, 30, 5, 30, 30, 30, 30, 30]));
    let selection = Selection {
        established: Some(30),
        ..Selection::all()
    };
    let t = Crosstable::build(
        &games,
        table(Expectation::Fide).grouping,
        Expectation::Fide,
        1,
        selection,
    );
    assert_eq!(t.counts.not_established, 1);
    assert_eq!(t.cell(2, 3).games, 0);
}

#[test]
fn order_of_games_does_not_matter() {
    let a = table(Expectation::Logistic).render(Format::Json, "x");
    let mut games = fixture();
    games.month.reverse();
    games.white_rating.reverse();
    games.black_rating.reverse();
    games.score.reverse();
    let grouping = table(Expectation::Logistic).grouping;
    let b = Crosstable::build(
        &games,
        grouping,
        Expectation::Logistic,
        2,
        table(Expectation::Logistic).selection,
    )
    .render(Format::Json, "x");
    assert_eq!(a, b);
}
