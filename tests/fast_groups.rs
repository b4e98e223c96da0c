//! `list --group-by` counted straight off a line-delimited dump or an envelope must print what
//! the full path prints (every event read into a store, then grouped), byte for byte: the same
//! groups, keys, counts, names, times and order, in every format, under any filter, key, sort and
//! `--max`, with the same de-duplication. What it cannot count alike goes the full way.

use callscope::filter::Filter;
use callscope::insight::{GroupKey, GroupSort, Groups};
use callscope::output::Format;
use callscope::source::Source;
use serde_json::Value;

#[path = "fast_path/dumps.rs"]
mod dumps;
use dumps::*;

/// The formats a script reads groups in (a table is left to the full way).
const FORMATS: [Format; 3] = [Format::Json, Format::Ndjson, Format::Csv];

/// What the full path prints: every event loaded into a store, the filter, the first `max`, the
/// grouping.
fn full(
    source: &Source,
    filter: &Filter,
    key: GroupKey,
    sort: GroupSort,
    max: Option<usize>,
    format: Format,
) -> Vec<u8> {
    let (store, problems) = source.load_offline();
    assert!(problems.is_empty(), "{problems:?}");
    let mut rows = store.filter(filter);
    if let Some(max) = max {
        rows.truncate(max);
    }
    let groups = Groups::compute(&store, &rows, key, sort);
    let mut out = Vec::new();
    callscope::insight::write_groups_within(&store, &groups, format, None, &mut out).unwrap();
    out
}

/// What the fast path prints, `None` when it leaves the work to the full path.
fn fast(
    source: &Source,
    filter: &Filter,
    key: GroupKey,
    sort: GroupSort,
    max: Option<usize>,
    format: Format,
) -> Option<Vec<u8>> {
    let (store, groups, problems, _) =
        callscope::app::grouped::groups_of(source, filter, key, sort, max)?;
    assert!(problems.is_empty(), "{problems:?}");
    let mut out = Vec::new();
    callscope::insight::write_groups_within(&store, &groups, format, None, &mut out).unwrap();
    Some(out)
}

