//! The filter over the store's rows (see `query.rs`), on the fixtures.

use super::*;
use crate::event::{EventType, Field};
use crate::filter::{Condition, Filter, TimeBound};
use crate::insight::GroupKey;
use crate::time::parse_rfc3339_nanos;

/// Every fixture, loaded as `callscope list tests/fixtures` would.
fn store() -> Store {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let mut store = Store::new();
    let problems = crate::source::load_files(&[dir.to_string()], |_, batch| {
        store.merge(batch);
    });
    assert!(problems.is_empty(), "{problems:?}");
    store
}

/// The first eight characters of the ids of the matching events, sorted.
fn ids(store: &Store, filter: &Filter) -> Vec<String> {
    let mut ids: Vec<String> = store
        .filter(filter)
        .into_iter()
        .map(|i| store.event(i as usize).id().unwrap_or("")[..8].to_string())
        .collect();
    ids.sort();
    ids
}

/// A store of one batch holding these event objects.
fn store_of_lines(lines: &[&str]) -> Store {
    let mut store = Store::new();
    store.merge(Batch::of_objects(lines).unwrap());
    store
}

fn bound(t: &str) -> Option<TimeBound> {
    Some(TimeBound {
        text: t.to_string(),
        nanos: parse_rfc3339_nanos(t).unwrap(),
    })
}

fn types(args: &[&str]) -> Vec<EventType> {
    args.iter()
        .map(|a| EventType::from_arg(a).unwrap())
        .collect()
}

// Event ids of the fixtures, by their first eight characters.
const P1: &str = "5f0a1b7e"; // publish, final, weekly-standup, Amara
const S1: &str = "8d2e4f60"; // subscribe, retried, weekly-standup, Jonas
const J1: &str = "a1c3e5f7"; // join, final, math-tutoring, Kenji
const D1: &str = "c4e6a8b0"; // disconnected, retried, weekly-standup, Jonas, no session
const C1: &str = "e7f9b1d3"; // connect, final, math-tutoring, Lucía, no session
const P2: &str = "0e1f2a3b"; // publish, retried, math-tutoring, Priya
const S2: &str = "1f2a3b4c"; // subscribe, final, math-tutoring, Kenji
const J2: &str = "2a3b4c5d"; // join, retried, math-tutoring, Priya
const T1: &str = "3b4c5d6e"; // track.add.success, weekly-standup, Amara
const Q1: &str = "4c5d6e7f"; // publish, retried, weekly-standup, Amara
const Q2: &str = "5d6e7f8a"; // join, final, math-tutoring, Lucía, null session
const H1: &str = "6e7f8a9b"; // subscribe, final, weekly-standup, hostile text

fn sorted(mut v: Vec<&str>) -> Vec<String> {
    v.sort();
    v.into_iter().map(String::from).collect()
}

const WEEKLY: &str = "6735e0b1c4a92f5d18e3b7a1";
const MATH: &str = "671f3c2a9e8d7b6a5c4d3e2f";

#[test]
fn an_empty_filter_matches_every_event_once() {
    let store = store();
    let f = Filter::default();
    assert!(f.is_empty());
    assert_eq!(
        ids(&store, &f),
        sorted(vec![P1, S1, J1, D1, C1, P2, S2, J2, T1, Q1, Q2, H1])
    );
    assert_eq!(f.describe(), "none");
}

#[test]
fn the_type_filter_takes_aliases_full_names_and_several_types() {
    let store = store();
    let by = |args: &[&str]| {
        ids(
            &store,
            &Filter {
                types: types(args),
                ..Filter::default()
            },
        )
    };
    assert_eq!(by(&["publish"]), sorted(vec![P1, P2, Q1]));
    assert_eq!(by(&["client.publish.failed"]), by(&["publish"]));
    assert_eq!(by(&["subscribe"]), sorted(vec![S1, S2, H1]));
    assert_eq!(by(&["join"]), sorted(vec![J1, J2, Q2]));
    assert_eq!(by(&["disconnected"]), sorted(vec![D1]));
    assert_eq!(by(&["connect"]), sorted(vec![C1]));
    assert_eq!(by(&["join", "connect"]), sorted(vec![J1, J2, Q2, C1]));
    assert_eq!(by(&["track.add.success"]), sorted(vec![T1]));
    assert!(by(&["recording.success"]).is_empty());
}

