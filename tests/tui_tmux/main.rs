//! The explorer as a person meets it: the real binary in a real terminal (tmux), driven by keys
//! and read back from the screen.
//!
//! tmux is required; set CALLSCOPE_SKIP_TMUX=1 to skip these tests where it cannot be installed.
//!
//! The tmux driver is in `tmux` and the helpers the tests share are here; each other module holds
//! the tests of one theme.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use callscope::event::EventType;
use callscope::filter::Filter;
use callscope::store::Store;
use callscope::text::thousands;

#[path = "../common/mod.rs"]
mod common;

mod interaction;
mod opening;
mod stories;
mod streams;
mod terminal;
mod tmux;

use tmux::{DEADLINE, HEIGHT, PROMPT, Tmux, WIDTH, binary};

/// The list rows on the screen: the lines that start with a time of day, up to the detail
/// pane beside them (which tells the selected event, and changes as related data arrives).
fn list_rows(screen: &str) -> Vec<&str> {
    screen
        .lines()
        .filter(|l| {
            let b = l.as_bytes();
            b.len() > 12
                && b[2] == b':'
                && b[5] == b':'
                && b[8] == b'.'
                && b[..2].iter().all(u8::is_ascii_digit)
        })
        .map(|l| l.split('│').next().unwrap_or(l))
        .collect()
}

fn demo_count(filter: &Filter) -> String {
    let mut store = Store::new();
    store.merge(callscope::source::demo::load());
    thousands(store.filter(filter).len())
}

/// After the explorer quits with `status`, the shell is back on its normal screen with the
/// terminal as it was.
fn assert_terminal_restored(tmux: &Tmux, status: u8) {
    let screen = tmux.wait_for_text(&format!("explorer exited with {status}"));
    assert!(screen.contains(PROMPT), "{screen}");
    assert_shell_has_the_terminal(tmux);
}

/// The shell is back on its normal screen with the terminal as it was.
fn assert_shell_has_the_terminal(tmux: &Tmux) {
    assert_eq!(
        tmux.pane("#{alternate_on}"),
        "0",
        "the alternate screen is left"
    );
    assert_eq!(
        tmux.pane("#{mouse_any_flag}"),
        "0",
        "mouse reporting is off"
    );
    assert_eq!(tmux.pane("#{cursor_flag}"), "1", "the cursor is shown");
    // Raw mode off: the line discipline is canonical and echoes again.
    // A mark of its own each time, so that an earlier answer on the screen does not count.
    static CHECKS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let mark = format!(
        "end{}",
        CHECKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    );
    tmux.type_text(&format!("stty -a | tr ' ' '\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' '; echo {mark}"));
    tmux.keys(&["Enter"]);
    let answer = format!("icanon echo {mark}");
    tmux.wait_for(
        |s| s.lines().any(|l| l.trim_end() == answer),
        "the terminal settings of a canonical, echoing line",
    );
    assert_eq!(tmux.pane("#{pane_dead}"), "0", "the shell still runs");
}

/// `callscope serve` over the demo, with a token.
fn serve_demo(token: &str) -> common::Server {
    serve(&["--demo"], token)
}

/// `callscope serve` with these arguments on a port of its own, with a token.
fn serve(args: &[&str], token: &str) -> common::Server {
    let mut serve = Command::new(env!("CARGO_BIN_EXE_callscope"));
    serve
        .arg("serve")
        .args(args)
        .args(["--addr", "127.0.0.1:0"])
        .env("CALLSCOPE_SERVE_TOKEN", token)
        .stderr(std::process::Stdio::null());
    common::Server::spawn(serve)
}
