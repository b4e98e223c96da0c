//! `list --live` whose load stops part-way, as a user runs it against the catalog: the answer
//! says which types arrived in full, which stopped and where, and which got none; saved as a
//! `json` envelope it carries the service's total and cursor and reopens as partial; and a load
//! whose every type arrived in full though a cursor failed is complete.

use super::*;

/// Fifteen events, oldest first, paged three at a time, where the query's own cursor is
/// refused at its third page (having read events 1 to 6), the join cursor at its second (having
/// read 3 of the 7 joins), and the publish cursor at its first (its events, 13 and 14, are past
/// where the query's cursor got). Connect, subscribe and disconnected load in full.
async fn stopping() -> Catalog {
    let types = vec![
        CONNECT,
        SUBSCRIBE,
        JOIN,
        DISCONNECTED,
        CONNECT,
        SUBSCRIBE,
        JOIN,
        JOIN,
        JOIN,
        JOIN,
        JOIN,
        JOIN,
        PUBLISH,
        PUBLISH,
        DISCONNECTED,
    ];
    let mut setup = setup(types);
    setup.faults = vec![refused("untyped", 2), refused(JOIN, 1), refused(PUBLISH, 0)];
    Catalog::start(setup).await
}

/// The events that arrive from [`stopping`]: the query's first six, the join cursor's first
/// page (3, 7, 8), and every connect, subscribe and disconnected event (15).
const ARRIVED: [u32; 9] = [1, 2, 3, 4, 5, 6, 7, 8, 15];

/// `list --live` of [`stopping`]'s catalog, three events a page, with `args`, saved as a `json`
/// envelope into `dir`, checked to stop with exit 1: what the run wrote, the file, and what the
/// file holds.
async fn saved_partial(
    dir: &std::path::Path,
    args: &[&str],
) -> (std::process::Output, std::path::PathBuf, serde_json::Value) {
    let server = stopping().await;
    let path = dir.join("partial.json");
    let save = [
        "--page-size",
        "3",
        "--format",
        "json",
        "-o",
        path.to_str().unwrap(),
    ];
    let out = list_live_at(&server.url, catalog::ROOM, &[&save[..], args].concat()).await;
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let saved = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    (out, path, saved)
}

/// `callscope list FILE` with `args`, as a user runs it.
fn list_file(path: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_callscope"))
        .arg("list")
        .arg(path)
        .args(args)
        .env_remove("CALLSCOPE_CONFIG")
        .env_remove("CALLSCOPE_PROFILE")
        .env_remove("XDG_CONFIG_HOME")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[tokio::test]
async fn a_partial_answer_says_which_types_arrived_in_full_which_stopped_and_which_got_none() {
    let server = stopping().await;
    let out = list_ndjson(&server, &[]).await;
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "the summary, then the failure: {stderr}");
    assert_eq!(
        lines[0],
        format!(
            "callscope: partial: the answer holds only what arrived before the failure below, \
             9 of the query's 15 events. In full: {SUBSCRIBE} 2 events, the latest at {}; \
             {DISCONNECTED} 2 events, the latest at {}; {CONNECT} 2 events, the latest at {}. \
             Stopped early: {JOIN} 3 of 7 events, from {} up to {}; none later arrived. \
             None arrived: {PUBLISH}",
            at(6),
            at(15),
            at(5),
            at(3),
            at(8)
        )
    );
    assert!(
        lines[1].starts_with("callscope: loading the query: HTTP 401"),
        "{stderr}"
    );
    let mut numbers = numbers_of_lines(&out.stdout);
    numbers.sort();
    assert_eq!(numbers, ARRIVED);
}

#[tokio::test]
async fn a_partial_answer_saved_as_json_carries_the_services_total_and_reopens_as_partial() {
    let dir = tempfile::tempdir().unwrap();
    let (_, path, saved) = saved_partial(dir.path(), &[]).await;
    assert_eq!(saved["limit"], 9);
    assert_eq!(saved["total"], 15, "the service's total of the query");
    assert_eq!(
        saved["next"], "o:6",
        "the service's cursor of the query where its paging stopped"
    );
    assert_eq!(saved["events"].as_array().unwrap().len(), 9);
    // Reopened, it says it is partial; reading it is no failure.
    let reopened = list_file(&path, &["--format", "csv"]);
    assert_eq!(reopened.status.code(), Some(0));
    assert_eq!(
        text(&reopened.stderr),
        "callscope: partial: the saved page holds 9 of the 15 events their query matched\n"
    );
    assert_eq!(text(&reopened.stdout).lines().count(), 1 + 9);
}

/// Twelve events, oldest first: the four connect failures come first, so that the query's own
/// cursor brings them all in its first two pages before it is refused at its third; the connect
/// cursor is refused at its second page, and the count of the query that could retire the
/// query's cursor is refused too. Every other type's cursor loads in full.
async fn redundantly_refused() -> Catalog {
    twelve_with(vec![
        refused("untyped", 2),
        refused(CONNECT, 1),
        refused("census", 0),
    ])
    .await
}

/// The twelve events of [`redundantly_refused_types`], served with `faults`.
async fn twelve_with(faults: Vec<Fault>) -> Catalog {
    Catalog::start(Setup {
        faults,
        ..setup(redundantly_refused_types())
    })
    .await
}