/// Events whose agent objects, and other objects and arrays of `data`, repeat with the same bytes
/// (which the fast path reads once and then recognises) or nearly the same: the same agent with
/// its keys in another order, or spelled with escapes; an agent whose own `domain` stands in for
/// the event's, or not; objects that hold what looks like a field but is not one; the same
/// bytes in another place (an agent's bytes as another key's value). Types, codes, rooms, peers
/// and times vary, so that each group key splits them.
fn repeated_objects(events: usize) -> Vec<String> {
    let agents = [
        r#"{"sdk":"web","sdk_version":"0.12.1","device_model":"Chrome 131","os":"macOS","os_version":"15.1","framework":"none","domain":"prod-in2.100ms.live","string":"sdk:web,os:macOS,domain:prod-in2.100ms.live,env:prod"}"#,
        r#"{"os_version":"15.1","os":"macOS","device_model":"Chrome 131","sdk_version":"0.12.1","sdk":"web","framework":"none","domain":"prod-in2.100ms.live","string":"sdk:web,os:macOS,domain:prod-in2.100ms.live,env:prod"}"#,
        r#"{"sdk":"\u0077eb","sdk_version":"0.12.1","device_model":"Chrome 131 \"beta\" \/ \u00e9","os":"macOS","os_version":"15.1","framework":"none","string":"sdk:web,env:qa-in"}"#,
        r#"{"sdk":"android","sdk_version":"2.9.61","device_model":"vivo Y27","os":"Android","os_version":"12","nested":{"room_id":"not-a-room","peer_id":"not-a-peer"},"string":"sdk:android,env:prod"}"#,
        r#"{"sdk":"ios","sdk_version":"1.16.2","device_model":"iPhone 15 Pro","os":"iOS","os_version":"18.0.1","domain":"prod-us2.100ms.live","string":"no env here at all, but long enough"}"#,
    ];
    let values = [
        r#"[{"kind":"camera","label":"FaceTime HD Camera (Built-in)","room_id":"not-a-room"}]"#,
        r#"{"track_id":"8b63f5bb-e26b-4cb7-8117-f3d35b4f796f","settings":{"width":1280,"height":720}}"#,
    ];
    let kinds = [
        "client.join.failed",
        "client.publish.failed",
        "client.disconnected",
    ];
    (0..events)
        .map(|k| {
            let agent = agents[k % agents.len()];
            let value = values[k % values.len()];
            let kind = kinds[k % kinds.len()];
            let (code, name) = [(500, "ServerErrors"), (4006, "ICEDisconnected")][k / 3 % 2];
            let domain = if k % 4 == 0 {
                r#","domain":"own.example""#
            } else {
                ""
            };
            // Now and then the agent's bytes also stand as another key's value, before it.
            let before = if k % 5 == 0 {
                format!(r#""copy":{agent},"#)
            } else {
                String::new()
            };
            format!(
                r#"{{"id":"rep-{k}","timestamp":"2026-11-18T09:{:02}:{:02}.5Z","type":"{kind}","data":{{"room_id":"room-{}","peer_id":"peer-{}","error_code":{code},"error_name":"{name}","is_terminal":{}{domain},{before}"devices":{value},"agent":{agent},"tail":{value}}}}}"#,
                k / 60 % 60,
                k % 60,
                k % 7,
                k % 11,
                k % 3 == 0,
            )
        })
        .collect()
}

/// The dump the property runs on, as NDJSON (two files, the second repeating ids of the first)
/// and as envelopes.
static DUMP: std::sync::LazyLock<(tempfile::TempDir, Vec<Source>, Pool)> =
    std::sync::LazyLock::new(|| {
        let dir = tempfile::tempdir().unwrap();
        let mut lines = varied(generated(1500, 23));
        // Among the generated events, and after them.
        let repeated = repeated_objects(700);
        lines.splice(600..600, repeated[..350].iter().cloned());
        lines.extend_from_slice(&repeated[350..]);
        let again = varied(generated(400, 23));
        let a = write(&dir, "a.ndjson", &lines);
        let b = write(&dir, "b.ndjson", &again);
        let sources = vec![
            Source::Files(vec![a.clone()]),
            Source::Files(vec![write_envelope(&dir, "lines.json", &lines, "\n")]),
            Source::Files(vec![write_envelope(&dir, "one.json", &lines, "")]),
            Source::Files(vec![a, b]),
        ];
        let pool = Pool::of(&lines);
        (dir, sources, pool)
    });

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config {
        cases: 96,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    })]

    /// Any filter, key, sort and `--max`, in every format a script reads: the fast path prints
    /// what the full path prints, and takes every answer that is not empty.
    #[test]
    fn any_grouping_prints_what_the_full_path_prints(
        picks in proptest::collection::vec((0u8..18, 0u16..1000, 0u8..8), 0..3),
        types in proptest::num::u8::ANY,
        terminal in 0u8..3,
        text in 0u16..1000,
        key in 0usize..GroupKey::ALL.len(),
        sort in 0usize..2,
        max in proptest::option::of(1usize..1200),
        format in 0usize..FORMATS.len(),
    ) {
        let (_, sources, pool) = &*DUMP;
        let filter = filter_of(pool, &picks, types, terminal, text);
        let (key, sort, format) = (GroupKey::ALL[key], GroupSort::ALL[sort], FORMATS[format]);
        for source in sources {
            let want = full(source, &filter, key, sort, max, format);
            let got = fast(source, &filter, key, sort, max, format);
            let what = format!("{} by {}, max {max:?}, {format:?}", filter.describe(), key.name());
            match got {
                Some(got) => proptest::prop_assert!(
                    got == want,
                    "{what}:\n{}\nagainst\n{}",
                    String::from_utf8_lossy(&got),
                    String::from_utf8_lossy(&want)
                ),
                // Only an empty answer is left to the full path, which says why it is empty.
                None => {
                    let groups: Value = serde_json::from_slice(
                        &full(source, &filter, key, sort, max, Format::Json),
                    ).unwrap();
                    proptest::prop_assert_eq!(groups, Value::Array(Vec::new()), "{}", what);
                }
            }
        }
    }
}

