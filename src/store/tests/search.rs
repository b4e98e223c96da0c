//! Search through the index finds exactly what reading each event finds, most events unread,
//! and without an index too.

use super::*;

#[test]
fn the_indexed_search_finds_exactly_what_reading_each_event_finds() {
    let lines = generated_and_odd(150, 9);
    let mut store = Store::new();
    // Two batches: the second's strings and sets are remapped into the store's.
    let (a, b) = lines.split_at(lines.len() / 2);
    store.merge(batch(&(a.join("\n") + "\n")));
    let needles = needles_of(&lines);
    assert!(needles.len() > 300, "{} needles", needles.len());
    // Searched once before the second batch: the answers kept for it must grow with the store.
    assert_search_is_exact(&store, &needles[..50]);
    store.merge(batch(&(b.join("\n") + "\n")));
    assert_eq!(store.len(), lines.len());
    assert_search_is_exact(&store, &needles);
}

#[test]
fn most_events_are_searched_without_reading_their_json() {
    let mut store = Store::new();
    store.merge(batch(&tricky_events().join("\n")));
    let raw_read: Vec<bool> = store.rows().iter().map(|r| r.search_raw()).collect();
    // Only the value `\ud800`, which is no text, needs the event's JSON.
    assert_eq!(
        raw_read,
        [
            false, false, false, true, false, false, false, false, false, false, false, false
        ]
    );
    let far = store.row(7);
    assert!(far.description_at.is_none(), "70 kB in: not located");
    assert!(!store.sets().get(far.others).is_empty());
}

#[test]
fn an_unindexed_store_still_searches_exactly_by_reading_each_event() {
    let unindexed = |lines: &[String]| {
        let text = lines.join("\n");
        let blob = Arc::new(Blob::Owned(text.as_bytes().to_vec()));
        let mut builder = BatchBuilder::new(blob).unindexed();
        let mut start = 0;
        for line in text.split_inclusive('\n') {
            builder.push(start, start + line.trim_end().len()).unwrap();
            start += line.len();
        }
        builder.finish()
    };
    let lines = tricky_events();
    let mut store = Store::new();
    store.merge(unindexed(&lines));
    assert!(store.rows().iter().all(|r| r.search_raw()));
    assert_search_is_exact(&store, &needles_of(&lines));
    // Indexed events after unindexed ones, and unindexed ones again: each row is searched
    // with what is known beside it, or by reading it.
    let generated = generated_lines(60, 4);
    let (a, b) = generated.split_at(30);
    store.merge(batch(&a.join("\n")));
    store.merge(unindexed(b));
    assert_eq!(store.len(), lines.len() + generated.len());
    let all: Vec<String> = lines.iter().chain(&generated).cloned().collect();
    assert_search_is_exact(&store, &needles_of(&all));
}

#[test]
fn events_whose_values_never_repeat_are_searched_as_exactly_as_those_that_do() {
    // Each event's other values are its own, 3 MB of them in all: more than a builder
    // remembers texts of (`MAX_TEXTS_OF_OTHERS`), and so few repeat that it soon stops looking
    // them up (`TEXTS_TRIAL`); every tenth event repeats the values of one read long before (of
    // event `n / 100 * 10`, itself no repeat).
    let others = |n: usize| {
        format!(
            r#""note":"unique note {n:06} {}","agent":{{"sdk":"web","string":"sdk:web,build:{n},env:qa"}}"#,
            // Shorter than `LONG_VALUE`: each is interned.
            "z".repeat(200)
        )
    };
    let lines: Vec<String> = (0..12_000)
        .map(|n| {
            let values = if n % 10 == 9 {
                others(n / 100 * 10)
            } else {
                others(n)
            };
            format!(
                r#"{{"id":"e{n}","data":{{"room_id":"r{}",{values}}}}}"#,
                n % 7
            )
        })
        .collect();
    let text = lines.join("\n");
    assert!(text.len() > 3_000_000);
    let mut store = Store::new();
    store.merge(batch(&text));
    assert_eq!(store.len(), lines.len());
    assert!(store.rows().iter().all(|r| !r.search_raw()));
    // The repeats share the set of the event they repeat, before and after the limit.
    for n in [19, 11_999] {
        assert_eq!(
            store.row(n).others,
            store.row(n / 100 * 10).others,
            "event {n}"
        );
    }
    let needles = [
        "unique note 000001 ",
        "unique note 001190 ",
        "unique note 011998",
        "build:11997,",
        "build:1190,",
        "build:1199,",
        "NOTE 00",
        "env:qa",
    ]
    .map(String::from);
    assert_search_is_exact(&store, &needles);
}

#[test]
fn a_search_and_a_find_asked_in_turn_each_keep_their_answers() {
    let lines = generated_lines(200, 3);
    let mut store = Store::new();
    store.merge(batch(&lines.join("\n")));
    let (search, find) = (Needle::new("sfu"), Needle::new("join"));
    let first = store.search_bits(&search);
    // The find typed on beside the search (`j`, `jo`, `join`): each text replaces the one it
    // holds, and the search's answers stay.
    for typed in ["j", "jo"] {
        store.search_bits(&Needle::new(typed));
    }
    let found = store.search_bits(&find);
    let again = store.search_bits(&search);
    assert!(
        again.shares_answers_with(&first),
        "the search's answers were computed again"
    );
    assert!(store.search_bits(&find).shares_answers_with(&found));
    // Four other texts since: the search's are forgotten and computed again, the same.
    for other in ["a", "b", "c", "d"] {
        store.search_bits(&Needle::new(other));
    }
    assert!(!store.search_bits(&search).shares_answers_with(&first));
    assert_search_is_exact(&store, &["sfu".to_string(), "join".to_string()]);
}
