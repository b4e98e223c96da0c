//! The fast path for line-delimited dumps must select exactly what the full path selects: the
//! same events, the same bytes, in the same order, with the same de-duplication. Checked on
//! generated data and on variations the generator never writes (other field orders, escaped
//! values, duplicated ids with other content, blank lines, envelope lines).

use std::io::Write;

use callscope::cli::SourceArgs;
use callscope::commands::{load_offline, select_offline, select_offline_spans};
use callscope::event::EventType;
use callscope::filter::{Filter, TimeBound};
use callscope::store::Store;
use serde_json::{Map, Value};

fn generated(events: usize, seed: u64) -> Vec<String> {
    let mut out = Vec::new();
    callscope::generator::write_ndjson(&mut out, events, seed).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Rewrites some lines so that they differ from the generator's habits.
fn varied(lines: Vec<String>) -> Vec<String> {
    let mut out = Vec::new();
    for (k, line) in lines.into_iter().enumerate() {
        let mut v: Map<String, Value> = serde_json::from_str(&line).unwrap();
        match k % 7 {
            // Keys in reverse order, `data` before `id`.
            0 => {
                let reversed: Map<String, Value> = v.into_iter().rev().collect();
                out.push(serde_json::to_string(&reversed).unwrap());
            }
            // The room id spelled with a \u escape.
            1 => {
                let room = v["data"]["room_id"].as_str().unwrap_or("").to_string();
                let text = serde_json::to_string(&v).unwrap();
                if let Some(first) = room.chars().next() {
                    let escaped = format!("\\u{:04x}{}", first as u32, &room[first.len_utf8()..]);
                    out.push(text.replacen(&format!("\"{room}\""), &format!("\"{escaped}\""), 1));
                } else {
                    out.push(text);
                }
            }
            // A longer description with quotes and a backslash.
            2 => {
                if let Some(data) = v.get_mut("data").and_then(Value::as_object_mut) {
                    data.insert(
                        "error_description".into(),
                        Value::String(format!("{} \"quoted\" C:\\path {}", "x".repeat(900), k)),
                    );
                }
                out.push(serde_json::to_string(&v).unwrap());
            }
            // The same id again later, with other content (the first copy must win).
            3 => {
                let first = serde_json::to_string(&v).unwrap();
                if let Some(data) = v.get_mut("data").and_then(Value::as_object_mut) {
                    data.insert(
                        "room_id".into(),
                        Value::String("673a1f2c9e4b8d0a5c7e3f21".into()),
                    );
                    data.insert("is_terminal".into(), Value::Bool(true));
                }
                v.insert("type".into(), Value::String("client.join.failed".into()));
                out.push(first);
                out.push(String::new());
                out.push(format!("  {}  ", serde_json::to_string(&v).unwrap()));
            }
            // Everything but ASCII escaped, as Python's json module writes, and the type too.
            4 => {
                let mut text = String::new();
                for c in line.chars() {
                    if c.is_ascii() {
                        text.push(c);
                    } else {
                        for unit in c.encode_utf16(&mut [0; 2]) {
                            text.push_str(&format!("\\u{unit:04x}"));
                        }
                    }
                }
                out.push(text.replacen("\"client.", "\"\\u0063lient.", 1));
            }
            _ => out.push(line),
        }
    }
    out
}

fn write(dir: &tempfile::TempDir, name: &str, lines: &[String]) -> String {
    let path = dir.path().join(name);
    let mut f = std::fs::File::create(&path).unwrap();
    for l in lines {
        writeln!(f, "{l}").unwrap();
    }
    path.display().to_string()
}

fn selected(store: &Store, rows: &[u32]) -> Vec<Vec<u8>> {
    rows.iter()
        .map(|&i| store.raw(i as usize).to_vec())
        .collect()
}

fn bound(text: &str) -> TimeBound {
    TimeBound {
        text: text.to_string(),
        nanos: callscope::time::parse_rfc3339_nanos(text).unwrap(),
    }
}

fn filters() -> Vec<Filter> {
    let room = "673a1f2c9e4b8d0a5c7e3f21".to_string();
    vec![
        Filter::default(),
        Filter {
            types: vec![EventType::Join],
            room: Some(room.clone()),
            ..Filter::default()
        },
        Filter {
            types: vec![EventType::Join, EventType::Publish],
            ..Filter::default()
        },
        Filter {
            room: Some(room.clone()),
            terminal: Some(true),
            ..Filter::default()
        },
        Filter {
            types: vec![EventType::Connect],
            code: Some(2003),
            ..Filter::default()
        },
        Filter {
            peer: Some("3f6b2a9e-8c41-4d7a-9b25-e0c4d1f7a863".into()),
            ..Filter::default()
        },
        Filter {
            room: Some("no-such-room".into()),
            ..Filter::default()
        },
        Filter {
            search: Some("galaxy a14".into()),
            ..Filter::default()
        },
        Filter {
            types: vec![EventType::Disconnected],
            since: Some(bound("2026-11-18T09:30:00Z")),
            until: Some(bound("2026-11-18T11:00:00.5Z")),
            ..Filter::default()
        },
        Filter {
            types: vec![EventType::Other("track.add.success".into())],
            ..Filter::default()
        },
    ]
}

fn assert_same(files: Vec<String>) {
    let source = SourceArgs {
        files,
        ..SourceArgs::default()
    };
    let (plain_store, problems) = load_offline(&source);
    assert!(problems.is_empty(), "{problems:?}");
    for filter in filters() {
        let plain = selected(&plain_store, &plain_store.filter(&filter));
        let (store, problems, rows) = select_offline(&source, &filter);
        assert!(problems.is_empty());
        let fast = selected(&store, &rows);
        assert_eq!(
            fast.len(),
            plain.len(),
            "count differs for {}",
            filter.describe()
        );
        assert!(
            fast == plain,
            "bytes or order differ for {}",
            filter.describe()
        );
        // The selection without a store, for the formats that copy each event's JSON (none when
        // a file is not line-delimited).
        let Some(spans) = select_offline_spans(&source, &filter) else {
            continue;
        };
        let copied: Vec<Vec<u8>> = spans.raws().map(<[u8]>::to_vec).collect();
        assert!(
            copied == plain,
            "the span selection differs for {} ({} events against {})",
            filter.describe(),
            copied.len(),
            plain.len()
        );
    }
}

#[test]
fn the_fast_path_equals_the_full_path_on_generated_data() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(&dir, "a.ndjson", &generated(3000, 11));
    assert_same(vec![a]);
}