#[test]
fn every_key_and_sort_of_the_whole_dump_is_counted_by_the_fast_path_alike() {
    let (_, sources, _) = &*DUMP;
    for source in sources {
        for key in GroupKey::ALL {
            for sort in GroupSort::ALL {
                for max in [None, Some(1), Some(777)] {
                    let what = format!("{source:?} by {}, {sort:?}, max {max:?}", key.name());
                    let got = fast(source, &Filter::default(), key, sort, max, Format::Json)
                        .unwrap_or_else(|| panic!("{what}: not counted by the fast path"));
                    let want = full(source, &Filter::default(), key, sort, max, Format::Json);
                    assert!(got == want, "{what}");
                }
            }
        }
    }
}

#[test]
fn a_later_copy_of_an_id_never_counts_even_with_other_content() {
    let dir = tempfile::tempdir().unwrap();
    let event = |id: &str, kind: &str, peer: &str, terminal: bool| {
        format!(
            r#"{{"id":"{id}","timestamp":"2026-11-18T10:00:0{}Z","type":"{kind}","data":{{"room_id":"r","peer_id":"{peer}","is_terminal":{terminal},"error_code":1,"error_name":"E"}}}}"#,
            id.len()
        )
    };
    let lines = vec![
        event("a", "client.join.failed", "p1", false),
        event("bb", "client.join.failed", "p2", false),
        // Copies: another type, peer and finality; and the same id written with an escape,
        // which the fast path leaves to the full one.
        event("a", "client.publish.failed", "p3", true),
        event("bb", "client.join.failed", "p9", true),
    ];
    let path = write(&dir, "copies.ndjson", &lines);
    let source = Source::Files(vec![path]);
    let got = fast(
        &source,
        &Filter::default(),
        GroupKey::Error,
        GroupSort::Count,
        None,
        Format::Ndjson,
    )
    .expect("the fast path counts it");
    let want = full(
        &source,
        &Filter::default(),
        GroupKey::Error,
        GroupSort::Count,
        None,
        Format::Ndjson,
    );
    assert_eq!(
        String::from_utf8_lossy(&got),
        String::from_utf8_lossy(&want)
    );
    let groups: Vec<Value> = got
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    assert_eq!(groups.len(), 1, "{groups:?}");
    assert_eq!(groups[0]["count"], 2);
    assert_eq!(groups[0]["final"], 0);
    assert_eq!(groups[0]["peers"], 2);
}

