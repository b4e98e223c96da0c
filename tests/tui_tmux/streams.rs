//! Dumps that come as they are read: piped in, or gzip'd. Past what the explorer holds in memory
//! (its first pieces), the rest goes to a temporary file and is mapped from it; what the user
//! meets is the same events as from the file itself.

use super::*;

/// Events made by `callscope demo-data` in `dir/data/events.ndjson`: more than the explorer holds
/// of a stream in memory (32 MB).
fn large_dump(dir: &Path) -> Vec<u8> {
    let made = Command::new(env!("CARGO_BIN_EXE_callscope"))
        .args(["demo-data", "--events", "40000", "--out"])
        .arg(dir.join("data"))
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    let events = std::fs::read(dir.join("data/events.ndjson")).unwrap();
    assert!(events.len() > 40 << 20, "{} bytes", events.len());
    events
}

/// Waits until every event is loaded, saves the shown events (every one) to `name` with `s`,
/// waits for the save, quits, and clears the screen.
fn save_all_and_quit(tmux: &Tmux, name: &str, events: usize) {
    let every = thousands(events);
    tmux.wait_for_text(&format!("{every} shown / {every} loaded │ idle"));
    tmux.keys(&["s"]);
    tmux.wait_for_text("save");
    tmux.keys(&["C-u"]);
    tmux.type_text(name);
    tmux.keys(&["Enter"]);
    tmux.wait_for_text(&format!("saved {events} events to {name}"));
    tmux.keys(&["q"]);
    assert_terminal_restored(tmux, 0);
    // A clear screen for the next run, whose end is then told by its own line.
    tmux.type_text("clear");
    tmux.keys(&["Enter"]);
    tmux.wait_for(|s| !s.contains("explorer exited"), "the screen cleared");
}

/// The files under `folder` that the process `pid` maps (an unlinked one ends in ` (deleted)`).
#[cfg(target_os = "linux")]
fn files_mapped_from(pid: &str, folder: &Path) -> Vec<String> {
    let maps = std::fs::read_to_string(format!("/proc/{pid}/maps")).unwrap_or_default();
    let folder = folder.to_str().unwrap();
    let mut files: Vec<String> = maps
        .lines()
        .filter_map(|line| line.find(folder).map(|at| line[at..].to_string()))
        .collect();
    files.dedup();
    files
}

#[test]
#[cfg(target_os = "linux")]
fn a_large_gzip_dump_piped_in_shows_the_events_the_file_shows_read_from_a_temporary_file() {
    // On a disk: a temporary folder on a tmpfs is not used.
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let events = large_dump(dir.path());
    let count = events.iter().filter(|&&b| b == b'\n').count();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, &events).unwrap();
    std::fs::write(dir.path().join("events.ndjson.gz"), gz.finish().unwrap()).unwrap();
    let temporary = dir.path().join("tmp");
    std::fs::create_dir(&temporary).unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    // The file itself, mapped.
    tmux.launch("", "data/events.ndjson");
    save_all_and_quit(&tmux, "mapped.json", count);

    // The same gzip'd, through a pipe.
    tmux.type_text(&format!(
        "cat events.ndjson.gz | sh -c 'echo $$ > explorer.pid; TMPDIR=tmp exec {} -'; echo \"explorer exited with $?\"",
        binary()
    ));
    tmux.keys(&["Enter"]);
    let every = thousands(count);
    tmux.wait_for_text(&format!("{every} shown / {every} loaded │ idle"));
    let pid = std::fs::read_to_string(dir.path().join("explorer.pid")).unwrap();
    // What was past the first pieces is read from a temporary file, unlinked as it was made:
    // while the explorer maps it, no file is left in the folder.
    let mapped = files_mapped_from(pid.trim(), &temporary.canonicalize().unwrap());
    assert!(!mapped.is_empty(), "nothing mapped from {temporary:?}");
    assert!(
        mapped.iter().all(|f| f.ends_with(" (deleted)")),
        "{mapped:?}"
    );
    let left: Vec<_> = std::fs::read_dir(&temporary).unwrap().collect();
    assert!(left.is_empty(), "in TMPDIR while mapped: {left:?}");
    save_all_and_quit(&tmux, "piped.json", count);

    let saved = |name: &str| std::fs::read(dir.path().join(name)).unwrap();
    assert!(
        saved("piped.json") == saved("mapped.json"),
        "the piped dump's events differ from the file's"
    );
    // Nor once it has exited: no file was left there with a name (a save's, say).
    let left: Vec<_> = std::fs::read_dir(&temporary).unwrap().collect();
    assert!(left.is_empty(), "left in TMPDIR: {left:?}");
}

#[test]
#[cfg(target_os = "linux")]
fn a_saved_envelope_piped_in_shows_its_first_events_before_it_has_all_come() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let events = large_dump(dir.path());
    let count = events.iter().filter(|&&b| b == b'\n').count();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    // The explorer's save: one envelope, one event a line.
    tmux.launch("", "data/events.ndjson");
    save_all_and_quit(&tmux, "saved.json", count);
    let saved = std::fs::read(dir.path().join("saved.json")).unwrap();
    assert!(saved.starts_with(b"{"), "an envelope");

    let fifo = dir.path().join("saved.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success(), "mkfifo");
    // The writer writes all but the envelope's last bytes, then waits to be told to end it.
    let (end, wait_end) = std::sync::mpsc::channel::<()>();
    let ending = saved[saved.len() - 4..].to_vec();
    let most = saved[..saved.len() - 4].to_vec();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let mut pipe = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
        pipe.write_all(&most).unwrap();
        let _ = wait_end.recv();
        pipe.write_all(&ending).unwrap();
    });
    tmux.launch("TMPDIR=. ", "- < saved.fifo");
    tmux.wait_for(
        |s| s.contains(" shown / ") && s.contains("loading…") && s.contains("events 1/"),
        "the first events shown while the envelope is still coming",
    );
    end.send(()).unwrap();
    writer.join().unwrap();
    // Every event, the same as the file's, once it has all come.
    save_all_and_quit(&tmux, "again.json", count);
    let again = std::fs::read(dir.path().join("again.json")).unwrap();
    assert!(
        again == saved,
        "the piped envelope's events differ from the file's"
    );
}
