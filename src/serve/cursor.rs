//! The `start`/`next` cursor of `serve`, and the keyed MAC behind it and behind the token check.
//!
//! A cursor is `c1:OFFSET:STARTED~MAC=`: the position of the next page in the query's matching
//! events, the unix second of the query's first page, and an HMAC-SHA256 (base64url, padded) of
//! both together with the query's canonical key. The server keeps no state per cursor: it
//! recomputes the MAC with the key of the request the cursor arrives with, so a cursor is valid
//! only for the filters that produced it. The MAC key is drawn at start-up, so every cursor dies
//! with the process that issued it, which may have served different data.

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, crypto};

/// A cursor expires this long after the first page of its query, as the service's do.
pub const CURSOR_LIFETIME_SECS: u64 = 24 * 60 * 60;

const PREFIX: &str = "c1:";

/// HMAC-SHA256 under a secret key.
pub struct Mac {
    sign: EncodingKey,
    verify: DecodingKey,
}

impl Mac {
    pub fn new(secret: &[u8]) -> Mac {
        Mac {
            sign: EncodingKey::from_secret(secret),
            verify: DecodingKey::from_secret(secret),
        }
    }

    /// A MAC with a fresh key from the operating system's randomness.
    pub fn random() -> Mac {
        let secret: [u8; 32] = rand::random();
        Mac::new(&secret)
    }

    /// The tag of a message, base64url without padding.
    pub fn tag(&self, message: &[u8]) -> String {
        // HMAC accepts any key length and any message: signing cannot fail.
        crypto::sign(message, &self.sign, Algorithm::HS256).unwrap_or_default()
    }

    /// Whether `tag` is the message's tag; the comparison takes the same time wherever the first
    /// difference is.
    pub fn check(&self, tag: &str, message: &[u8]) -> bool {
        !tag.is_empty()
            && crypto::verify(tag, message, &self.verify, Algorithm::HS256).unwrap_or(false)
    }
}

/// Where a cursor points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// Index of the first event of the page in the query's matching events.
    pub offset: usize,
    /// Unix second of the query's first page; carried from page to page so that a cursor's
    /// lifetime counts from the first query and a reused cursor gives the same `next`.
    pub started: u64,
}

fn signed_text(query: &str, pos: Position) -> Vec<u8> {
    format!("{PREFIX}{}:{}\n{query}", pos.offset, pos.started).into_bytes()
}

pub fn encode(mac: &Mac, query: &str, pos: Position) -> String {
    let tag = mac.tag(&signed_text(query, pos));
    format!("{PREFIX}{}:{}~{tag}=", pos.offset, pos.started)
}

/// Reads a cursor sent back with the query `query` at unix second `now`. `None` when it was not
/// issued by this process for this query, or has expired.
pub fn decode(mac: &Mac, query: &str, cursor: &str, now: u64) -> Option<Position> {
    let rest = cursor.strip_prefix(PREFIX)?;
    let (position, tag) = rest.split_once('~')?;
    let tag = tag.strip_suffix('=')?;
    let (offset, started) = position.split_once(':')?;
    let pos = Position {
        offset: canonical_number(offset)?,
        started: canonical_number(started)?,
    };
    if !mac.check(tag, &signed_text(query, pos)) {
        return None;
    }
    if now.saturating_sub(pos.started) > CURSOR_LIFETIME_SECS {
        return None;
    }
    Some(pos)
}

/// A decimal number written the one way `encode` writes it, so that a cursor has one spelling.
fn canonical_number<T: std::str::FromStr + ToString>(text: &str) -> Option<T> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: T = text.parse().ok()?;
    (n.to_string() == text).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    const QUERY: &str = r#"[["client.join.failed"],"room",null,null,null]"#;
    const NOW: u64 = 1_800_000_000;

    fn pos(offset: usize) -> Position {
        Position {
            offset,
            started: NOW,
        }
    }

    #[test]
    fn a_cursor_reads_back_for_its_own_query() {
        let mac = Mac::new(b"key");
        let c = encode(&mac, QUERY, pos(70));
        assert!(
            c.starts_with("c1:70:1800000000~") && c.ends_with('='),
            "{c}"
        );
        assert_eq!(decode(&mac, QUERY, &c, NOW + 5), Some(pos(70)));
        assert_eq!(
            encode(&mac, QUERY, pos(70)),
            c,
            "one position, one spelling"
        );
    }

    #[test]
    fn another_query_or_another_key_rejects_it() {
        let mac = Mac::new(b"key");
        let c = encode(&mac, QUERY, pos(7));
        let other = r#"[["client.join.failed"],"room2",null,null,null]"#;
        assert_eq!(decode(&mac, other, &c, NOW), None);
        assert_eq!(decode(&Mac::new(b"other key"), QUERY, &c, NOW), None);
    }

    #[test]
    fn an_edited_or_garbled_cursor_is_rejected() {
        let mac = Mac::new(b"key");
        let c = encode(&mac, QUERY, pos(7));
        let tampered = c.replacen("c1:7:", "c1:14:", 1);
        assert_eq!(decode(&mac, QUERY, &tampered, NOW), None);
        let padded = c.replacen("c1:7:", "c1:07:", 1);
        assert_eq!(decode(&mac, QUERY, &padded, NOW), None);
        for bad in [
            "",
            "c1:",
            "c1:7:1~",
            "c1:7:1~=",
            "c1:x:1~AAAA=",
            "garbage",
            &c[..c.len() - 1],
        ] {
            assert_eq!(decode(&mac, QUERY, bad, NOW), None, "{bad:?}");
        }
        let mut flipped = c.clone().into_bytes();
        let i = flipped.len() - 5;
        flipped[i] = if flipped[i] == b'A' { b'B' } else { b'A' };
        let flipped = String::from_utf8(flipped).unwrap();
        assert_eq!(decode(&mac, QUERY, &flipped, NOW), None);
    }

    #[test]
    fn a_cursor_expires_a_day_after_the_first_query() {
        let mac = Mac::new(b"key");
        let c = encode(&mac, QUERY, pos(7));
        assert!(decode(&mac, QUERY, &c, NOW + CURSOR_LIFETIME_SECS).is_some());
        assert_eq!(
            decode(&mac, QUERY, &c, NOW + CURSOR_LIFETIME_SECS + 1),
            None
        );
    }

    #[test]
    fn tags_check_only_their_message() {
        let mac = Mac::new(b"key");
        let tag = mac.tag(b"secret token");
        assert!(mac.check(&tag, b"secret token"));
        assert!(!mac.check(&tag, b"secret tokem"));
        assert!(!mac.check(&tag, b""));
        assert!(!mac.check("", b"secret token"));
        assert!(!mac.check("not base64!", b"secret token"));
    }
}