/// A damaged line, an escaped id or an envelope line: the fast path does not count the dump,
/// and `list --group-by` prints what the full path counts, with the same problems.
#[test]
fn a_dump_the_fast_path_cannot_read_alike_is_grouped_the_full_way() {
    let dir = tempfile::tempdir().unwrap();
    let mut cases: Vec<(String, String)> = damaged_lines()
        .into_iter()
        .map(|(what, damage)| (what.to_string(), damaged_dump(&dir, &damage)))
        .collect();
    let mut escaped = generated(50, 2);
    escaped.push(r#"{"id":"e\u0031","type":"client.join.failed","data":{"room_id":"r1"}}"#.into());
    cases.push((
        "an escaped id".into(),
        write(&dir, "escaped.ndjson", &escaped),
    ));
    // The same agent again and again, one of its strings half a surrogate pair: no text, each
    // time it is met.
    let mut surrogate = repeated_objects(20);
    surrogate.extend((0..3).map(|k| {
        format!(
            r#"{{"id":"s{k}","type":"client.join.failed","data":{{"room_id":"r1","agent":{{"sdk":"web","sdk_version":"0.12.1","device_model":"Chrome \ud800 131","os":"macOS","os_version":"15.1"}}}}}}"#
        )
    }));
    cases.push((
        "an agent that is not text, repeated".into(),
        write(&dir, "surrogate.ndjson", &surrogate),
    ));
    for (what, path) in cases {
        let source = Source::Files(vec![path.clone()]);
        let (store, problems) = source.load_offline();
        for key in [GroupKey::Error, GroupKey::Room] {
            assert!(
                callscope::app::grouped::groups_of(
                    &source,
                    &Filter::default(),
                    key,
                    GroupSort::Count,
                    None
                )
                .is_none(),
                "{what}: left to the full way"
            );
            let out = assert_cmd::Command::new(env!("CARGO_BIN_EXE_callscope"))
                .args(["list", &path, "--format", "json", "--group-by", key.name()])
                .output()
                .unwrap();
            let rows = store.filter(&Filter::default());
            let groups = Groups::compute(&store, &rows, key, GroupSort::Count);
            let mut want = Vec::new();
            callscope::insight::write_groups_within(&store, &groups, Format::Json, None, &mut want)
                .unwrap();
            assert_eq!(
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&want),
                "{what}"
            );
            let code = if problems.is_empty() { 0 } else { 2 };
            assert_eq!(out.status.code(), Some(code), "{what}");
        }
    }
}

/// `list --group-by` as a script runs it prints the fast path's groups; a table and `--redact`
/// go the full way (the table draws each group's activity over time, and redacting names
/// replaces them), and print what the full path prints.
#[test]
fn list_group_by_prints_the_fast_groups_and_leaves_tables_and_redaction_to_the_full_way() {
    let (_, sources, _) = &*DUMP;
    let Source::Files(files) = &sources[0] else {
        unreachable!()
    };
    let path = &files[0];
    let run = |args: &[&str]| {
        let out = assert_cmd::Command::new(env!("CARGO_BIN_EXE_callscope"))
            .args(["list", path])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        out.stdout
    };
    let filter = Filter {
        terminal: Some(true),
        ..Filter::default()
    };
    for (key, format, name) in [
        (GroupKey::Error, Format::Json, "json"),
        (GroupKey::Peer, Format::Csv, "csv"),
        (GroupKey::Room, Format::Ndjson, "ndjson"),
    ] {
        let printed = run(&[
            "--group-by",
            key.name(),
            "--format",
            name,
            "--terminal",
            "--max",
            "900",
        ]);
        let fast = fast(
            &sources[0],
            &filter,
            key,
            GroupSort::Count,
            Some(900),
            format,
        );
        assert_eq!(Some(printed), fast, "{}", key.name());
    }
    // A table: the activity column has a sparkline, which only the full way draws.
    let table = String::from_utf8(run(&["--group-by", "error", "--format", "table"])).unwrap();
    assert!(table.contains("ACTIVITY"), "{table}");
    let want = full(
        &sources[0],
        &Filter::default(),
        GroupKey::Error,
        GroupSort::Count,
        None,
        Format::Table,
    );
    assert_eq!(table, String::from_utf8(want).unwrap());
    // Redacted: user names are pseudonyms, as the full way writes them.
    let redacted = run(&["--group-by", "peer", "--format", "json", "--redact"]);
    let (store, _) = sources[0].load_offline();
    let rows = store.filter(&Filter::default());
    let redacted_store = callscope::redact::redacted_store(&store, &rows).unwrap();
    let all: Vec<u32> = (0..redacted_store.len() as u32).collect();
    let groups = Groups::compute(&redacted_store, &all, GroupKey::Peer, GroupSort::Count);
    let mut want = Vec::new();
    callscope::insight::write_groups_within(
        &redacted_store,
        &groups,
        Format::Json,
        None,
        &mut want,
    )
    .unwrap();
    assert_eq!(redacted, want);
    assert_ne!(
        redacted,
        fast(
            &sources[0],
            &Filter::default(),
            GroupKey::Peer,
            GroupSort::Count,
            None,
            Format::Json
        )
        .unwrap(),
        "the names are replaced"
    );
}

