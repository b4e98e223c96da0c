//! A save, as the explorer makes it (the loaded or the shown events, as JSON or NDJSON, written
//! atomically), re-opens to the same events: the same bytes, in the same order. A property over
//! random selections of generated events and of events in shapes the generator never writes.

use callscope::output::{Format, Head, write_atomically, write_events};
use callscope::source::Source;

/// Generated events, and a few odd ones: unknown fields, nulls, escapes, big numbers, a
/// missing id, other types.
fn events() -> Vec<String> {
    let mut out = Vec::new();
    callscope::generator::write_ndjson(&mut out, 300, 17).unwrap();
    let mut lines: Vec<String> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    lines.extend([
        r#"{"id":"odd-1","type":"track.add.success","data":{"x":null,"n":12345678901234567890123,"s":"\u00e9\u0000\ud83d\ude00"}}"#.to_string(),
        r#"{"type":"client.join.failed","timestamp":"2026-11-18T10:00:00.000000001Z","data":{"room_id":"no-id"}}"#.to_string(),
        r#"{"id":"odd-2","version":"2.0","unknown":{"nested":[1,2.50,{"k":"v"}]},"data":{"error_code":-1.5e3}}"#.to_string(),
    ]);
    lines
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config {
        cases: 48,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    })]

    #[test]
    fn a_save_reopens_to_the_same_events(
        picks in proptest::collection::vec(proptest::num::usize::ANY, 0..60),
        ndjson in proptest::bool::ANY,
    ) {
        let lines = events();
        let dir = tempfile::tempdir().unwrap();
        let all = dir.path().join("all.ndjson");
        std::fs::write(&all, lines.join("\n")).unwrap();
        let (store, problems) = Source::Files(vec![all.display().to_string()]).load_offline();
        proptest::prop_assert!(problems.is_empty(), "{problems:?}");
        // A selection in store order, as the shown events are, or all of them.
        let mut rows: Vec<u32> = picks.iter().map(|p| (p % store.len()) as u32).collect();
        rows.sort();
        rows.dedup();
        if picks.is_empty() {
            rows = (0..store.len() as u32).collect();
        }
        let (name, format) = if ndjson { ("save.ndjson", Format::Ndjson) } else { ("save.json", Format::Json) };
        let saved = dir.path().join(name);
        write_atomically(&saved, |out| write_events(&store, &rows, format, &Head::whole(rows.len()), out)).unwrap();
        let (again, problems) = Source::Files(vec![saved.display().to_string()]).load_offline();
        proptest::prop_assert!(problems.is_empty(), "{problems:?}");
        let want: Vec<&[u8]> = rows.iter().map(|&i| store.raw(i as usize)).collect();
        let got: Vec<&[u8]> = (0..again.len()).map(|i| again.raw(i)).collect();
        proptest::prop_assert_eq!(got, want);
    }
}
