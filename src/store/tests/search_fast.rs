//! The search's fast paths against reading each event: a text ruled out of an event by what is
//! kept beside its row (`search/located.rs`), and a text typed longer answered from the strings
//! the text before held (`SearchBits::narrowed`).

use proptest::prelude::*;

use super::*;

/// The ids an event may have: canonical UUIDs in either case, ids that are not UUIDs (some of
/// UUID characters only), an escaped one, or none. `nnnn` is the event's number in hex (`NNNN`
/// in upper case), so that no two events are one.
const IDS: [&str; 8] = [
    r#""id":"0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3fnnnn","#,
    r#""id":"1F2A3B4C-5D6E-4F7A-9B0C-1D2E3F4ANNNN","#,
    r#""id":"evt-sfu-nnnn","#,
    r#""id":"abc-nnnn","#,
    r#""id":"0e1f2a3bnnnn","#,
    r#""id":"e\u0076t-nnnn","#,
    "",
    r#""id":"7d2b99d0-c43d-4aae-9d30-2aea917annnn","#,
];

/// The timestamps an event may have: the service's spelling, others of time characters only,
/// others with letters, an escaped one, or none.
const TIMES: [&str; 8] = [
    r#""timestamp":"2026-11-18T08:00:00.828213904Z","#,
    r#""timestamp":"2026-11-18T08:00:01Z","#,
    r#""timestamp":"2026-11-18t08:00:02.5+01:00","#,
    r#""timestamp":"yesterday at noon","#,
    r#""timestamp":"2026-11-18T08:00:03Z sfu","#,
    r#""timestamp":"2026-11-18T08:00:0\u0034Z","#,
    "",
    r#""timestamp":"2026-11-18 08:00:05","#,
];

/// Words a description, a room or a note is made of: some in no other field, some with
/// escapes, other cases, characters whose lowercase is ASCII, or letters of other scripts.
const WORDS: [&str; 14] = [
    "sfu-prod-in2-03",
    "SFU-Prod-IN2-07",
    "upstream",
    "timeout",
    "4006",
    "ms",
    "\\u0053fu",
    "\\\"quoted\\\"",
    "O\u{212a}",
    "İce",
    "zoë",
    "a6e7",
    "2026-11",
    "t08",
];

/// The texts searched for: whole words, parts of them, other cases, and parts of the ids and
/// timestamps.
const TEXTS: [&str; 22] = [
    "sfu-prod-in2-03",
    "sfu-prod",
    "prod-in2-0",
    "UPSTREAM",
    "stream t",
    "timeout 4006",
    "4006",
    "40",
    "\"quoted\"",
    "ok",
    "ice",
    "zo",
    "a6e7",
    "4c5d-4e6f",
    "4F7A",
    "evt-",
    "evt-9",
    "t08:00",
    "noon",
    "08:00:04",
    "Z sfu",
    "no such text",
];