#[test]
fn a_type_absent_from_the_store_matches_nothing_even_beside_others_absent() {
    let store = store_of_lines(&[r#"{"id":"a","type":"client.join.failed","data":{}}"#]);
    let f = Filter {
        types: vec![EventType::Publish, EventType::Connect],
        ..Filter::default()
    };
    assert!(store.filter(&f).is_empty());
}

#[test]
fn the_id_filters_match_exact_ids() {
    let store = store();
    let f = |room: Option<&str>, session: Option<&str>, peer: Option<&str>, user: Option<&str>| {
        let mut filter = Filter::default();
        for (field, value) in [
            (Field::Room, room),
            (Field::Session, session),
            (Field::Peer, peer),
            (Field::User, user),
        ] {
            filter.set(field, value.map(String::from));
        }
        filter
    };
    assert_eq!(
        ids(&store, &f(Some(WEEKLY), None, None, None)),
        sorted(vec![P1, S1, D1, T1, Q1, H1])
    );
    assert_eq!(
        ids(&store, &f(Some(MATH), None, None, None)),
        sorted(vec![J1, C1, P2, S2, J2, Q2])
    );
    assert_eq!(
        ids(
            &store,
            &f(None, Some("673b20aa9c4d5a6b7c8d9e10"), None, None)
        ),
        sorted(vec![J1, P2, S2, J2])
    );
    assert_eq!(
        ids(
            &store,
            &f(
                None,
                None,
                Some("1c7dab63-8e4f-4a2b-9c3d-6f7a8b9c0d1e"),
                None
            )
        ),
        sorted(vec![S1, D1])
    );
    assert_eq!(
        ids(&store, &f(None, None, None, Some("usr_7b2c4d93"))),
        sorted(vec![C1, Q2])
    );
    assert_eq!(
        ids(
            &store,
            &f(
                Some(WEEKLY),
                Some("673b1f2e9c4d5a6b7c8d9e0f"),
                None,
                Some("usr_8c1f2a90")
            )
        ),
        sorted(vec![P1, T1, Q1])
    );
    assert!(
        ids(
            &store,
            &f(Some("6735E0B1C4A92F5D18E3B7A1"), None, None, None)
        )
        .is_empty()
    );
    assert!(ids(&store, &f(Some("6735e0b1"), None, None, None)).is_empty());
    assert!(ids(&store, &f(None, Some("no-such-session"), None, None)).is_empty());
    assert!(ids(&store, &f(Some(WEEKLY), None, None, Some("usr_7b2c4d93"))).is_empty());
}

#[test]
fn terminal_and_retried_split_the_events_that_say_which_they_are() {
    let store = store();
    let terminal = Filter {
        terminal: Some(true),
        ..Filter::default()
    };
    let retried = Filter {
        terminal: Some(false),
        ..Filter::default()
    };
    assert_eq!(ids(&store, &terminal), sorted(vec![P1, J1, C1, S2, Q2, H1]));
    assert_eq!(ids(&store, &retried), sorted(vec![S1, D1, P2, J2, Q1]));
    assert_eq!(terminal.describe(), "final only");
    assert_eq!(retried.describe(), "retried only");
}

#[test]
fn the_code_filter_matches_error_code() {
    let store = store();
    let code = |c: i64| Filter::default().with(Field::Code, c.to_string());
    assert_eq!(ids(&store, &code(500)), sorted(vec![J1, J2, Q2]));
    assert_eq!(ids(&store, &code(2003)), sorted(vec![C1]));
    assert_eq!(ids(&store, &code(1003)), sorted(vec![D1]));
    assert_eq!(ids(&store, &code(4006)).len(), 6);
    assert!(ids(&store, &code(0)).is_empty());
    assert!(ids(&store, &code(-4006)).is_empty());
    // Digits that are no number match nothing, and hide nothing.
    assert!(ids(&store, &Filter::default().with(Field::Code, "4OO6")).is_empty());
    let mut hide = Filter::default();
    hide.add(Condition::not(Field::Code, Some("4OO6".into())));
    assert_eq!(ids(&store, &hide).len(), 12);
}

#[test]
fn a_negated_condition_hides_exactly_what_the_condition_keeps() {
    let store = store();
    for (field, value) in [
        (Field::Room, Some(WEEKLY)),
        (Field::Code, Some("4006")),
        (Field::Session, None),
        (Field::Type, Some("client.join.failed")),
        (Field::UserName, Some("Priya Raman")),
    ] {
        let keep = Filter::default();
        let mut keep = keep;
        keep.require(Condition {
            field,
            value: value.map(String::from),
            negate: false,
        });
        let mut hide = Filter::default();
        hide.add(Condition::not(field, value.map(String::from)));
        let kept = ids(&store, &keep);
        let hidden = ids(&store, &hide);
        assert!(!kept.is_empty(), "{field} {value:?}");
        assert_eq!(kept.len() + hidden.len(), 12, "{field} {value:?}");
        assert!(kept.iter().all(|k| !hidden.contains(k)));
    }
}

#[test]
fn search_is_a_case_insensitive_substring_of_values_not_keys() {
    let store = store();
    let search = |s: &str| {
        ids(
            &store,
            &Filter {
                search: Some(s.to_string()),
                ..Filter::default()
            },
        )
    };
    assert_eq!(search("ice connection"), sorted(vec![P1, S1, P2, S2, Q1]));
    assert_eq!(search("endpoint is NOT reachable"), sorted(vec![C1]));
    assert_eq!(search("pixel 7, PRO"), sorted(vec![J1, S2]));
    assert_eq!(search("LUCÍA"), sorted(vec![C1, Q2]));
    assert_eq!(search("pwned"), sorted(vec![H1]));
    assert_eq!(search("\"quoted\""), sorted(vec![H1]));
    assert_eq!(search("first copy"), sorted(vec![S2]));
    assert!(
        search("second copy").is_empty(),
        "the dropped duplicate is not searched"
    );
    // Keys are not values.
    assert!(search("error_description").is_empty());
    assert!(search("retries_join").is_empty());
    // Numbers are found as they are written: a number past any integer type, a code, which finds
    // the events of that code.
    assert_eq!(search("12345678901234567890"), [Q1]);
    assert_eq!(search("1E3"), [Q1]);
    let code = ids(&store, &Filter::default().with(Field::Code, "4006"));
    assert!(!code.is_empty());
    assert_eq!(search("4006"), code);
    let part = search("006");
    assert!(code.iter().all(|id| part.contains(id)), "{part:?}");
    let everything = Filter {
        search: Some(String::new()),
        ..Filter::default()
    };
    assert_eq!(ids(&store, &everything).len(), 12);
}

#[test]
fn since_and_until_are_inclusive_to_the_nanosecond() {
    let store = store();
    let window = |since: Option<&str>, until: Option<&str>| {
        ids(
            &store,
            &Filter {
                since: since.and_then(bound),
                until: until.and_then(bound),
                ..Filter::default()
            },
        )
    };
    assert_eq!(
        window(Some("2024-11-18T11:21:00.000000007Z"), None),
        sorted(vec![Q2, H1])
    );
    assert_eq!(
        window(Some("2024-11-18T11:21:00.000000008Z"), None),
        sorted(vec![H1])
    );
    assert_eq!(
        window(None, Some("2024-11-18T10:02:03.000123456Z")),
        sorted(vec![C1])
    );
    assert!(window(None, Some("2024-11-18T10:02:03.000123455Z")).is_empty());
    assert_eq!(
        window(Some("2024-11-18T10:15:00Z"), Some("2024-11-18T10:30:00Z")),
        sorted(vec![P1, S1, J1])
    );
    assert_eq!(
        window(
            Some("2024-11-18T12:15:00+02:00"),
            Some("2024-11-18T12:30:00+02:00")
        ),
        sorted(vec![P1, S1, J1]),
        "offsets are converted"
    );
    assert!(window(Some("2024-11-18T12:00:00Z"), Some("2024-11-18T10:00:00Z")).is_empty());
}

#[test]
fn a_time_bound_excludes_events_without_a_readable_timestamp() {
    let store = store_of_lines(&[
        r#"{"id":"a","timestamp":"not a time"}"#,
        r#"{"id":"b"}"#,
        r#"{"id":"c","timestamp":"2024-11-18T10:00:00Z"}"#,
    ]);
    assert_eq!(store.filter(&Filter::default()).len(), 3);
    let since = Filter {
        since: bound("1970-01-01T00:00:00Z"),
        ..Filter::default()
    };
    assert_eq!(store.filter(&since), [2]);
    let until = Filter {
        until: bound("2100-01-01T00:00:00Z"),
        ..Filter::default()
    };
    assert_eq!(store.filter(&until), [2]);
}

#[test]
fn filters_combine_with_and() {
    let store = store();
    let f = Filter {
        types: types(&["join", "publish"]),
        terminal: Some(false),
        ..Filter::default()
    }
    .with(Field::Room, MATH);
    assert_eq!(ids(&store, &f), sorted(vec![P2, J2]));
    let f = Filter {
        conditions: vec![Condition::is(Field::Code, "4006")],
        search: Some("weekly".into()),
        terminal: Some(true),
        since: bound("2024-11-18T10:00:00Z"),
        until: bound("2024-11-18T11:00:00Z"),
        ..Filter::default()
    };
    assert_eq!(ids(&store, &f), sorted(vec![P1]));
    let f = Filter {
        types: types(&["connect"]),
        ..Filter::default()
    }
    .with(Field::Code, "500");
    assert!(ids(&store, &f).is_empty());
}

#[test]
fn matching_a_range_keeps_load_order_and_bounds() {
    let store = store();
    let all = store.filter(&Filter::default());
    assert_eq!(all, (0..12).collect::<Vec<u32>>());
    let f = Filter {
        terminal: Some(true),
        ..Filter::default()
    };
    let whole = store.filter(&f);
    let tail = store.matching(&f, 6..12);
    assert!(whole.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(
        tail,
        whole
            .iter()
            .copied()
            .filter(|&i| i >= 6)
            .collect::<Vec<_>>()
    );
}

#[test]
fn matching_a_range_cut_in_slices_keeps_what_one_reading_keeps() {
    let store = crate::store::scale::generated_dump_loaded(20_000);
    let n = store.len();
    // The whole store, and a range that starts and ends inside it.
    for range in [0..n, 1_234..n - 777] {
        for search in ["4006", "sfu", "JOIN", "no such text"] {
            let f = Filter {
                search: Some(search.to_string()),
                ..Filter::default()
            };
            // One reading of the range, in order; and what the whole store's filter keeps there.
            let expected = store.matching_in(&f, range.clone(), 1);
            let in_range: Vec<u32> = store
                .filter(&f)
                .into_iter()
                .filter(|&i| range.contains(&(i as usize)))
                .collect();
            assert_eq!(expected, in_range, "{search} in {range:?}");
            assert_eq!(expected.is_empty(), search == "no such text", "{search}");
            // Cut into slices as a large store's are, however many threads the pool has: a few
            // of sizes that do not divide the range (the last one shorter), and many small ones.
            for parts in [2, 3, 7, 100] {
                let cut = store.matching_in(&f, range.clone(), parts);
                assert_eq!(cut, expected, "{search} in {range:?}, in {parts} slices");
            }
        }
    }
    let f = Filter {
        search: Some("sfu".to_string()),
        ..Filter::default()
    };
    assert_eq!(store.matching_in(&f, 5..5, 7), Vec::<u32>::new());
    assert_eq!(
        store.matching_in(&f, 0..3, 100),
        store.matching_in(&f, 0..3, 1)
    );
}

#[test]
fn matching_among_some_events_keeps_those_the_whole_filter_keeps() {
    let store = crate::store::scale::generated_dump_loaded(20_000);
    let every_third: Vec<u32> = (0..store.len() as u32).filter(|i| i % 3 != 1).collect();
    for search in ["4006", "sfu", "JOIN", "2026-", "no such text"] {
        let f = Filter {
            search: Some(search.to_string()),
            ..Filter::default()
        };
        let whole = store.filter(&f);
        let expected: Vec<u32> = whole.into_iter().filter(|i| i % 3 != 1).collect();
        assert_eq!(store.matching_among(&f, &every_third), expected, "{search}");
        // Cut into slices as a large store's are, however many threads the pool has: a few
        // of sizes that do not divide the rows (the last one shorter), and many small ones.
        for parts in [2, 3, 7, 100] {
            let cut = store.matching_among_in(&f, &every_third, parts);
            assert_eq!(cut, expected, "{search}, in {parts} slices");
        }
        assert_eq!(store.matching_among(&f, &[]), Vec::<u32>::new());
    }
    assert_eq!(
        store.matching_among(&Filter::default(), &every_third),
        every_third
    );
}

#[test]
fn a_group_filter_keeps_only_the_events_of_that_group_even_in_another_store() {
    let demo = || {
        let mut store = Store::new();
        store.merge(crate::source::demo::load());
        store
    };
    let store = demo();
    let all = store.filter(&Filter::default());
    let groups = crate::insight::Groups::compute(
        &store,
        &all,
        GroupKey::Sdk,
        crate::insight::GroupSort::Count,
    );
    let top = groups.group(0);
    let mut f = Filter::default();
    for condition in GroupKey::Sdk.conditions(&store, &top.value) {
        f.require(condition);
    }
    assert_eq!(store.filter(&f).len(), top.count as usize);
    // The same filter, resolved against a store loaded again, selects the same events.
    let again = demo();
    assert_eq!(again.filter(&f), store.filter(&f));
    assert!(f.describe().starts_with("sdk="), "{}", f.describe());
    // Every key's groups, turned into filters, select each group's events.
    for key in GroupKey::ALL {
        let groups =
            crate::insight::Groups::compute(&store, &all, key, crate::insight::GroupSort::Count);
        for g in groups.iter().take(40) {
            let mut f = Filter::default();
            for condition in key.conditions(&store, &g.value) {
                f.require(condition);
            }
            assert_eq!(store.filter(&f).len(), g.count as usize, "{key:?} {f:?}");
        }
    }
}
