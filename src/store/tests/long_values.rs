//! Long values: those that never repeat are left in the dump and searched there, those that
//! repeat are interned once, and a long message that is no text is refused.

use super::*;

/// The total length of the strings a store holds.
fn interned_bytes(store: &Store) -> usize {
    store.strings().text_from(1).0.len()
}

/// Events each holding a stack trace of 2 kB of their own, placed by `place(n, trace)`:
/// interned, the traces would make the store nearly as large as the dump. Those of the trial
/// are interned; after it, the events' rows send the search to the dump.
fn assert_unrepeated_long_values_are_left_in_the_dump(place: impl Fn(usize, &str) -> String) {
    let trace = |n: usize| format!("trace {n:05} {}", "at frame ".repeat(220));
    let lines: Vec<String> = (0..3_000)
        .map(|n| {
            format!(
                r#"{{"id":"e{n}","data":{{"room_id":"r{}",{}}}}}"#,
                n % 7,
                place(n, &trace(n))
            )
        })
        .collect();
    let mut store = Store::new();
    store.merge(batch(&lines.join("\n")));
    assert_eq!(store.len(), lines.len());
    let raw: Vec<usize> = (0..store.len())
        .filter(|&i| store.row(i).search_raw())
        .collect();
    assert_eq!(raw, (LONG_TRIAL as usize..lines.len()).collect::<Vec<_>>());
    assert!(
        interned_bytes(&store) < LONG_TRIAL as usize * trace(0).len() + 10_000,
        "{} bytes interned",
        interned_bytes(&store)
    );
    let needles = [
        "trace 00001 ",
        "TRACE 02999 AT",
        "trace 00255",
        "trace 00256",
        "at frame at",
        "r3",
        "camera",
        "nowhere",
    ]
    .map(String::from);
    assert_search_is_exact(&store, &needles);
}

#[test]
fn long_values_that_never_repeat_are_left_in_the_dump_and_searched_there() {
    assert_unrepeated_long_values_are_left_in_the_dump(|_, trace| format!(r#""stack":"{trace}""#));
}

#[test]
fn long_messages_that_never_repeat_are_left_in_the_dump_too() {
    // Only the search reads a row's message.
    assert_unrepeated_long_values_are_left_in_the_dump(|_, trace| {
        format!(r#""error_message":"{trace}""#)
    });
}

#[test]
fn nested_long_values_that_never_repeat_are_left_in_the_dump_too() {
    // Beside a nested value that repeats, which keeps nested values remembered: one holding
    // a long value is not.
    assert_unrepeated_long_values_are_left_in_the_dump(|n, trace| {
        format!(
            r#""devices":{{"video":"front camera","audio":"built-in microphone","n":{}}},"details":{{"stack":"{trace}","depth":12}}"#,
            n % 2
        )
    });
}

#[test]
fn a_long_value_interned_during_the_trial_is_found_after_it() {
    let trace = |n: usize| format!("trace {n:05} {}", "at frame ".repeat(40));
    let mut lines: Vec<String> = (0..400)
        .map(|n| format!(r#"{{"id":"e{n}","data":{{"stack":"{}"}}}}"#, trace(n)))
        .collect();
    // After the trial: the trace of event 5 again, then a new one.
    lines.push(format!(
        r#"{{"id":"again","data":{{"stack":"{}"}}}}"#,
        trace(5)
    ));
    lines.push(format!(
        r#"{{"id":"new","data":{{"stack":"{}"}}}}"#,
        trace(9_999)
    ));
    let mut store = Store::new();
    store.merge(batch(&lines.join("\n")));
    let raw = |i: usize| store.row(i).search_raw();
    assert!(raw(399) && !raw(400) && raw(401));
    assert_search_is_exact(&store, &["trace 00005 ".to_string()]);
}

#[test]
fn a_long_message_that_is_no_text_is_refused_wherever_it_falls_in_a_batch() {
    // Half a surrogate pair: no text, as the store refuses it in any value a row holds.
    let bad = format!(
        r#"{{"id":"bad","data":{{"error_message":"{}\ud800"}}}}"#,
        "m".repeat(300)
    );
    let trace = |n: usize| format!("trace {n:05} {}", "at frame ".repeat(40));
    for before in [0, 300] {
        let mut lines: Vec<String> = (0..before)
            .map(|n| format!(r#"{{"id":"e{n}","data":{{"stack":"{}"}}}}"#, trace(n)))
            .collect();
        lines.push(bad.clone());
        let text = lines.join("\n");
        let mut builder = BatchBuilder::new(blob_of(&text));
        let mut start = 0;
        let mut refused = Vec::new();
        for line in &lines {
            if builder.push(start, start + line.len()).is_err() {
                refused.push(start);
            }
            start += line.len() + 1;
        }
        assert_eq!(
            refused,
            [start - bad.len() - 1],
            "after {before} long values"
        );
    }
}

#[test]
fn long_values_that_repeat_are_interned_once() {
    // Five long texts, each in a fifth of the events.
    let long = |k: usize| format!("detail {k} {}", "of a repeated value ".repeat(20));
    let lines: Vec<String> = (0..3_000)
        .map(|n| format!(r#"{{"id":"e{n}","data":{{"detail":"{}"}}}}"#, long(n % 5)))
        .collect();
    let mut store = Store::new();
    store.merge(batch(&lines.join("\n")));
    assert!(store.rows().iter().all(|r| !r.search_raw()));
    assert!(interned_bytes(&store) < 5 * long(0).len() + 1_000);
    let needles = ["detail 3 of", "DETAIL 4", "value of a"].map(String::from);
    assert_search_is_exact(&store, &needles);
}
