//! Tests of the store. The fixtures and helpers the themes share are here; each module below
//! holds the tests of one theme.

use std::sync::Arc;

use super::batch::LONG_TRIAL;
use super::*;
use crate::event::Field;
use crate::generator::ndjson_lines as generated_lines;
use crate::time::parse_rfc3339_nanos;

mod brief;
mod interning;
mod long_values;
mod merging;
mod reuse;
mod rows;
mod search;
mod search_fast;

const QUIRKS: &str = include_str!("../../../tests/fixtures/quirks.ndjson");
const HOSTILE: &str = include_str!("../../../tests/fixtures/hostile.ndjson");

/// A batch of the JSON objects in `text`, one per line (blank lines skipped), read from one
/// owned blob as a dump would be.
fn batch(text: &str) -> Batch {
    filled(BatchBuilder::new(blob_of(text)), text).finish()
}

fn blob_of(text: &str) -> Arc<Blob> {
    Arc::new(Blob::Owned(text.as_bytes().to_vec()))
}

/// `builder`, whose blob holds `text`, with the JSON objects in `text` pushed, one per line.
fn filled(mut builder: BatchBuilder, text: &str) -> BatchBuilder {
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_end();
        if !trimmed.trim().is_empty() {
            builder.push(start, start + trimmed.len()).unwrap();
        }
        start += line.len();
    }
    builder
}

/// An event line with the given id, description and room.
fn event(id: &str, description: &str, room: &str) -> String {
    format!(
        r#"{{"version":"2.0","id":"{id}","timestamp":"2024-11-18T10:00:00.000000001Z","type":"client.join.failed","data":{{"room_id":"{room}","peer_id":"p-{id}","error_code":500,"error_name":"ServerErrors","error_description":"{description}","is_terminal":true,"action":"JOIN"}}}}"#
    )
}

const A: &str = "0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b";
const B: &str = "1f2a3b4c-5d6e-4f7a-9b0c-1d2e3f4a5b6c";

/// Events that index differently from the generator's: duplicated keys with other values, an
/// escaped key, escaped values, an escape that is not text, nested values, a description too far
/// into its event to be located, values in arrays.
fn tricky_events() -> Vec<String> {
    let far = format!(
        r#"{{"id":"far","pad":"{}","data":{{"error_description":"Beyond The Reach","room_id":"r1"}}}}"#,
        "p".repeat(70_000)
    );
    vec![
        r#"{"id":"dup","type":"client.join.failed","data":{"room_id":"first-room","room_id":"second-room","agent":{"os":"Plan9","os":"Haiku"}}}"#.to_string(),
        r#"{"id":"esc-key","d\u0061ta":{"room_id":"hidden-room","user_name":"Zoë"}}"#.to_string(),
        r#"{"id":"esc-val","type":"client.\u006aoin.failed","data":{"room_id":"r\u00f6\u00f6m","error_description":"line\nbreak \"Quoted\" Ωmega","user_name":"O\u212a"}}"#.to_string(),
        r#"{"id":"not-text","data":{"note":"a \ud800 b","room_id":"r2"}}"#.to_string(),
        r#"{"id":"nested","data":{"tracks":[{"kind":"video","label":"Front Camera"},"loose"],"agent":{"sdk":"ios","extra":{"chip":"A17 Pro"}},"domain":"d.example"}}"#.to_string(),
        r#"{"id":"agent-domain","data":{"domain":"data.example","agent":{"domain":"agent.example","string":"sdk:web,env:qa"}}}"#.to_string(),
        r#"{"data":{"error_description":"no id at all","description":"x"},"timestamp":"not a time","timestamp":"2024-01-01T00:00:00Z"}"#.to_string(),
        far,
        r#"{"id":"esc-agent","data":{"agent":{"string":"sdk:w\u0065b,env:st\u0061ge"}}}"#.to_string(),
        r#"{"id":"dup-agent","data":{"agent":{"string":"a1","string":"b2"}}}"#.to_string(),
        r#"{"id":"num-agent","data":{"agent":{"string":5,"sdk":"x"}}}"#.to_string(),
        r#"{"id":"str-agent","data":{"agent":"plain agent"}}"#.to_string(),
    ]
}

