//! The terminal given back: quitting by key, Ctrl-C, signals and Ctrl-Z restore it; what stops
//! the explorer stops it before the screen is taken; a quit while a pipe is read leaves nothing
//! behind.

use super::*;

#[test]
fn the_demo_explorer_answers_keys_and_restores_the_terminal_on_quit() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    tmux.launch("", "--demo");

    let all = demo_count(&Filter::default());
    let screen = tmux.wait_for(
        |s| s.contains(&format!("{all} shown / {all} loaded │ idle")) && s.contains("events 1/"),
        "the demo loaded",
    );
    assert!(screen.contains("DEMO"), "{screen}");
    assert_eq!(
        tmux.pane("#{alternate_on}"),
        "1",
        "the explorer uses the alternate screen"
    );
    assert_eq!(
        tmux.pane("#{mouse_any_flag}"),
        "1",
        "the explorer reads the mouse"
    );

    tmux.keys(&["j"]);
    tmux.wait_for_text(&format!("events 2/{}", all.replace(',', "")));

    tmux.keys(&["Enter"]);
    tmux.wait_for_text("Tab/Esc/Enter list");
    tmux.keys(&["Tab"]);
    tmux.wait_for_text("Enter/Tab detail");

    let before = list_rows(&tmux.screen()).join("\n");
    tmux.keys(&["3"]);
    let joins = demo_count(&Filter {
        types: vec![EventType::Join],
        ..Filter::default()
    });
    let screen = tmux.wait_for_text(&format!("{joins} shown / {all} loaded"));
    let rows = list_rows(&screen);
    assert!(rows.len() > 10, "{screen}");
    for row in &rows {
        assert_eq!(
            row.split_whitespace().nth(1),
            Some("join"),
            "{row}\n{screen}"
        );
    }
    assert_ne!(rows.join("\n"), before, "the rows changed");

    // A find jumps to the first event that holds the text; & keeps only those.
    tmux.keys(&["/"]);
    tmux.wait_for_text("keeps it");
    tmux.type_text("Siddharth");
    tmux.wait_for_text("\"Siddharth\" in");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("(n/N: next/previous");
    tmux.keys(&["&"]);
    let found = demo_count(&Filter {
        types: vec![EventType::Join],
        search: Some("Siddharth".into()),
        ..Filter::default()
    });
    let screen = tmux.wait_for_text(&format!("{found} shown / {all} loaded"));
    assert!(screen.contains("search=\"Siddharth\""), "{screen}");
    assert!(
        screen.contains("Enter/Tab detail"),
        "back in the list:\n{screen}"
    );

    tmux.keys(&["?"]);
    let screen = tmux.wait_for_text("only join failures, or add/remove them");
    assert!(screen.contains("quit"), "{screen}");
    tmux.keys(&["Escape"]);
    tmux.wait_for(
        |s| !s.contains("only join failures, or add/remove them"),
        "the help to close",
    );

    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

#[test]
fn ctrl_c_quits_from_a_filter_input_and_restores_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    tmux.launch("", "--demo");
    tmux.wait_for_text("loaded │ idle");
    tmux.keys(&["f"]);
    tmux.wait_for_text("Enter apply");
    tmux.type_text("q");
    tmux.keys(&["C-c"]);
    assert_terminal_restored(&tmux, 0);
}

#[test]
fn a_conflicting_binding_or_an_unknown_theme_stops_the_explorer_before_it_takes_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("bad.toml");
    std::fs::write(
        &config,
        "theme = \"neon\"\n[keys]\nquit = \"ctrl-q\"\n[profiles.demo.keys]\ngroups = \"j\"\ncopy_json = \"ctrl-\"\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_callscope"))
        .args(["--demo", "--profile", "demo", "--config"])
        .arg(&config)
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "nothing is drawn");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let file = format!("callscope: config file {}: ", config.display());
    for expected in [
        format!("{file}[profiles.demo.keys] groups: \"j\" already runs down in the list"),
        format!("{file}[profiles.demo.keys] copy_json: \"ctrl-\" is not a key"),
        format!("{file}theme = \"neon\": no such theme; the themes are default, dark, light, mono"),
    ] {
        assert!(
            stderr.contains(&expected),
            "{expected:?} missing:\n{stderr}"
        );
    }
    assert!(!stderr.contains("needs a terminal"), "{stderr}");
}

#[test]
fn a_dump_asked_of_stdin_when_stdin_is_the_terminal_is_refused_before_the_screen_is_taken() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    // Reading the terminal as the dump would eat the keys, `q` among them.
    tmux.launch("", "-");
    let screen = tmux.wait_for_text("explorer exited with 2");
    assert!(
        screen.contains("callscope: `-` reads a dump from standard input, which is this terminal"),
        "{screen}"
    );
    assert_eq!(
        tmux.pane("#{alternate_on}"),
        "0",
        "the screen was never taken"
    );
    // The terminal named by a path.
    tmux.type_text(&format!(
        "{} /dev/stdin; echo \"path refused with $?\"",
        binary()
    ));
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for_text("path refused with 2");
    assert!(
        screen.contains("callscope: /dev/stdin is this terminal, not a dump"),
        "{screen}"
    );
}