#[test]
fn the_fast_path_equals_the_full_path_on_other_field_orders_escapes_and_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(&dir, "a.ndjson", &varied(generated(2500, 3)));
    let b = write(&dir, "b.ndjson", &varied(generated(800, 3)));
    // These files do take the fast path (the comparison would prove nothing otherwise).
    let blobs = [&a, &b]
        .iter()
        .map(|p| {
            let blob = callscope::source::dump::map_plain_file(std::path::Path::new(p));
            std::sync::Arc::new(blob.expect("a plain file"))
        })
        .collect();
    assert!(callscope::source::ndjson::select(blobs, &Filter::default()).is_ok());
    let source = SourceArgs {
        files: vec![a.clone(), b.clone()],
        ..SourceArgs::default()
    };
    assert!(select_offline_spans(&source, &Filter::default()).is_some());
    assert_same(vec![a, b]);
}

#[test]
fn a_file_with_an_envelope_line_is_read_the_full_way_with_the_same_result() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = generated(300, 5);
    let envelope: Vec<Value> = generated(20, 6)
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    lines.insert(
        100,
        serde_json::json!({"limit": 20, "total": 20, "next": "", "events": envelope}).to_string(),
    );
    let a = write(&dir, "a.ndjson", &lines);
    assert_same(vec![a]);
}
