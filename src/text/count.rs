//! Counts in words: `1 chain`, `2 chains`, `12,345 events`.

/// `n` with its thousands separated by commas: 12345 as `12,345`.
pub fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n` and the noun that agrees with it: `1 chain`, `0 chains`, `2,400 events`.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_takes_the_singular_and_every_other_count_the_plural() {
        assert_eq!(plural(1, "chain", "chains"), "1 chain");
        assert_eq!(plural(0, "chain", "chains"), "0 chains");
        assert_eq!(plural(2, "duplicate", "duplicates"), "2 duplicates");
        assert_eq!(plural(12345, "event", "events"), "12,345 events");
    }

    #[test]
    fn thousands_are_separated_by_commas() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