#[test]
fn sigterm_or_sighup_stops_the_explorer_restores_the_terminal_and_says_which_signal() {
    // The shell's status for a process killed by the signal: 128 and its number.
    for (signal, status) in [("TERM", 143), ("HUP", 129), ("INT", 130)] {
        let dir = tempfile::tempdir().unwrap();
        let Some(tmux) = Tmux::start(dir.path()) else {
            return;
        };
        // The explorer's own pid, written by the shell that becomes it.
        tmux.type_text(&format!(
            "sh -c 'echo $$ > explorer.pid; exec {} --demo'; echo \"explorer exited with $?\"",
            binary()
        ));
        tmux.keys(&["Enter"]);
        tmux.wait_for_text("loaded │ idle");
        let pid = std::fs::read_to_string(dir.path().join("explorer.pid")).unwrap();
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), pid.trim()])
            .status()
            .unwrap();
        assert!(sent.success(), "kill -{signal} {pid}");
        assert_terminal_restored(&tmux, status);
    }
}

#[test]
fn ctrl_z_gives_the_shell_its_terminal_back_and_fg_brings_the_explorer_back_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    tmux.start_demo("", "");
    tmux.keys(&["j", "j"]);
    tmux.wait_for_text("events 3/");
    tmux.keys(&["C-z"]);
    // The shell has the terminal: its own screen, a canonical line that echoes.
    // The shell has the terminal as it was; it reports the stop as a status of 128 + SIGTSTP
    // and runs the rest of the command line.
    let screen = tmux.wait_for(
        |s| s.contains("Stopped") && s.trim_end().ends_with(PROMPT),
        "the shell to say the explorer stopped",
    );
    assert!(screen.contains("explorer exited with 148"), "{screen}");
    assert!(!screen.contains("events 3/"), "{screen}");
    assert_shell_has_the_terminal(&tmux);
    // fg: the explorer takes the terminal again, where it was.
    tmux.type_text("fg");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for_text("events 3/");
    assert!(screen.contains("2,400 shown"), "{screen}");
    assert_eq!(tmux.pane("#{alternate_on}"), "1");
    assert_eq!(tmux.pane("#{mouse_any_flag}"), "1");
    // And it answers keys as before.
    tmux.keys(&["j"]);
    tmux.wait_for_text("events 4/");
    tmux.keys(&["q"]);
    tmux.wait_for(
        |s| !s.contains("events 4/") && s.trim_end().ends_with(PROMPT),
        "the shell after q",
    );
    assert_shell_has_the_terminal(&tmux);
}

/// The temporary files a process holds open in `folder`, named as /proc names them (an unlinked
/// one ends in ` (deleted)`).
#[cfg(target_os = "linux")]
fn files_held_in(pid: &str, folder: &Path) -> Vec<String> {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return Vec::new();
    };
    fds.filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
        .map(|target| target.to_string_lossy().into_owned())
        .filter(|target| target.starts_with(folder.to_str().unwrap()))
        .collect()
}

#[test]
#[cfg(target_os = "linux")]
fn q_while_a_pipe_is_still_being_read_quits_at_once_and_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    // More than the explorer holds of a pipe in memory (its first pieces): the rest goes to a
    // temporary file.
    let made = Command::new(env!("CARGO_BIN_EXE_callscope"))
        .args(["demo-data", "--events", "40000", "--out"])
        .arg(dir.path().join("data"))
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    let events = std::fs::read(dir.path().join("data/events.ndjson")).unwrap();
    assert!(events.len() > 40 << 20, "{} bytes", events.len());
    let fifo = dir.path().join("events.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success(), "mkfifo");
    let temporary = dir.path().join("tmp");
    std::fs::create_dir(&temporary).unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    // The writer writes every event, then holds the pipe open until the test ends, as a
    // `kubectl logs -f | callscope -` that never ends would: the explorer cannot finish loading.
    let (done, wait_done) = std::sync::mpsc::channel::<()>();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let mut pipe = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
        // The explorer may quit before it has read every byte: a closed pipe is no failure.
        let _ = pipe.write_all(&events);
        let _ = wait_done.recv();
    });
    tmux.type_text(&format!(
        "sh -c 'echo $$ > explorer.pid; TMPDIR=tmp exec {} - < events.fifo'; echo \"explorer exited with $?\"",
        binary()
    ));
    tmux.keys(&["Enter"]);
    tmux.wait_for(
        |s| s.contains(" shown / ") && s.contains("loading…") && s.contains("events 1/"),
        "the first events shown while the pipe is still read",
    );
    let pid = std::fs::read_to_string(dir.path().join("explorer.pid")).unwrap();
    let pid = pid.trim();
    // The part beyond what it holds in memory is in a temporary file, already unlinked.
    let start = Instant::now();
    let held = loop {
        let held = files_held_in(pid, &temporary.canonicalize().unwrap());
        if !held.is_empty() || start.elapsed() > DEADLINE {
            break held;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(!held.is_empty(), "no temporary file in {temporary:?}");
    assert!(held.iter().all(|f| f.ends_with(" (deleted)")), "{held:?}");
    assert!(tmux.screen().contains("loading…"), "still loading");

    tmux.keys(&["q"]);
    // The pipe is still open: the explorer ends without waiting for its end.
    assert_terminal_restored(&tmux, 0);
    let left: Vec<_> = std::fs::read_dir(&temporary).unwrap().collect();
    assert!(left.is_empty(), "left in TMPDIR: {left:?}");
    done.send(()).unwrap();
    writer.join().unwrap();
}
