//! Merging batches: duplicates dropped by id, the first copy kept, events without an id all
//! kept, empty stores and batches.

use super::*;

fn descriptions(store: &Store) -> Vec<String> {
    (0..store.len())
        .map(|i| {
            store
                .event(i)
                .data_str("error_description")
                .unwrap_or("")
                .to_string()
        })
        .collect()
}

const C: &str = "2a3b4c5d-6e7f-4a8b-8c9d-2e3f4a5b6c7d";

#[test]
fn merging_pages_drops_events_already_loaded_and_keeps_the_first_copy() {
    let mut store = Store::new();
    let page1 = format!("{}\n{}\n", event(A, "a1", "r1"), event(B, "b first", "r1"));
    let page2 = format!("{}\n{}\n", event(B, "b second", "r2"), event(C, "c1", "r2"));
    let m1 = store.merge(batch(&page1));
    assert_eq!(
        m1,
        Merged {
            first: 0,
            added: 2,
            duplicates: 0
        }
    );
    let m2 = store.merge(batch(&page2));
    assert_eq!(
        m2,
        Merged {
            first: 2,
            added: 1,
            duplicates: 1
        }
    );
    assert_eq!(store.len(), 3);
    assert_eq!(store.duplicates(), 1);
    assert_eq!(descriptions(&store), ["a1", "b first", "c1"]);
    assert_eq!(store.str(store.row(1).room_id), "r1");
    assert_eq!(store.str(store.row(2).room_id), "r2");
}

#[test]
fn duplicates_inside_one_batch_are_dropped_too() {
    let mut store = Store::new();
    let text = format!(
        "{}\n{}\n{}\n",
        event(A, "one", "r"),
        event(A, "two", "r"),
        event(B, "three", "r")
    );
    let m = store.merge(batch(&text));
    assert_eq!(m.added, 2);
    assert_eq!(m.duplicates, 1);
    assert_eq!(descriptions(&store), ["one", "three"]);
}

#[test]
fn the_same_page_merged_twice_adds_nothing_the_second_time() {
    let mut store = Store::new();
    let text = format!("{}\n{}\n", event(A, "a", "r"), event(B, "b", "r"));
    store.merge(batch(&text));
    let again = store.merge(batch(&text));
    assert_eq!(
        again,
        Merged {
            first: 2,
            added: 0,
            duplicates: 2
        }
    );
    assert_eq!(store.len(), 2);
}

#[test]
fn ids_are_equal_only_when_their_strings_are() {
    let mut store = Store::new();
    let upper = A.to_uppercase();
    let text = [
        event(A, "lower", "r"),
        event(&upper, "upper", "r"),
        event("evt-17", "text id", "r"),
        event("evt-17", "text id again", "r"),
        event("evt-17 ", "text id with a space", "r"),
    ]
    .join("\n");
    store.merge(batch(&text));
    assert_eq!(
        descriptions(&store),
        ["lower", "upper", "text id", "text id with a space"]
    );
    assert_eq!(IdKey::of(Some(A)), IdKey::of(Some(A)));
    assert_ne!(IdKey::of(Some(A)), IdKey::of(Some(&upper)));
    assert_eq!(IdKey::of(None), IdKey::Absent);
}

#[test]
fn events_without_an_id_are_all_kept() {
    let mut store = Store::new();
    let no_id = r#"{"type":"client.join.failed","data":{"room_id":"r"}}"#;
    let numeric_id = r#"{"id":17,"type":"client.join.failed","data":{"room_id":"r"}}"#;
    store.merge(batch(&format!("{no_id}\n{no_id}\n{numeric_id}\n")));
    store.merge(batch(&format!("{no_id}\n")));
    assert_eq!(store.len(), 4);
    assert_eq!(store.duplicates(), 0);
}

#[test]
fn an_empty_store_and_an_empty_batch() {
    let mut store = Store::new();
    assert!(store.is_empty());
    let empty = batch("");
    assert!(empty.is_empty());
    assert_eq!(
        store.merge(empty),
        Merged {
            first: 0,
            added: 0,
            duplicates: 0
        }
    );
    assert!(store.is_empty());
    assert!(store.filter(&crate::filter::Filter::default()).is_empty());
}
