//! Skipping JSON values by their structure alone: strings to their closing quote, objects and
//! arrays to their closing bracket.

pub(super) fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// One past the closing quote of the string opening at `start`.
pub(super) fn string_end(b: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    loop {
        let off = memchr::memchr2(b'"', b'\\', b.get(i..)?)?;
        if b[i + off] == b'\\' {
            i += off + 2;
        } else {
            return Some(i + off + 1);
        }
    }
}

/// Where a walk through an object or array stands: how deep, and whether inside a string.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Walk {
    depth: usize,
    in_string: bool,
}

/// One past the end of the object or array that opens at `start`, `None` when the line ends
/// first. Brackets within strings do not count, nor does the character after a backslash.
/// Sixteen bytes at a time, and without a branch per string where they hold no backslash: when
/// an event's `data` comes before its `id`, every line's `data` is walked through to find the
/// id.
pub(super) fn skip_container(b: &[u8], start: usize) -> Option<usize> {
    let mut walk = Walk::default();
    let mut i = start;
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
        };
        while i + 16 <= b.len() {
            // SAFETY: SSE2 is part of every x86_64 processor, and the sixteen bytes loaded,
            // `i..i + 16`, are within `b` (an unaligned load has no other requirement).
            let (quote, backslash, open, close) = unsafe {
                let x = _mm_loadu_si128(b.as_ptr().add(i).cast());
                let is = |c: u8| _mm_cmpeq_epi8(x, _mm_set1_epi8(c as i8));
                (
                    _mm_movemask_epi8(is(b'"')) as u32,
                    _mm_movemask_epi8(is(b'\\')) as u32,
                    _mm_movemask_epi8(_mm_or_si128(is(b'{'), is(b'['))) as u32,
                    _mm_movemask_epi8(_mm_or_si128(is(b'}'), is(b']'))) as u32,
                )
            };
            if backslash == 0 {
                // Which bytes are within a string: those after an odd number of quotes (a
                // prefix XOR), counting the string the walk is in.
                let mut inside = quote;
                inside ^= inside << 1;
                inside ^= inside << 2;
                inside ^= inside << 4;
                inside ^= inside << 8;
                if walk.in_string {
                    inside = !inside;
                }
                walk.in_string ^= quote.count_ones() % 2 == 1;
                let mut brackets = (open | close) & !inside & 0xFFFF;
                while brackets != 0 {
                    let j = brackets.trailing_zeros();
                    brackets &= brackets - 1;
                    if open & (1 << j) != 0 {
                        walk.depth += 1;
                    } else {
                        walk.depth -= 1;
                        if walk.depth == 0 {
                            return Some(i + j as usize + 1);
                        }
                    }
                }
                i += 16;
                continue;
            }
            // With escapes, a byte of note at a time.
            let mut bits = quote | backslash | open | close;
            // Whether the first byte of the next sixteen is escaped.
            let mut escaped_next = false;
            while bits != 0 {
                let j = bits.trailing_zeros();
                let bit = 1 << j;
                bits &= bits - 1;
                if walk.in_string {
                    if backslash & bit != 0 {
                        if j == 15 {
                            escaped_next = true;
                        } else {
                            bits &= !(bit << 1);
                        }
                    } else if quote & bit != 0 {
                        walk.in_string = false;
                    }
                } else if quote & bit != 0 {
                    walk.in_string = true;
                } else if open & bit != 0 {
                    walk.depth += 1;
                } else if close & bit != 0 {
                    walk.depth -= 1;
                    if walk.depth == 0 {
                        return Some(i + j as usize + 1);
                    }
                }
            }
            i += 16 + usize::from(escaped_next);
        }
    }
    walk_bytewise(b, i, walk)
}

/// The rest of [`skip_container`]'s walk from `i`, a byte at a time.
fn walk_bytewise(b: &[u8], mut i: usize, mut walk: Walk) -> Option<usize> {
    while let Some(&c) = b.get(i) {
        if walk.in_string {
            match c {
                b'\\' => i += 1,
                b'"' => walk.in_string = false,
                _ => {}
            }
        } else {
            match c {
                b'"' => walk.in_string = true,
                b'{' | b'[' => walk.depth += 1,
                b'}' | b']' => {
                    walk.depth -= 1;
                    if walk.depth == 0 {
                        return Some(i + 1);
                    }
                }
                _ => {}
            }
        }
        i += 1;
    }
    None
}

/// One past the end of the value starting at `start`.
pub(super) fn skip_value(b: &[u8], start: usize) -> Option<usize> {
    match b.get(start)? {
        b'"' => string_end(b, start),
        b'{' | b'[' => skip_container(b, start),
        _ => {
            let mut i = start;
            while i < b.len() && !matches!(b[i], b',' | b'}' | b']') && !b[i].is_ascii_whitespace()
            {
                i += 1;
            }
            Some(i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_are_skipped_sixteen_bytes_at_a_time_as_a_byte_at_a_time() {
        let mut lines: Vec<Vec<u8>> = Vec::new();
        let mut generated = Vec::new();
        crate::generator::write_ndjson(&mut generated, 40, 5).unwrap();
        lines.extend(generated.split(|&c| c == b'\n').map(<[u8]>::to_vec));
        // Escapes and brackets in strings at every place in a block of sixteen, and cuts.
        for pad in 0..20 {
            let p = "p".repeat(pad);
            lines.push(
                format!(r#"{{"a":"{p}\\","b":["{p}\"]","{{"],"c":{{"d":"\\\"}}"}}}}"#).into_bytes(),
            );
            lines.push(format!(r#"[{p}{{"k":"\\\\"}},[[],{{}}],"{p}\"\\"]"#).into_bytes());
            let long = "q".repeat(pad * 3);
            lines.push(
                format!(r#"{{"a":"{p}[{{","b":["}}]{long}",{{"c":"]]"}}],"d":"{long}{{"}}"#)
                    .into_bytes(),
            );
        }
        let cuts: Vec<Vec<u8>> = lines
            .iter()
            .flat_map(|l| (0..l.len()).step_by(7).map(move |n| l[..n].to_vec()))
            .collect();
        lines.extend(cuts);
        let mut ends = 0;
        for line in &lines {
            for start in 0..line.len() {
                if !matches!(line[start], b'{' | b'[') {
                    continue;
                }
                let bytewise = walk_bytewise(line, start, Walk::default());
                assert_eq!(
                    skip_container(line, start),
                    bytewise,
                    "{} from {start}",
                    String::from_utf8_lossy(line)
                );
                ends += usize::from(bytewise.is_some());
            }
        }
        assert!(ends > 1000, "{ends}");
    }
}