/// On stdin and on a gzip'd file, the groups are counted as the stream comes (holding the groups,
/// not the events), and print what they print on the file itself.
#[test]
fn group_by_on_stdin_and_on_a_gzip_file_prints_what_it_prints_on_the_file() {
    use std::io::Write as _;
    let dir = tempfile::tempdir().unwrap();
    let mut lines = varied(generated(2000, 9));
    // Copies of ids across the whole stream, the later ones with other content.
    lines.extend(varied(generated(300, 9)));
    let path = write(&dir, "a.ndjson", &lines);
    let bytes = std::fs::read(&path).unwrap();
    let gz_path = dir.path().join("a.ndjson.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&bytes).unwrap();
    std::fs::write(&gz_path, gz.finish().unwrap()).unwrap();
    let gz_path = gz_path.display().to_string();
    for args in [
        &["--group-by", "error", "--format", "json"][..],
        &["--group-by", "peer", "--format", "csv", "--max", "1500"],
        &["--group-by", "room", "--format", "ndjson", "--type", "join"],
        &["--group-by", "env", "--format", "json", "--terminal"],
        &["--group-by", "sdk", "--format", "json", "--sort", "last"],
        &[
            "--group-by",
            "error",
            "--format",
            "json",
            "--room",
            "no-such-room",
        ],
        // Nothing matches, and why is told: a room given by its name (in another case), a
        // range of time that misses every event; then a range that holds some.
        &[
            "--group-by",
            "peer",
            "--format",
            "json",
            "--room",
            "WEEKLY-ALLHANDS",
        ],
        &[
            "--group-by",
            "error",
            "--format",
            "csv",
            "--since",
            "2099-01-01T00:00:00Z",
        ],
        &[
            "--group-by",
            "room",
            "--format",
            "json",
            "--until",
            "2026-11-18T08:30:00Z",
        ],
    ] {
        let on_file = list(&path, b"", args);
        assert_eq!(on_file.0, Some(0), "{args:?}: {}", on_file.2);
        let none = ["no-such-room", "WEEKLY-ALLHANDS", "2099-01-01T00:00:00Z"];
        assert!(
            on_file.1.len() > 4 || args.iter().any(|a| none.contains(a)),
            "{args:?}"
        );
        if args.contains(&"WEEKLY-ALLHANDS") {
            assert!(on_file.2.contains("has the id"), "{}", on_file.2);
        }
        if args.contains(&"2099-01-01T00:00:00Z") {
            assert!(on_file.2.contains("the events read span"), "{}", on_file.2);
        }
        assert_eq!(list("-", &bytes, args), on_file, "stdin, {args:?}");
        assert_eq!(list(&gz_path, b"", args), on_file, "gzip, {args:?}");
    }
}

#[test]
fn group_by_on_a_damaged_stdin_reports_what_the_full_way_reports() {
    let dir = tempfile::tempdir().unwrap();
    for (what, damage) in damaged_lines() {
        let bytes = std::fs::read(damaged_dump(&dir, &damage)).unwrap();
        for args in [
            &["--group-by", "error", "--format", "json"][..],
            &["--group-by", "room", "--format", "csv", "--room", "r1"],
        ] {
            // A bound in time that every event is within: read the full way.
            let bounded = [args, &["--since", "2000-01-01T00:00:00Z"]].concat();
            let full = list("-", &bytes, &bounded);
            assert_eq!(full.0, Some(2), "{what}");
            assert!(full.2.contains("<stdin>:2:"), "{what}: {}", full.2);
            assert!(full.2.contains("readable event"), "{what}: {}", full.2);
            assert_eq!(list("-", &bytes, args), full, "{what}, {args:?}");
        }
    }
}
