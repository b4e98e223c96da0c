//! The dumps the fast-path tests read: generated events, the same rewritten in the shapes the
//! generator never writes, as NDJSON or one envelope; damaged lines; and filters drawn over the
//! values the events hold.

// Each test file is its own crate and uses a part of this module.
#![allow(dead_code)]

use std::io::Write;

use callscope::event::{EventType, Field};
use callscope::filter::{Filter, TimeBound};
use serde_json::{Map, Value};

pub fn generated(events: usize, seed: u64) -> Vec<String> {
    let mut out = Vec::new();
    callscope::generator::write_ndjson(&mut out, events, seed).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Rewrites some lines so that they differ from the generator's habits.
pub fn varied(lines: Vec<String>) -> Vec<String> {
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

pub fn write(dir: &tempfile::TempDir, name: &str, lines: &[String]) -> String {
    let path = dir.path().join(name);
    let mut f = std::fs::File::create(&path).unwrap();
    for l in lines {
        writeln!(f, "{l}").unwrap();
    }
    path.display().to_string()
}

/// The events of `lines` as one envelope, as `list --format json` writes it (one event a line,
/// `layout` between them: `"\n"` as written, `""` for one line, other whitespace), blank lines
/// left out.
pub fn write_envelope(
    dir: &tempfile::TempDir,
    name: &str,
    lines: &[String],
    layout: &str,
) -> String {
    let events: Vec<&str> = lines
        .iter()
        .map(|l| l.as_str())
        .filter(|l| !l.trim().is_empty())
        .collect();
    let n = events.len();
    let text = format!(
        "{{\"limit\":{n},\"total\":{n},\"next\":\"\",\"events\":[{layout}{}{layout}]}}\n",
        events.join(&format!(",{layout}"))
    );
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

pub fn bound(text: &str) -> TimeBound {
    TimeBound {
        text: text.to_string(),
        nanos: callscope::time::parse_rfc3339_nanos(text).unwrap(),
    }
}

/// The values of every field that the events hold, for filters that select something.
pub struct Pool {
    pub values: Vec<(Field, Vec<String>)>,
    pub types: Vec<String>,
    pub times: Vec<String>,
    pub words: Vec<String>,
}

impl Pool {
    pub fn of(lines: &[String]) -> Pool {
        let mut values: Vec<(Field, Vec<String>)> =
            Field::ALL.iter().map(|&f| (f, Vec::new())).collect();
        let mut types = Vec::new();
        let mut times = Vec::new();
        let mut words = Vec::new();
        for line in lines.iter().filter(|l| !l.trim().is_empty()) {
            let v: Value = serde_json::from_str(line).unwrap();
            let data = &v["data"];
            let agent = &data["agent"];
            for (field, found) in values.iter_mut() {
                let value = match field {
                    Field::Type => v["type"].clone(),
                    Field::Code => data["error_code"].clone(),
                    Field::Sdk | Field::SdkVersion | Field::Os | Field::OsVersion => {
                        agent[field.json_name()].clone()
                    }
                    Field::Device => agent["device_model"].clone(),
                    Field::Env => agent["string"]
                        .as_str()
                        .and_then(callscope::event::agent_string_env)
                        .map_or(Value::Null, |e| Value::String(e.into())),
                    other => data[other.json_name()].clone(),
                };
                let text = match value {
                    Value::String(s) => s,
                    Value::Number(n) => n.to_string(),
                    _ => continue,
                };
                if !found.contains(&text) && found.len() < 40 {
                    found.push(text);
                }
            }
            if let Some(t) = v["type"].as_str()
                && !types.iter().any(|x| x == t)
            {
                types.push(t.to_string());
            }
            if let Some(t) = v["timestamp"].as_str()
                && times.len() < 200
            {
                times.push(t.to_string());
            }
            if let Some(d) = data["error_description"].as_str()
                && words.len() < 200
            {
                words.extend(d.split_whitespace().take(2).map(str::to_string));
            }
            // Numbers are searched as written: a code, a count, and a part of one.
            for number in [&data["error_code"], &data["retries_join"]] {
                if let Some(n) = number.as_i64()
                    && words.len() < 200
                {
                    let text = n.to_string();
                    if text.len() > 1 {
                        words.push(text[1..].to_string());
                    }
                    words.push(text);
                }
            }
        }
        Pool {
            values,
            types,
            times,
            words,
        }
    }
}

/// A filter over any of the fields, built from choices drawn by proptest: each choice picks a
/// value seen in the data (or none, or one never seen) and whether it is negated, or hidden
/// together with the others so chosen.
pub fn filter_of(
    pool: &Pool,
    picks: &[(u8, u16, u8)],
    types: u8,
    terminal: u8,
    text: u16,
) -> Filter {
    let mut filter = Filter::default();
    let mut together = Vec::new();
    for &(field, value, how) in picks {
        let (field, seen) = &pool.values[field as usize % pool.values.len()];
        let value = match (how % 4, seen.is_empty()) {
            (0, _) => None,
            (1, _) => Some(format!("never-{value}")),
            (_, true) => None,
            _ => Some(seen[value as usize % seen.len()].clone()),
        };
        let condition = callscope::filter::Condition {
            field: *field,
            value,
            negate: how >= 4,
        };
        // The last choices hide values of several fields together, as `!` on a group does.
        if how >= 6 {
            together.push(callscope::filter::Condition {
                negate: false,
                ..condition
            });
        } else {
            filter.add(condition);
        }
    }
    filter.hide(together);
    for (k, t) in pool.types.iter().enumerate() {
        if types & (1 << (k % 8)) != 0 {
            filter.types.push(EventType::from_name(t));
        }
    }
    filter.types.sort();
    filter.types.dedup();
    filter.terminal = [None, Some(true), Some(false)][terminal as usize % 3];
    match text % 8 {
        0 => filter.search = Some(pool.words[text as usize % pool.words.len()].to_uppercase()),
        1 => {
            let t = &pool.times[text as usize % pool.times.len()];
            filter.since = Some(bound(t));
        }
        2 => {
            let t = &pool.times[text as usize % pool.times.len()];
            filter.until = Some(bound(t));
        }
        _ => {}
    }
    filter
}

/// Lines damaged in ways that still start with `{` and end with `}`, each with the room `r2`
/// (which a filter on the room `r1` or a type the line does not hold never needs to parse).
pub fn damaged_lines() -> Vec<(&'static str, Vec<u8>)> {
    let head = br#"{"id":"b","timestamp":"2026-11-18T10:00:01Z","type":"client.join.failed","data":{"room_id":""#;
    let with = |middle: &[u8], tail: &[u8]| {
        let mut line = head.to_vec();
        line.extend_from_slice(middle);
        line.extend_from_slice(tail);
        line
    };
    vec![
        ("half a surrogate pair", with(br"r2\ud800", br#""}}"#)),
        ("a lone low surrogate", with(br"r2\udc00x", br#""}}"#)),
        ("an invalid escape", with(br"r2\q", br#""}}"#)),
        ("invalid UTF-8", with(b"r2\xff\xfe", br#""}}"#)),
        ("a cut \\u escape", with(br"r2\u12", br#""}}"#)),
        ("a missing colon", with(b"r2", br#"","x" 1}}"#)),
        ("a bare word", with(b"r2", br#"","x":nope}}"#)),
        ("a brace too many", with(b"r2", br#""}}}"#)),
        ("a missing comma", with(b"r2", br#"" "x":1}}"#)),
        ("a number cut short", with(b"r2", br#"","x":1.}}"#)),
    ]
}

pub fn damaged_dump(dir: &tempfile::TempDir, damage: &[u8]) -> String {
    let good = |id: &str, room: &str| {
        format!(
            r#"{{"id":"{id}","timestamp":"2026-11-18T10:00:00Z","type":"client.join.failed","data":{{"room_id":"{room}","peer_id":"p1"}}}}"#
        )
    };
    let mut text = format!("{}\n", good("a", "r1")).into_bytes();
    text.extend_from_slice(damage);
    text.extend_from_slice(format!("\n{}\n", good("c", "r1")).as_bytes());
    let path = dir.path().join("damaged.ndjson");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// `list PATH ARGS` run on the binary (`-` for stdin, fed `stdin`): its status, stdout and
/// stderr.
pub fn list(path: &str, stdin: &[u8], args: &[&str]) -> (Option<i32>, String, String) {
    let out = assert_cmd::Command::new(env!("CARGO_BIN_EXE_callscope"))
        .args(["list", path])
        .args(args)
        .write_stdin(stdin.to_vec())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}
