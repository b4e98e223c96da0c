//! The filter through each row's type and `is_terminal` byte (`brief.rs`) against the plain
//! filter of the rows, over stores of more types than the byte numbers.

use proptest::prelude::*;

use super::*;
use crate::event::EventType;
use crate::filter::{Condition, Filter};

/// The events of `filter` read plainly: each row through the plan, and the description of
/// those the row leaves undecided, with no look at the byte beside it.
fn plainly(store: &Store, filter: &Filter) -> Vec<u32> {
    if filter.is_empty() {
        return (0..store.len() as u32).collect();
    }
    let compiled = Query::new(store, filter);
    (0..store.len())
        .filter(|&i| {
            compiled
                .matches_unread(store, i)
                .unwrap_or_else(|| compiled.in_description(store, i))
        })
        .map(|i| i as u32)
        .collect()
}

/// The type of kind number `k`: the five known ones, then others, more than a byte numbers.
fn kind(k: usize) -> String {
    match k {
        0 => "client.publish.failed".to_string(),
        1 => "client.join.failed".to_string(),
        2 => "client.subscribe.failed".to_string(),
        k => format!("client.other{k}.failed"),
    }
}

/// An event of type number `k` (none for 90), `is_terminal` written one of five ways, and one
/// of three rooms.
fn line(n: usize, k: usize, terminal: usize, room: usize) -> String {
    let terminal = ["true", "false", "null", "\"true\"", ""][terminal];
    let terminal = if terminal.is_empty() {
        String::new()
    } else {
        format!(r#","is_terminal":{terminal}"#)
    };
    let kind = if k == 90 {
        String::new()
    } else {
        format!(r#""type":"{}","#, kind(k))
    };
    format!(
        r#"{{"id":"e{n}",{kind}"timestamp":"2026-11-18T08:00:{:02}Z","data":{{"room_id":"r{room}","error_description":"about {room} and {k}"{terminal}}}}}"#,
        n % 60
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn a_filter_through_the_type_and_final_byte_keeps_what_the_plain_filter_keeps(
        events in proptest::collection::vec((0usize..91, 0usize..5, 0usize..3), 1..400),
        batches in 1usize..4,
        wanted in proptest::collection::vec(0usize..92, 0..4),
        terminal in proptest::option::of(any::<bool>()),
        room in proptest::option::of(0usize..4),
        search in proptest::option::of(0usize..4),
    ) {
        let lines: Vec<String> = events
            .iter()
            .enumerate()
            .map(|(n, &(k, t, r))| line(n, k, t, r))
            .collect();
        let mut store = Store::new();
        for part in lines.chunks(lines.len().div_ceil(batches)) {
            store.merge(Batch::of_objects(part).unwrap());
        }
        let mut filter = Filter {
            // 91: a type no event has.
            types: wanted.iter().map(|&k| EventType::from_name(&kind(k))).collect(),
            terminal,
            search: search.map(|s| ["about 1", "r2", "and 7", "zz"][s].to_string()),
            ..Filter::default()
        };
        if let Some(room) = room {
            filter.add(Condition::is(Field::Room, format!("r{room}")));
        }
        let plain = plainly(&store, &filter);
        prop_assert_eq!(store.filter(&filter), plain.clone(), "{:?}", filter);
        // Among some rows too, as a find narrowing looks.
        let some: Vec<u32> = (0..store.len() as u32).step_by(2).collect();
        let among: Vec<u32> = plain.iter().copied().filter(|i| i % 2 == 0).collect();
        prop_assert_eq!(store.matching_among(&filter, &some), among);
    }
}

#[test]
fn a_store_of_more_types_than_the_byte_numbers_filters_each_type() {
    let lines: Vec<String> = (0..90).map(|k| line(k, k, k % 5, k % 3)).collect();
    let mut store = Store::new();
    store.merge(Batch::of_objects(&lines).unwrap());
    for k in [0, 1, 62, 63, 64, 89] {
        let filter = Filter {
            types: vec![EventType::from_name(&kind(k))],
            ..Filter::default()
        };
        assert_eq!(store.filter(&filter), [k as u32], "type {k}");
        let finals = Filter {
            terminal: Some(true),
            ..filter
        };
        let expected: &[u32] = if k % 5 == 0 { &[k as u32] } else { &[] };
        assert_eq!(store.filter(&finals), expected, "final, type {k}");
    }
}
