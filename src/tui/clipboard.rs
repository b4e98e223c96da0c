//! Copying: to a clipboard program when one is on the PATH (wl-copy, xclip, xsel, pbcopy), whose
//! exit status says whether the copy was made; else through the terminal, where OSC 52 asks the
//! terminal itself to set the clipboard, so that a copy works over SSH and inside tmux (with
//! `set-clipboard on`), where no clipboard program can reach the user's desktop. A terminal may
//! drop that sequence without a word, so such a copy is said to be sent, never made; a key
//! writes the same text to a file instead.

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use super::effect::{CopyTo, Effect};
use super::model::Model;
use crate::store::Sym;

/// The clipboard programs callscope knows, in the order they are tried, with the arguments that
/// make each read the text on its standard input into the clipboard.
pub const PROGRAMS: [(&str, &[&str]); 4] = [
    ("wl-copy", &[]),
    ("xclip", &["-selection", "clipboard"]),
    ("xsel", &["--clipboard", "--input"]),
    ("pbcopy", &[]),
];

/// How long a clipboard program may take before it is given up on (and killed).
pub const PROGRAM_TIMEOUT: Duration = Duration::from_secs(2);

/// A clipboard program found on the PATH.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    pub name: &'static str,
    pub path: PathBuf,
    args: &'static [&'static str],
}

/// The clipboard programs present in the folders of `path` (a PATH value), in [`PROGRAMS`]'s
/// order.
pub fn programs_on(path: Option<&OsStr>) -> Vec<Program> {
    let folders: Vec<PathBuf> = path
        .map(|p| std::env::split_paths(p).collect())
        .unwrap_or_default();
    PROGRAMS
        .iter()
        .filter_map(|&(name, args)| {
            folders
                .iter()
                .map(|folder| folder.join(name))
                .find(|candidate| is_executable(candidate))
                .map(|path| Program { name, path, args })
        })
        .collect()
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// Hands `text` to `program` on its standard input and waits for it to exit, at most
/// `timeout`. Its own output goes nowhere: a program that stays to serve the clipboard (xclip,
/// wl-copy) keeps it open after its first process has exited.
pub fn run_program(program: &Program, text: &str, timeout: Duration) -> Result<(), String> {
    let mut child = Process::new(&program.path)
        .args(program.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{} could not be started: {e}", program.name))?;
    // Written from a thread of its own: a program that does not read would otherwise block
    // the explorer on a full pipe.
    let mut stdin = child.stdin.take();
    let bytes = text.as_bytes().to_vec();
    let writer = std::thread::spawn(move || {
        if let Some(stdin) = stdin.as_mut() {
            stdin.write_all(&bytes)?;
        }
        Ok::<(), std::io::Error>(())
    });
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() >= timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "{} did not finish within {:.1} s",
                    program.name,
                    timeout.as_secs_f64()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("{}: {e}", program.name)),
        }
    };
    let written = writer.join().unwrap_or(Ok(()));
    if !status.success() {
        return Err(format!("{} failed ({status})", program.name));
    }
    written.map_err(|e| format!("{} did not take the text: {e}", program.name))
}

/// How a copy reached the clipboard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sent {
    /// A clipboard program took it and exited with success.
    Program(&'static str),
    /// It went to the terminal as OSC 52, after the programs tried (if any) failed: each
    /// failure in words.
    Terminal { failed: Vec<String> },
}

/// Copies `text`: to the first clipboard program of `programs` that takes it, else to the
/// terminal through `osc52_out`.
pub fn send(
    programs: &[Program],
    text: &str,
    osc52_out: impl FnOnce(&[u8]) -> std::io::Result<()>,
) -> Result<Sent, String> {
    let mut failed = Vec::new();
    for program in programs {
        match run_program(program, text, PROGRAM_TIMEOUT) {
            Ok(()) => return Ok(Sent::Program(program.name)),
            Err(e) => failed.push(e),
        }
    }
    osc52_out(&osc52(text))
        .map(|()| Sent::Terminal { failed })
        .map_err(|e| format!("the terminal could not be written to: {e}"))
}

/// The file a copy is written to instead of the clipboard: in `folder`, named for what it
/// holds (JSON or text).
pub fn selection_file(folder: &Path, text: &str) -> PathBuf {
    let json = serde_json::from_str::<serde_json::Value>(text)
        .is_ok_and(|v| v.is_object() || v.is_array());
    folder.join(if json {
        "callscope-selection.json"
    } else {
        "callscope-selection.txt"
    })
}

/// Writes `text` to `path` (atomically, a newline after it). Returns the error in words.
pub fn write_selection(path: &Path, text: &str) -> Result<(), String> {
    crate::output::write_atomically(path, |out| {
        out.write_all(text.as_bytes())?;
        out.write_all(b"\n")
    })
    .map_err(|e| format!("{}: {e}", path.display()))
}

