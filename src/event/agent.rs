/// One `key:value` pair of the agent's `string`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentPair {
    pub key: String,
    pub value: String,
}

/// Decodes the agent's `string`: comma-separated `key:value` pairs (spec 2.5), e.g.
/// `sdk:web,sdk_version:0.12.3,device_model:Chrome 130,...,env:prod`.
///
/// Values may themselves hold `:` (a URL, a time) and, in the wild, `,` (a device model such as
/// `Chrome 130, Mobile`): a piece without `:` is therefore glued back onto the previous value
/// instead of being dropped. A piece before any pair that lacks `:` is kept with an empty key.
pub fn decode_agent_string(s: &str) -> Vec<AgentPair> {
    let mut pairs: Vec<AgentPair> = Vec::new();
    for piece in s.split(',') {
        match piece.split_once(':') {
            Some((key, value)) if is_key(key) => pairs.push(AgentPair {
                key: key.trim().to_string(),
                value: value.to_string(),
            }),
            _ => match pairs.last_mut() {
                Some(last) => {
                    last.value.push(',');
                    last.value.push_str(piece);
                }
                None if piece.trim().is_empty() => {}
                None => pairs.push(AgentPair {
                    key: String::new(),
                    value: piece.to_string(),
                }),
            },
        }
    }
    pairs
}

/// A key is a short identifier (`sdk_version`, `env`); anything else before a `:` belongs to a
/// value that holds a comma.
fn is_key(key: &str) -> bool {
    let key = key.trim();
    !key.is_empty()
        && key
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-' || c == b'.')
}

/// Whether `k`, trimmed, is the key `key` (an identifier).
fn is_the_key(k: &str, key: &str) -> bool {
    // Most pieces' keys are bare, and another key than the one looked for: told at once, with
    // no trimming of Unicode spaces.
    match (k.as_bytes().first(), k.as_bytes().last()) {
        (Some(a), Some(z)) if a.is_ascii_alphanumeric() && z.is_ascii_alphanumeric() => {
            k == key && is_key(k)
        }
        _ => k.trim() == key && is_key(k),
    }
}

/// The value of one key of a decoded agent string.
pub fn agent_value<'a>(pairs: &'a [AgentPair], key: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|p| p.key == key)
        .map(|p| p.value.as_str())
}

/// The value of `key` (not empty) in an agent string, as [`agent_value`] finds it among the
/// pairs [`decode_agent_string`] makes, without making them: a value runs from its `:` up to the
/// `,` before the next piece that starts a pair, since the pieces in between are glued back
/// with the `,` they were split at.
pub fn agent_string_value<'a>(s: &'a str, key: &str) -> Option<&'a str> {
    let b = s.as_bytes();
    let mut value_at = None;
    let mut start = 0;
    loop {
        let end = memchr::memchr(b',', &b[start..]).map_or(b.len(), |i| start + i);
        if let Some(colon) = memchr::memchr(b':', &b[start..end]) {
            // `,` and `:` are ASCII: both ends are character boundaries.
            let k = &s[start..start + colon];
            // Whether a piece starts a pair matters only once the value is found (it ends the
            // value) and for the key looked for itself.
            match value_at {
                Some(v) if is_key(k) => return Some(&s[v..start - 1]),
                None if is_the_key(k, key) => value_at = Some(start + colon + 1),
                _ => {}
            }
        }
        if end == b.len() {
            return value_at.map(|v| &s[v..]);
        }
        start = end + 1;
    }
}
