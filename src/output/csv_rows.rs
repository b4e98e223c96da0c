//! The `csv` format: one row per event, its columns fixed and named in the header, so that a
//! spreadsheet or a script can join it back on `id`.

use std::io::{self, Write};

use crate::event::{Event, value_text};
use crate::store::Store;

/// The columns of the `csv` format, in order (PRODUCT.md).
pub const CSV_COLUMNS: &[&str] = &[
    "id",
    "timestamp",
    "type",
    "error_code",
    "error_name",
    "is_terminal",
    "action",
    "room_id",
    "room_name",
    "session_id",
    "peer_id",
    "user_id",
    "user_name",
    "role",
    "sdk",
    "sdk_version",
    "os",
    "os_version",
    "device_model",
    "error_message",
    "error_description",
];

/// The csv row of one event, in [`CSV_COLUMNS`] order. A `null` is an empty cell, as an absent
/// field is: the text `null` would read as a value.
fn csv_record(e: &Event) -> Vec<String> {
    let cell = |v: Option<&serde_json::Value>| {
        v.filter(|v| !v.is_null())
            .map(value_text)
            .unwrap_or_default()
    };
    let data = |f: &str| cell(e.data_value(f));
    let agent = |f: &str| cell(e.agent().and_then(|a| a.get(f)));
    vec![
        e.id().unwrap_or_default().to_string(),
        e.timestamp().unwrap_or_default().to_string(),
        e.type_name().to_string(),
        data("error_code"),
        data("error_name"),
        data("is_terminal"),
        data("action"),
        data("room_id"),
        data("room_name"),
        data("session_id"),
        data("peer_id"),
        data("user_id"),
        data("user_name"),
        data("role"),
        agent("sdk"),
        agent("sdk_version"),
        agent("os"),
        agent("os_version"),
        agent("device_model"),
        data("error_message"),
        data("error_description"),
    ]
}

pub(super) fn write_csv(store: &Store, rows: &[u32], out: &mut dyn Write) -> io::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(CSV_COLUMNS)?;
    for &i in rows {
        w.write_record(csv_record(&store.event(i as usize)))?;
    }
    w.flush()?;
    Ok(())
}
