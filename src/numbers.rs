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

#[cfg(test)]
mod tests {
    use super::{counted, thousands};

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