/// `w`: what `y` would copy (`effects`, from one of the copy functions), written to a file
/// instead.
pub fn to_file(effects: Vec<Effect>) -> Vec<Effect> {
    effects
        .into_iter()
        .map(|e| match e {
            Effect::Copy { text, what, .. } => Effect::Copy {
                text,
                what,
                to: CopyTo::File,
            },
            other => other,
        })
        .collect()
}

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
    vec![Effect::Copy {
        text,
        what,
        to: CopyTo::Clipboard,
    }]
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
    vec![Effect::Copy {
        text: id,
        what,
        to: CopyTo::Clipboard,
    }]
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

    /// A folder holding an executable script named `name`: a stand-in clipboard program.
    #[cfg(unix)]
    fn fake_program(dir: &Path, name: &str, script: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{script}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    #[cfg(unix)]
    #[test]
    fn a_clipboard_program_on_the_path_is_found_in_order_and_a_plain_file_is_not() {
        let empty = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        fake_program(dir.path(), "xsel", "exit 0");
        fake_program(dir.path(), "pbcopy", "exit 0");
        // Not executable: not a program.
        std::fs::write(dir.path().join("xclip"), "#!/bin/sh\n").unwrap();
        let path = std::env::join_paths([empty.path(), dir.path()]).unwrap();
        let found: Vec<&str> = programs_on(Some(&path)).iter().map(|p| p.name).collect();
        assert_eq!(found, ["xsel", "pbcopy"]);
        assert!(programs_on(Some(empty.path().as_os_str())).is_empty());
        assert!(programs_on(None).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_copy_goes_to_the_clipboard_program_with_its_arguments_and_not_to_the_terminal() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("clipboard");
        fake_program(
            dir.path(),
            "xclip",
            &format!(
                "echo \"$@\" > '{0}.args'; exec /bin/cat > '{0}'",
                out.display()
            ),
        );
        let programs = programs_on(Some(dir.path().as_os_str()));
        let mut terminal = Vec::new();
        let sent = send(&programs, "{\"id\":\"evt-1\"}", |b| {
            terminal.extend_from_slice(b);
            Ok(())
        });
        assert_eq!(sent, Ok(Sent::Program("xclip")));
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "{\"id\":\"evt-1\"}");
        let args = std::fs::read_to_string(dir.path().join("clipboard.args")).unwrap();
        assert_eq!(args.trim(), "-selection clipboard");
        assert!(terminal.is_empty(), "nothing sent to the terminal");
    }

    #[cfg(unix)]
    #[test]
    fn when_every_program_fails_the_copy_goes_to_the_terminal_and_says_why() {
        let dir = tempfile::tempdir().unwrap();
        fake_program(dir.path(), "wl-copy", "exit 1");
        fake_program(dir.path(), "xclip", "exit 3");
        let programs = programs_on(Some(dir.path().as_os_str()));
        let mut terminal = Vec::new();
        let sent = send(&programs, "hi", |b| {
            terminal.extend_from_slice(b);
            Ok(())
        })
        .unwrap();
        let Sent::Terminal { failed } = sent else {
            panic!("expected the terminal, got {sent:?}")
        };
        assert_eq!(failed.len(), 2, "{failed:?}");
        assert!(failed[0].starts_with("wl-copy failed"), "{failed:?}");
        assert!(
            failed[1].starts_with("xclip failed") && failed[1].contains('3'),
            "{failed:?}"
        );
        assert_eq!(terminal, osc52("hi"));
        // With no program at all: the terminal, nothing to report.
        let mut terminal = Vec::new();
        let sent = send(&[], "hi", |b| {
            terminal.extend_from_slice(b);
            Ok(())
        });
        assert_eq!(sent, Ok(Sent::Terminal { failed: Vec::new() }));
        assert_eq!(terminal, osc52("hi"));
    }

    #[cfg(unix)]
    #[test]
    fn a_program_that_does_not_exit_is_given_up_on_and_killed() {
        let dir = tempfile::tempdir().unwrap();
        fake_program(dir.path(), "pbcopy", "exec /bin/sleep 30");
        let programs = programs_on(Some(dir.path().as_os_str()));
        let e = run_program(&programs[0], "hi", Duration::from_millis(200)).unwrap_err();
        assert_eq!(e, "pbcopy did not finish within 0.2 s");
    }

    #[test]
    fn the_file_fallback_is_named_for_what_it_holds_and_holds_the_text() {
        let dir = tempfile::tempdir().unwrap();
        let json = selection_file(dir.path(), "{\"id\":\"e\"}");
        assert_eq!(json, dir.path().join("callscope-selection.json"));
        let text = selection_file(dir.path(), "evt-1");
        assert_eq!(text, dir.path().join("callscope-selection.txt"));
        write_selection(&text, "evt-1").unwrap();
        assert_eq!(std::fs::read_to_string(&text).unwrap(), "evt-1\n");
        let missing = dir.path().join("no/such/folder/x.txt");
        let e = write_selection(&missing, "evt-1").unwrap_err();
        assert!(e.starts_with(&missing.display().to_string()), "{e}");
    }

    #[test]
    fn sizes_read_as_bytes_then_kilobytes() {
        assert_eq!(size(1), "1 byte");
        assert_eq!(size(312), "312 bytes");
        assert_eq!(size(1434), "1.4 KB");
    }
}