/// Search texts drawn from the events' own values (whole, a middle slice, another case), their
/// keys, and some that appear nowhere.
fn needles_of(lines: &[String]) -> Vec<String> {
    fn strings(v: &serde_json::Value, keys: &mut Vec<String>, out: &mut Vec<String>) {
        match v {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, keys, out)),
            serde_json::Value::Object(o) => {
                for (k, x) in o {
                    keys.push(k.clone());
                    strings(x, keys, out);
                }
            }
            _ => {}
        }
    }
    let mut values = Vec::new();
    let mut keys = Vec::new();
    for line in lines {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(line) {
            strings(&v, &mut keys, &mut values);
        }
    }
    let mut out: Vec<String> = [
        "500",
        "2024-11",
        "T10:",
        "Z",
        "4c5d",
        "-",
        "ice",
        "Plan9",
        "haiku",
        "second-room",
        "first-room",
        "hidden",
        "RÖÖM",
        "ok",
        "\"quoted\"",
        "ΩMEGA",
        "front camera",
        "loose",
        "A17",
        "agent.example",
        "env:qa",
        "reach",
        "nowhere at all",
        "room_id",
        "data",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for v in values {
        let chars: Vec<char> = v.chars().collect();
        let mid = chars.len() / 2;
        out.push(
            chars[mid.saturating_sub(2)..(mid + 2).min(chars.len())]
                .iter()
                .collect(),
        );
        out.push(v.to_uppercase());
        out.push(v);
    }
    out.extend(keys);
    out.retain(|n| !n.is_empty() && n.len() < 200);
    out.sort();
    out.dedup();
    out
}

fn assert_search_is_exact(store: &Store, needles: &[String]) {
    for n in needles {
        let needle = Needle::new(n);
        let want: Vec<u32> = (0..store.len())
            .filter(|&i| needle.matches_json(store.raw(i)))
            .map(|i| i as u32)
            .collect();
        let filter = crate::filter::Filter {
            search: Some(n.clone()),
            ..crate::filter::Filter::default()
        };
        assert_eq!(store.filter(&filter), want, "search for {n:?}");
    }
}

/// Generated events, then the quirky, hostile and tricky ones.
fn generated_and_odd(events: usize, seed: u64) -> Vec<String> {
    let mut lines = generated_lines(events, seed);
    lines.extend(QUIRKS.lines().chain(HOSTILE.lines()).map(str::to_string));
    lines.extend(tricky_events());
    lines
}

/// `json` written again with the members of each object shuffled by `seed` (keys in another
/// order, values as they were).
fn shuffled(json: &serde_json::Value, seed: &mut u64) -> String {
    match json {
        serde_json::Value::Object(map) => {
            let mut members: Vec<String> = map
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{}:{}",
                        serde_json::to_string(k).unwrap(),
                        shuffled(v, seed)
                    )
                })
                .collect();
            for i in (1..members.len()).rev() {
                // xorshift64
                *seed ^= *seed << 13;
                *seed ^= *seed >> 7;
                *seed ^= *seed << 17;
                members.swap(i, (*seed % (i as u64 + 1)) as usize);
            }
            format!("{{{}}}", members.join(","))
        }
        other => other.to_string(),
    }
}

/// Generated events with the keys of each object in a new order in every event.
fn shuffled_lines(events: usize, seed: u64) -> Vec<String> {
    generated_lines(events, seed)
        .iter()
        .enumerate()
        .map(|(n, line)| shuffled(&serde_json::from_str(line).unwrap(), &mut (n as u64 + 1)))
        .collect()
}
