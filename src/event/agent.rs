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

/// The agent string's `env`, as [`agent_value`] finds it among the pairs
/// [`decode_agent_string`] makes, without making them: its value runs from its `:` up to the
/// `,` before the next piece that starts a pair. The searcher for the key is built once, not
/// once per string: a store decodes each distinct agent string.
pub fn agent_string_env(s: &str) -> Option<&str> {
    static ENV: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"env"));
    value_of_key(s, "env", &ENV)
}

/// [`agent_string_env`] for any key (not empty): the tests read other keys, which the reading
/// of `env` must get right too.
#[cfg(test)]
pub fn agent_string_value<'a>(s: &'a str, key: &str) -> Option<&'a str> {
    value_of_key(s, key, &memchr::memmem::Finder::new(key.as_bytes()))
}

/// The value of `key` (not empty) in the agent string `s`, `finder` finding `key`, as
/// [`agent_value`] finds it among the pairs [`decode_agent_string`] makes: a value runs from its
/// `:` up to the `,` before the next piece that starts a pair, since the pieces in between are
/// glued back with the `,` they were split at.
fn value_of_key<'a>(s: &'a str, key: &str, finder: &memchr::memmem::Finder) -> Option<&'a str> {
    debug_assert_eq!(
        finder.needle(),
        key.as_bytes(),
        "a searcher for another key"
    );
    let b = s.as_bytes();
    let (value_at, mut end) = first_piece_with_key(s, key, finder)?;
    while end < b.len() {
        let start = end + 1;
        end = memchr::memchr(b',', &b[start..]).map_or(b.len(), |i| start + i);
        // `,` and `:` are ASCII: both ends are character boundaries.
        if let Some(colon) = memchr::memchr(b':', &b[start..end])
            && is_key(&s[start..start + colon])
        {
            return Some(&s[value_at..start - 1]);
        }
    }
    Some(&s[value_at..])
}

/// Where the value of the first piece of `s` whose key is `key` starts, and where that piece
/// ends. Such a piece holds the first `key` written in it, so only the pieces where `key` is
/// written are looked at (`env` stands near the end of a long string).
fn first_piece_with_key(
    s: &str,
    key: &str,
    finder: &memchr::memmem::Finder,
) -> Option<(usize, usize)> {
    if key.is_empty() {
        return None;
    }
    let b = s.as_bytes();
    let mut from = 0;
    loop {
        let at = from + finder.find(&b[from..])?;
        let start = memchr::memrchr(b',', &b[..at]).map_or(0, |i| i + 1);
        let end = memchr::memchr(b',', &b[at..]).map_or(b.len(), |i| at + i);
        if let Some(colon) = memchr::memchr(b':', &b[start..end])
            && is_the_key(&s[start..start + colon], key)
        {
            return Some((start + colon + 1, end));
        }
        // Nowhere else in this piece can its key be.
        from = end.max(at + 1);
    }
}
