//! What the explorer opens on: a damaged, empty or piped gzip dump, the demo when nothing is
//! given or at 60 columns, a live source that is refused, asks for a room, answers slowly, or
//! restarts part-way.

use super::*;

/// The demo's weekly-allhands room.
const ALLHANDS: &str = "673a1f2c9e4b8d0a5c7e3f21";

#[test]
fn a_damaged_file_opens_with_its_readable_events_and_the_problem_in_the_header() {
    let dir = tempfile::tempdir().unwrap();
    let good = |n: u32, kind: &str| {
        format!(
            r#"{{"version":"2.0","id":"00000000-0000-4000-8000-{n:012}","timestamp":"2026-11-18T10:00:0{n}.000000001Z","type":"{kind}","data":{{"room_id":"r1","room_name":"standup","peer_id":"p{n}","user_name":"User {n}","error_code":4005,"error_name":"ICEFailure","is_terminal":true,"action":"JOIN"}}}}"#
        )
    };
    let text = format!(
        "{}\n{}\n{{\"version\":\"2.0\",\"id\":\"broken\",\"data\":{{\"error_code\":\n",
        good(1, "client.join.failed"),
        good(2, "client.publish.failed"),
    );
    std::fs::write(dir.path().join("damaged.ndjson"), text).unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    tmux.launch("", "damaged.ndjson");
    let screen = tmux.wait_for_text("2 shown / 2 loaded │ idle");
    assert!(screen.contains("FILE  damaged.ndjson"), "{screen}");
    let problem = screen
        .lines()
        .find(|l| l.contains('⚠'))
        .unwrap_or_else(|| panic!("no problem in the header:\n{screen}"));
    let position = problem
        .split("damaged.ndjson:")
        .nth(1)
        .and_then(|rest| rest.split(": ").next())
        .unwrap_or_default();
    let numbers: Vec<&str> = position.split(':').collect();
    assert!(
        numbers.len() == 2 && numbers.iter().all(|n| n.parse::<usize>().is_ok()),
        "the problem names the file and line:column: {problem}"
    );
    assert_eq!(list_rows(&screen).len(), 2, "{screen}");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

#[test]
fn with_no_source_and_no_token_the_explorer_says_it_opened_the_demo_and_how_to_go_live() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    tmux.launch("", "");
    let screen = tmux.wait_for_text("no token was found, so this is the demo");
    assert!(screen.contains("DEMO"), "{screen}");
    assert!(screen.contains("set HMS_MANAGEMENT_TOKEN"), "{screen}");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

#[test]
fn at_60_columns_the_demo_opens_with_its_counts_whole_and_every_type_marked() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    tmux.ok(&["resize-window", "-t", "main", "-x", "60"]);
    tmux.start_demo("", "");
    let screen = tmux.screen();
    let mut lines = screen.lines();
    let (first, types) = (lines.next().unwrap(), lines.next().unwrap());
    let every = demo_count(&Filter::default());
    assert!(
        first.contains(&format!(" {every} shown / {every} loaded │ idle")),
        "{screen}"
    );
    // Every number on the line is the count, whole: none cut into another.
    let numbers: Vec<&str> = first
        .split(|c: char| !c.is_ascii_digit() && c != ',')
        .filter(|n| n.contains(|c: char| c.is_ascii_digit()))
        .collect();
    assert_eq!(numbers, [every.as_str(), every.as_str()], "{screen}");
    for k in 1..=5 {
        assert!(types.contains(&format!("[x]{k}")), "{screen}");
    }
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

#[test]
fn an_empty_file_opens_with_a_note_that_it_is_empty() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("empty.json"), "").unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    tmux.launch("", "empty.json");
    let screen = tmux.wait_for_text("note: empty.json is empty: it holds no events");
    assert!(screen.contains("0 shown / 0 loaded"), "{screen}");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

