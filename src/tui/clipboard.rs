//! Copying through the terminal: OSC 52 asks the terminal itself to set the clipboard, so a copy
//! works over SSH and inside tmux (with `set-clipboard on`), where no clipboard program can reach
//! the user's desktop.

use super::effect::Effect;
use super::model::Model;
use crate::store::Sym;

/// The escape sequence that puts `text` on the clipboard (`c`), ended by BEL, which more
/// terminals accept than ST.
pub fn osc52(text: &str) -> Vec<u8> {
    let mut out = b"\x1b]52;c;".to_vec();
    out.extend_from_slice(base64(text.as_bytes()).as_bytes());
    out.push(0x07);
    out
}

/// Standard base64 with padding (RFC 4648), as OSC 52 expects.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// JSON without the whitespace between its tokens, so that what is pasted is the event as it
/// came, on one line.
pub fn compact_json(json: &[u8]) -> Vec<u8> {
    crate::output::compact_json(json)
}

/// A size for the status line: `312 bytes`, `1.4 KB`.
pub fn size(bytes: usize) -> String {
    match bytes {
        1 => "1 byte".into(),
        0..1024 => format!("{bytes} bytes"),
        _ => format!("{:.1} KB", bytes as f64 / 1024.0),
    }
}

/// `y`: an event's JSON, compact (and redacted when the profile says so).
pub fn copy_json(model: &mut Model, event: Option<usize>) -> Vec<Effect> {
    let Some(i) = event else {
        model.status = Some("no event is selected: nothing to copy".into());
        return Vec::new();
    };
    let store = &model.events.store;
    let raw = store.raw(i);
    let redact = model.config.redact;
    let json = if redact {
        crate::redact::Redactor::for_rows(store, &[i as u32]).event(raw)
    } else {
        raw.to_vec()
    };
    // Controls a JSON string may hold raw (C1, DEL, bidirectional overrides) go out escaped:
    // the same JSON, and nothing that can drive the terminal it is pasted into.
    let text =
        crate::text::json_escaped(&String::from_utf8_lossy(&compact_json(&json))).into_owned();
    let what = format!(
        "{} of {}JSON",
        size(text.len()),
        if redact { "redacted " } else { "" }
    );
    vec![Effect::Copy { text, what }]
}

/// `Y`: an event's id.
pub fn copy_event_id(model: &mut Model, event: Option<usize>) -> Vec<Effect> {
    let Some(i) = event else {
        model.status = Some("no event is selected: nothing to copy".into());
        return Vec::new();
    };
    let id = model
        .events
        .store
        .event(i)
        .id()
        .unwrap_or_default()
        .to_string();
    copy_id(model, id, "event id")
}

/// `Y` in a peer's story: the peer's id.
pub fn copy_peer_id(model: &mut Model, peer: Sym) -> Vec<Effect> {
    let id = model.events.store.str(peer).to_string();
    copy_id(model, id, "peer id")
}

fn copy_id(model: &mut Model, id: String, what: &str) -> Vec<Effect> {
    if id.is_empty() {
        model.status = Some(format!("this event has no {what}: nothing to copy"));
        return Vec::new();
    }
    // Pasted into a shell, a newline runs what precedes it, and an escape drives the terminal:
    // such an id is not copied at all (its JSON, escaped, still is).
    if crate::text::holds_controls(&id) {
        model.status = Some(format!(
            "this {what} holds control characters, which could run a command when pasted: not copied (y copies the event's JSON, escaped)"
        ));
        return Vec::new();
    }
    let what = format!("the {what} {id}");
    vec![Effect::Copy { text: id, what }]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_rfc_4648_test_vectors() {
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), encoded, "{plain:?}");
        }
        assert_eq!(base64(&[0xff, 0xfe, 0xfd]), "//79");
    }

    #[test]
    fn osc52_wraps_the_base64_text_for_the_clipboard_selection() {
        assert_eq!(osc52("hi"), b"\x1b]52;c;aGk=\x07".to_vec());
    }

    #[test]
    fn compacting_drops_whitespace_between_tokens_and_keeps_strings_whole() {
        let pretty = b"{\n  \"a b\": \"x \\\" y\\\\\",\n  \"n\": [1, 2.50, {\"k\" : null}]\n}\n";
        assert_eq!(
            String::from_utf8(compact_json(pretty)).unwrap(),
            r#"{"a b":"x \" y\\","n":[1,2.50,{"k":null}]}"#
        );
    }

    #[test]
    fn sizes_read_as_bytes_then_kilobytes() {
        assert_eq!(size(1), "1 byte");
        assert_eq!(size(312), "312 bytes");
        assert_eq!(size(1434), "1.4 KB");
    }
}
