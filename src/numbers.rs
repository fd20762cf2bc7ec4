//! Numbers written for people, shared by the reports, the plots and the command line.

/// Thousands separated by commas: 6865 → "6,865".
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// "first", "second", "third", then "4th", "5th"…: the place of a value in a list given.
pub fn ordinal(n: usize) -> String {
    match n {
        1 => "first".into(),
        2 => "second".into(),
        3 => "third".into(),
        n => format!("{n}th"),
    }
}

/// A count with its noun, in the number the count takes: (1, "row") → "1 row", (1368, "game") →
/// "1,368 games". For nouns whose plural adds an s.
pub fn counted(n: u64, noun: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{} {noun}{s}", thousands(n))
}

/// `value` rounded to `decimals` decimals, for figures written to JSON.
pub fn round_to(value: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    (value * scale).round() / scale
}

/// `value` to `decimals` places with its sign always written (`+0.012`, `-0.004`), rounded half
/// away from zero; exactly zero has no sign (`0.000`), so that "no difference" reads apart from a
/// small one.
pub fn signed(value: f64, decimals: usize) -> String {
    if value == 0.0 {
        return format!("{:.decimals$}", 0.0);
    }
    let scale = 10f64.powi(decimals as i32);
    let rounded = (value.abs() * scale).round() / scale;
    let sign = if value < 0.0 { '-' } else { '+' };
    format!("{sign}{rounded:.decimals$}")
}

/// `value` to `decimals` places, without the minus sign of a value that rounds to zero ("0.00",
/// not "-0.00", for -0.0001).
pub fn fixed(value: f64, decimals: usize) -> String {
    let text = format!("{value:.decimals$}");
    match text.strip_prefix('-') {
        Some(magnitude) if magnitude.bytes().all(|b| b == b'0' || b == b'.') => {
            magnitude.to_string()
        }
        _ => text,
    }
}

/// Hundredths as a decimal of two places, exactly: 49 → "0.49", -640 → "-6.40".
pub fn hundredths(value: i64) -> String {
    let sign = if value < 0 { "-" } else { "" };
    let magnitude = value.unsigned_abs();
    format!("{sign}{}.{:02}", magnitude / 100, magnitude % 100)
}

/// [`hundredths`] with its sign always written: 40 → "+0.40", 0 → "+0.00".
pub fn signed_hundredths(value: i64) -> String {
    let sign = if value >= 0 { "+" } else { "" };
    format!("{sign}{}", hundredths(value))
}

#[cfg(test)]
mod tests {
    use super::{counted, hundredths, signed_hundredths, thousands};

    #[test]
    fn a_value_that_rounds_to_zero_has_no_minus_sign() {
        assert_eq!(super::fixed(-0.0001, 2), "0.00");
        assert_eq!(super::fixed(-0.0, 0), "0");
        assert_eq!(super::fixed(-0.006, 2), "-0.01");
        assert_eq!(super::fixed(237.64, 1), "237.6");
    }

    #[test]
    fn hundredths_are_written_exactly() {
        assert_eq!(hundredths(49), "0.49");
        assert_eq!(hundredths(100), "1.00");
        assert_eq!(hundredths(-640), "-6.40");
        assert_eq!(hundredths(-5), "-0.05");
        assert_eq!(signed_hundredths(40), "+0.40");
        assert_eq!(signed_hundredths(0), "+0.00");
        assert_eq!(signed_hundredths(-1000), "-10.00");
        // Exactly what the reports wrote from floats, "{:+.2}", wherever the float was exact.
        for h in -2000..2000 {
            assert_eq!(signed_hundredths(h), format!("{:+.2}", h as f64 / 100.0));
        }
    }

    #[test]
    fn counts_take_their_nouns_number() {
        assert_eq!(counted(0, "run"), "0 runs");
        assert_eq!(counted(1, "run"), "1 run");
        assert_eq!(counted(1368, "game"), "1,368 games");
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(6865), "6,865");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