#[test]
fn a_gzip_dump_piped_in_opens_with_every_event_and_answers_keys() {
    let dir = tempfile::tempdir().unwrap();
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo.ndjson.gz");
    std::fs::copy(&demo, dir.path().join("demo.ndjson.gz")).unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    // Stdin is the pipe; the keys come from the terminal.
    tmux.launch("cat demo.ndjson.gz | ", "-");
    let every = demo_count(&Filter::default());
    let screen = tmux.wait_for_text(&format!("{every} shown / {every} loaded │ idle"));
    assert!(screen.contains("FILE  -"), "{screen}");
    assert!(!screen.contains('⚠'), "no problem: {screen}");
    tmux.keys(&["3"]);
    let joins = demo_count(&Filter {
        types: vec![EventType::Join],
        ..Filter::default()
    });
    tmux.wait_for_text(&format!("{joins} shown / {every} loaded"));
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

#[test]
fn a_live_explorer_refused_by_the_api_says_why_in_full_with_the_profiles_token_variable() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    let upstream = serve_demo("tok-good-9f2e");
    // A profile that reads the token from a variable of its own.
    std::fs::write(
        dir.path().join("prod.toml"),
        format!(
            "[profiles.prod]\nbase_url = \"{}\"\nlive = true\ntoken_env = \"PROD_TOKEN\"\n",
            upstream.url
        ),
    )
    .unwrap();
    tmux.launch(
        "PROD_TOKEN=tok-wrong-41c7 ",
        "--config prod.toml --profile prod --room 673a1f2c9e4b8d0a5c7e3f21",
    );
    let screen = tmux.wait_for_text("the query again)");
    // The reason, whole (the header has room for its start only), naming the variable the
    // profile reads and never the token.
    let body: String = screen
        .lines()
        .skip(4)
        .map(|l| l.split('│').next().unwrap_or("").trim())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        body.contains("no events loaded: HTTP 401")
            && body.contains("check the token: PROD_TOKEN")
            && body.contains("R runs the query again"),
        "{screen}"
    );
    assert!(!screen.contains("HMS_MANAGEMENT_TOKEN"), "{screen}");
    assert!(!screen.contains("tok-wrong-41c7"), "{screen}");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

/// A server started again while the explorer pages through it refuses the cursor the explorer
/// holds: the query is asked again from its first page, the status line says so, and loading
/// every page goes on to the end, each event once. (One type: one cursor, which nothing else
/// would make up for.)
#[test]
fn a_cursor_refused_by_a_restarted_server_is_asked_again_and_every_page_loads() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    let token = "tok-again-6c3d";
    let upstream = serve_demo(token);
    tmux.launch(
        &format!("HMS_MANAGEMENT_TOKEN={token} "),
        &format!(
            "--live --base-url {} --room {ALLHANDS} --type join --page-size 10",
            upstream.url
        ),
    );
    tmux.wait_for(
        |s| s.contains("events 1/") && s.contains("more as you scroll"),
        "the first pages",
    );
    // The same server on the same port, started again: the cursors of the first are not its
    // own.
    let port = upstream.port;
    drop(upstream);
    let mut again = Command::new(env!("CARGO_BIN_EXE_callscope"));
    again
        .args(["serve", "--demo", "--addr", &format!("127.0.0.1:{port}")])
        .env("CALLSCOPE_SERVE_TOKEN", token)
        .stderr(std::process::Stdio::null());
    let _upstream = common::Server::spawn(again);
    tmux.keys(&["A"]);
    let screen = tmux.wait_for_text("all pages loaded");
    let joins = Filter {
        types: vec![EventType::Join],
        ..Filter::default().with(callscope::event::Field::Room, ALLHANDS)
    };
    let count = demo_count(&joins);
    assert!(
        screen.contains(&format!(
            "{count} shown / {count} loaded │ all pages loaded"
        )),
        "{screen}"
    );
    assert!(
        !screen.contains("dropped") && !screen.contains("dup."),
        "no copy counted as dropped: {screen}"
    );
    // The status line, as far as the terminal's width shows it.
    assert!(
        screen.contains(
            "the service refused the cursor of the query with HTTP 400: Bad Request (invalid or \
             expired start cursor); asked again"
        ),
        "{screen}"
    );
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