/// Event number `n`: its id and timestamp of the kinds above, a description of `words`, a room
/// and a note of others, an error code.
fn line(n: usize, id: usize, ts: usize, words: &[usize], room: usize, code: usize) -> String {
    let id = IDS[id]
        .replace("nnnn", &format!("{n:04x}"))
        .replace("NNNN", &format!("{n:04X}"));
    let description: Vec<&str> = words.iter().map(|&w| WORDS[w]).collect();
    let description = if words.is_empty() {
        String::new()
    } else {
        format!(r#","error_description":"{}""#, description.join(" "))
    };
    format!(
        r#"{{{}{}"type":"client.join.failed","data":{{"room_id":"room-{}","note":"{}","error_code":{}{description}}}}}"#,
        id,
        TIMES[ts],
        room,
        WORDS[room % WORDS.len()],
        [4006, 500, 1003][code],
    )
}

/// The events that hold `text`, by reading each event's JSON.
fn read_each(store: &Store, text: &str) -> Vec<u32> {
    let needle = Needle::new(text);
    (0..store.len())
        .filter(|&i| needle.matches_json(store.raw(i)))
        .map(|i| i as u32)
        .collect()
}

fn searched(store: &Store, text: &str) -> Vec<u32> {
    store.filter(&crate::filter::Filter {
        search: Some(text.to_string()),
        ..crate::filter::Filter::default()
    })
}

/// `text` with the letters at the places `case` sets in upper case.
fn cased(text: &str, case: u64) -> String {
    text.chars()
        .enumerate()
        .map(|(k, c)| {
            if case & (1 << (k % 64)) != 0 {
                c.to_ascii_uppercase()
            } else {
                c
            }
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]
    #[test]
    fn a_search_ruled_out_beside_the_rows_or_narrowed_finds_what_reading_each_event_finds(
        events in proptest::collection::vec(
            (
                0..IDS.len(),
                0..TIMES.len(),
                proptest::collection::vec(0..WORDS.len(), 0..4),
                0usize..20,
                0usize..3,
            ),
            1..120,
        ),
        batches in 1usize..4,
        texts in proptest::collection::vec((0..TEXTS.len(), any::<u64>(), 0usize..4), 1..6),
    ) {
        let lines: Vec<String> = events
            .iter()
            .enumerate()
            .map(|(n, (id, ts, words, room, code))| line(n, *id, *ts, words, *room, *code))
            .collect();
        let mut store = Store::new();
        let mut texts = texts.into_iter();
        for part in lines.chunks(lines.len().div_ceil(batches)) {
            store.merge(batch(&(part.join("\n") + "\n")));
            // Searched between batches too: the answers kept grow with the store.
            if let Some((t, case, _)) = texts.next() {
                let text = cased(TEXTS[t], case);
                prop_assert_eq!(searched(&store, &text), read_each(&store, &text), "{:?}", text);
            }
        }
        for (t, case, cut) in texts {
            // A part of the text first, then the whole: the whole is answered narrowed from it.
            let text = cased(TEXTS[t], case);
            let part: String = text.chars().skip(cut).take(text.chars().count().saturating_sub(cut * 2).max(1)).collect();
            prop_assert_eq!(searched(&store, &part), read_each(&store, &part), "{:?}", part);
            prop_assert_eq!(searched(&store, &text), read_each(&store, &text), "{:?} after {:?}", text, part);
        }
    }
}

#[test]
fn a_text_in_no_interned_string_is_decided_beside_most_rows() {
    let lines: Vec<String> = (0..64)
        // Notes of words in no description: the text is in no interned string.
        .map(|n| line(n, [0, 7][n % 2], n % 2, &[n % 4, 3], 2 + n % 3, n % 3))
        .collect();
    let mut store = Store::new();
    store.merge(batch(&lines.join("\n")));
    for i in 0..store.len() {
        assert!(
            store.located.decided_here(i),
            "event {i}: a UUID and a plain time"
        );
        assert!(store.located.uuid(i).is_some(), "event {i}");
    }
    let needle = Needle::new("sfu-prod-in2-03");
    let bits = store.search_bits(&needle);
    // The text is only in descriptions: decided beside every row but those that may hold it.
    let undecided = (0..store.len())
        .filter(|&i| bits.matches_located(&store.located, i).is_none())
        .count();
    let holding = read_each(&store, "sfu-prod-in2-03").len();
    assert!(holding > 0);
    assert_eq!(
        undecided, holding,
        "only the descriptions with the text are read"
    );
    assert_eq!(searched(&store, "sfu-prod-in2-03").len(), holding);
}

#[test]
fn an_id_or_a_time_that_the_row_must_spell_leaves_the_event_to_its_row() {
    let lines: Vec<String> = [(2, 0), (6, 0), (0, 3), (0, 6), (5, 0), (0, 5)]
        .iter()
        .enumerate()
        .map(|(n, &(id, ts))| line(n, id, ts, &[3], 1, 0))
        .collect();
    let mut store = Store::new();
    store.merge(batch(&lines.join("\n")));
    let decided: Vec<bool> = (0..store.len())
        .map(|i| store.located.decided_here(i))
        .collect();
    // An id that is no UUID, a timestamp with letters, an escaped one: the row is read.
    assert_eq!(decided, [false, true, false, true, false, false]);
}
