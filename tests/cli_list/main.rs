//! `callscope list` as scripts use it: every format and filter, checked against the same
//! selection done independently over `serde_json::Value`s.
//!
//! The independent selection and the helpers the tests share are here; each module below holds
//! the tests of one theme.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

#[path = "../common/mod.rs"]
mod common;

mod duplicates;
mod filters;
mod formats;
mod messages;
mod output_file;
mod output_folder;
mod table;

fn callscope() -> Command {
    Command::new(env!("CARGO_BIN_EXE_callscope"))
}

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn fixture(name: &str) -> PathBuf {
    fixtures_dir().join(name)
}

/// Runs `callscope list ARGS` and returns its stdout, asserting exit 0 and a quiet stderr but
/// for the note of the one copy the fixtures hold twice (`page2.json` repeats an event of `page1.json`),
/// when the filter matches it (see `duplicates` for that note on every path).
fn list(args: &[&str]) -> String {
    let out = callscope().arg("list").args(args).assert().success();
    let out = out.get_output();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let copy = |matching: &str| {
        format!(
            "callscope: note: 1{matching} event dropped: its id was read before (the first copy \
             is kept)\n"
        )
    };
    assert!(
        stderr.is_empty() || stderr == copy("") || stderr == copy(" matching"),
        "{stderr}"
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// `list ARGS` over every fixture, as NDJSON.
fn list_all(args: &[&str]) -> String {
    let dir = fixtures_dir();
    let mut all = vec![dir.to_str().unwrap(), "--format", "ndjson"];
    all.extend_from_slice(args);
    list(&all)
}

fn parse_lines(ndjson: &str) -> Vec<Value> {
    ndjson
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The events of a dump, found the way `jq '.events[]? // .'` would: envelopes give their events,
/// arrays their elements, anything else is an event.
fn events_in(path: &Path) -> Vec<Value> {
    fn flatten(v: Value, out: &mut Vec<Value>) {
        match v {
            Value::Object(ref o)
                if o.get("events").is_some_and(Value::is_array) && !o.contains_key("type") =>
            {
                let Value::Object(mut o) = v else {
                    unreachable!()
                };
                if let Some(Value::Array(events)) = o.remove("events") {
                    out.extend(events);
                }
            }
            Value::Array(items) => items.into_iter().for_each(|i| flatten(i, out)),
            other => out.push(other),
        }
    }
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = Vec::new();
    for v in serde_json::Deserializer::from_str(&text).into_iter::<Value>() {
        flatten(v.unwrap(), &mut out);
    }
    out
}

/// Every fixture's events in folder order, de-duplicated by id with the first copy kept.
fn reference() -> Vec<Value> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixtures_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("json" | "ndjson")
            )
        })
        .collect();
    files.sort();
    let mut seen = std::collections::HashSet::new();
    files
        .iter()
        .flat_map(|f| events_in(f))
        .filter(|e| seen.insert(e["id"].as_str().unwrap().to_string()))
        .collect()
}

fn data<'a>(e: &'a Value, field: &str) -> &'a Value {
    &e["data"][field]
}

fn ts(e: &Value) -> &str {
    e["timestamp"].as_str().unwrap()
}