/// `list --live` of the twelve events of [`redundantly_refused_types`] served with `faults`,
/// checked to end well with all twelve: the catalog, and what the run wrote on stderr.
async fn whole_despite(faults: Vec<Fault>) -> (Catalog, String) {
    let server = twelve_with(faults).await;
    let out = list_ndjson(&server, &[]).await;
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(text(&out.stdout).lines().count(), 12, "{stderr}");
    (server, stderr)
}

#[tokio::test]
async fn a_load_whose_every_type_arrived_in_full_is_complete_though_a_cursor_failed() {
    let server = redundantly_refused().await;
    let out = list_ndjson(&server, &[]).await;
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let numbers = numbers_of_lines(&out.stdout);
    assert_eq!(numbers, (1..=12).collect::<Vec<_>>(), "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "callscope: note: every event of the query arrived; requests no longer needed \
             failed: loading the query: HTTP 401: fault 401 (check the token: \
             HMS_MANAGEMENT_TOKEN, --token-file, or HMS_ACCESS_KEY + HMS_SECRET; it may have \
             expired); loading the {CONNECT} events: HTTP 401: fault 401 (check the token: \
             HMS_MANAGEMENT_TOKEN, --token-file, or HMS_ACCESS_KEY + HMS_SECRET; it may have \
             expired)\n"
        )
    );
    // Each refusal happened: the query's cursor, the connect cursor and the count.
    let refusals: Vec<String> = server
        .requests()
        .into_iter()
        .filter(|r| r.status == 401)
        .map(|r| r.key)
        .collect();
    assert_eq!(refusals.len(), 3, "{refusals:?}");
}

/// The refusal the catalog answers a fault of status 401 with, as a note says it.
fn refusal_401() -> &'static str {
    "HTTP 401: fault 401 (check the token: HMS_MANAGEMENT_TOKEN, --token-file, or \
     HMS_ACCESS_KEY + HMS_SECRET; it may have expired)"
}

#[tokio::test]
async fn a_failure_of_the_querys_cursor_that_the_census_made_unneeded_is_said() {
    // The count of the query answers, and retires the query's own cursor, which was refused
    // (or is refused as it is retired): the load is whole, and the refusal is said.
    let (_, stderr) = whole_despite(vec![refused("untyped", 2), refused(CONNECT, 1)]).await;
    assert_eq!(
        stderr,
        format!(
            "callscope: note: every event of the query arrived; requests no longer needed \
             failed: loading the query: {r}; loading the {CONNECT} events: {r}\n",
            r = refusal_401()
        )
    );
}

#[tokio::test]
async fn a_failure_of_a_types_cursor_is_said_when_the_querys_own_cursor_brought_every_event() {
    // The join cursor is refused at its first page: no census can be taken, and the query's own
    // cursor pages to its end.
    let (_, stderr) = whole_despite(vec![refused(JOIN, 0)]).await;
    assert_eq!(
        stderr,
        format!(
            "callscope: note: every event of the query arrived; a request no longer needed \
             failed: loading the {JOIN} events: {}\n",
            refusal_401()
        )
    );
}

#[tokio::test]
async fn with_stderr_closed_a_note_is_lost_and_the_exit_status_stays() {
    // stderr is a pipe whose reader is gone: writing the note fails, and is no panic.
    let server = redundantly_refused().await;
    let url = server.url.clone();
    let status = tokio::task::spawn_blocking(move || {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_callscope"))
            .args([
                "list",
                "--live",
                "--base-url",
                &url,
                "--room",
                catalog::ROOM,
            ])
            .args(["--page-size", "3", "--format", "ndjson"])
            .env("HMS_MANAGEMENT_TOKEN", TOKEN)
            .env_remove("CALLSCOPE_CONFIG")
            .env_remove("CALLSCOPE_PROFILE")
            .env_remove("XDG_CONFIG_HOME")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stderr.take());
        child.wait().unwrap()
    })
    .await
    .unwrap();
    assert_eq!(status.code(), Some(0));
}

/// Twelve events, four connects first, then one of each other type twice over.
fn redundantly_refused_types() -> Vec<&'static str> {
    vec![
        CONNECT,
        CONNECT,
        CONNECT,
        CONNECT,
        JOIN,
        SUBSCRIBE,
        PUBLISH,
        DISCONNECTED,
        JOIN,
        SUBSCRIBE,
        PUBLISH,
        DISCONNECTED,
    ]
}

#[tokio::test]
async fn a_partial_answer_narrowed_by_a_filter_of_ours_saves_no_total_and_says_more_followed() {
    let dir = tempfile::tempdir().unwrap();
    // `--search` is applied to what arrives: the service's total counts what it leaves out.
    let (out, path, saved) = saved_partial(dir.path(), &["--search", "p1"]).await;
    let stderr = text(&out.stderr);
    // p1 and p15 of the nine that arrived.
    assert!(
        stderr.starts_with(
            "callscope: partial: the answer holds only what arrived before the failure below, \
             2 matching events, of the 9 of the query's 15 events that arrived. In full: "
        ),
        "{stderr}"
    );
    assert_eq!(saved["limit"], 2);
    assert_eq!(saved["total"], serde_json::Value::Null, "not known");
    assert_eq!(saved["next"], "o:6");
    let reopened = list_file(&path, &[]);
    assert_eq!(reopened.status.code(), Some(0));
    assert_eq!(
        text(&reopened.stderr),
        "callscope: partial: the saved page holds 2 events, and more followed (no page is the \
         query's last)\n"
    );
    assert_eq!(text(&reopened.stdout).lines().count(), 2);
}