#[test]
fn r_keeps_the_rows_and_the_selected_event_on_screen_until_the_slow_answer_arrives() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    // A server that answers each request after a second and a half.
    let upstream = serve(&["--demo", "--delay-ms", "1500"], "tok-slow-5d1e");
    tmux.launch(
        "HMS_MANAGEMENT_TOKEN=tok-slow-5d1e ",
        &format!(
            "--live --base-url {} --room 673a1f2c9e4b8d0a5c7e3f21",
            upstream.url
        ),
    );
    tmux.wait_for(
        |s| s.contains("events 1/") && s.contains("more as you scroll"),
        "the first page",
    );
    for _ in 0..5 {
        tmux.keys(&["j"]);
    }
    let before = tmux.wait_for_text("events 6/");
    let rows_before: Vec<String> = list_rows(&before).iter().map(|r| r.to_string()).collect();
    assert!(rows_before.len() > 6, "{before}");
    tmux.keys(&["R"]);
    // While the query runs again, the old rows and the selection stay.
    let during = tmux.wait_for_text("these rows stay until its answer arrives");
    assert!(during.contains("running again…"), "{during}");
    assert_eq!(list_rows(&during), rows_before, "{during}");
    assert!(during.contains("events 6/"), "{during}");
    // The answer: the selected event is found again, on the line it was on, and the status
    // line no longer says the rows wait for it.
    let after = tmux.wait_for(
        |s| {
            !s.contains("running again")
                && s.contains("more as you scroll")
                && !s.contains("these rows stay")
        },
        "the new answer",
    );
    assert!(after.contains("events 6/"), "{after}");
    assert_eq!(list_rows(&after)[5], rows_before[5], "{after}");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

#[test]
fn with_no_room_the_live_explorer_asks_for_one_looks_its_name_up_and_remembers_it() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    let upstream = serve_demo("tok-room-2b7a");
    let launch = || {
        tmux.launch(
            "HMS_MANAGEMENT_TOKEN=tok-room-2b7a ",
            &format!("--live --base-url {}", upstream.url),
        )
    };
    launch();
    // No query is sent (serve, like the hosted API, refuses one without a room): the prompt
    // offers the rooms of the demo's recent sessions, named through the rooms endpoint.
    let screen = tmux.wait_for(
        |s| s.contains("Choose a room") && s.contains("weekly-allhands") && s.contains("peers"),
        "the room prompt with the recent sessions' rooms",
    );
    assert!(screen.contains("no room chosen"), "{screen}");
    assert!(!screen.contains("room_id is required"), "{screen}");
    assert!(!screen.contains("Rooms used before"), "{screen}");
    // A name, looked up: its events load.
    tmux.type_text("weekly-allhands");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for(
        |s| s.contains("events 1/") && s.contains("more as you scroll"),
        "the room's first page",
    );
    assert!(screen.contains("room=673a1f2c9e4b8d0a5c7e3f21"), "{screen}");
    assert!(!screen.contains("Choose a room"), "{screen}");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
    let remembered = std::fs::read_to_string(tmux.state_home.join("callscope").join("rooms.json"))
        .expect("the room is remembered in the state folder");
    assert!(
        remembered.contains("673a1f2c9e4b8d0a5c7e3f21") && remembered.contains("weekly-allhands"),
        "{remembered}"
    );
    // The next run offers it among the rooms used before.
    launch();
    let screen = tmux.wait_for(
        |s| s.contains("Rooms used before") && s.contains("peers"),
        "the prompt with the rooms used before",
    );
    let used = screen
        .split("Rooms used before")
        .nth(1)
        .expect("the section is drawn");
    assert!(used.contains("weekly-allhands"), "{screen}");
    // Taken with the arrows: the last room offered is the one used before.
    for _ in 0..20 {
        tmux.keys(&["Down"]);
    }
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for(
        |s| s.contains("events 1/") && s.contains("more as you scroll"),
        "the first page of the room used before",
    );
    assert!(screen.contains("room=673a1f2c9e4b8d0a5c7e3f21"), "{screen}");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}
