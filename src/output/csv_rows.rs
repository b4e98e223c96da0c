//! The `csv` format: one row per event, its columns fixed and named in the header, so that a
//! spreadsheet or a script can join it back on `id`.

use std::io::{self, Write};

use crate::event::Event;
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

/// The csv row of one event, in [`CSV_COLUMNS`] order, each field as callscope reads it: a text
/// field's string, `error_code` as a whole number, `is_terminal` as `true` or `false`. A field
/// absent, `null` or holding a value of another JSON type than the API's is an empty cell, as
/// it reads as absent to every filter and group (`"is_terminal": "true"` is not final): the text
/// `null` or a string `true` would read as a value.
fn csv_record(e: &Event) -> Vec<String> {
    let text = |v: Option<&str>| v.unwrap_or_default().to_string();
    let data = |f: &str| text(e.data_str(f));
    let agent = |f: &str| text(e.agent_str(f));
    vec![
        text(e.id()),
        text(e.timestamp()),
        e.type_name().to_string(),
        e.error_code().map(|c| c.to_string()).unwrap_or_default(),
        data("error_name"),
        e.is_terminal().map(|t| t.to_string()).unwrap_or_default(),
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
