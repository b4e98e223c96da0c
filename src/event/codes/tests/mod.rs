//! Tests of the code tables. The helpers the themes share are here; each module below holds the
//! tests of one theme.

use serde_json::json;

use super::*;

mod lookup;
mod tables;

/// An event of `code` (when given) from an agent with these fields.
fn event(code: Option<i64>, name: Option<&str>, agent: serde_json::Value) -> Event {
    let mut data = json!({"error_message": "the message", "agent": agent});
    if let Some(code) = code {
        data["error_code"] = json!(code);
    }
    if let Some(name) = name {
        data["error_name"] = json!(name);
    }
    let e = json!({"type": "client.publish.failed", "data": data});
    Event::parse(e.to_string().as_bytes()).unwrap()
}

fn web_event(code: i64, name: &str) -> Event {
    event(
        Some(code),
        Some(name),
        json!({"sdk": "web", "os": "web_Mac_OS"}),
    )
}

/// Every code a row's code column holds; `None` for a code passed through from the server.
fn codes_of(row: &Row) -> Vec<Option<i64>> {
    row.codes
        .iter()
        .flat_map(|c| match *c {
            Code::One(c) => vec![Some(c)],
            Code::Span(lo, hi) => (lo..=hi).map(Some).collect(),
            Code::FromServer => vec![None],
        })
        .collect()
}
