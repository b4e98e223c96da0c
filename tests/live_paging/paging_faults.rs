//! Paging through faults: every event arrives once past 429s, 500s, drops, truncation, hangs,
//! overlapping pages and repeated cursors; runaway paging stops and says why; what cannot be
//! retried is not.

use super::*;

fn assert_each_once(store: &Store, expected: std::ops::RangeInclusive<u32>) {
    let ids = ids_of(store);
    let unique: HashSet<&String> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "an event arrived twice: {ids:?}");
    let want: Vec<String> = expected
        .map(|i| format!("00000000-0000-4000-8000-{i:012}"))
        .collect();
    assert_eq!(ids, want);
}

#[tokio::test(start_paused = true)]
async fn every_event_arrives_once_through_429_500_drops_truncation_and_a_hang() {
    let server = FaultServer::start(vec![
        Reply::Status {
            status: 429,
            body: r#"{"message":"slow down"}"#,
            retry_after: Some(7),
        },
        Reply::page(&[1, 2, 3], "c:1~a=", 9),
        Reply::Status {
            status: 500,
            body: "oops",
            retry_after: None,
        },
        Reply::Drop,
        Reply::page(&[4, 5, 6], "c:2~b_", 9),
        Reply::Truncated,
        Reply::Hang,
        Reply::page(&[7, 8, 9], "", 9),
    ])
    .await;
    let (store, log, failure) = load_all(&server, join_only()).await;
    assert_eq!(failure, None, "{log:#?}");
    assert_each_once(&store, 1..=9);
    let retries: Vec<&String> = log.iter().filter(|l| l.starts_with("retry")).collect();
    assert_eq!(retries.len(), 5, "{log:#?}");
    assert!(
        retries[0].contains("in 7s") && retries[0].contains("HTTP 429"),
        "Retry-After honoured: {}",
        retries[0]
    );
    assert!(retries[1].contains("HTTP 500"), "{}", retries[1]);
    assert_eq!(server.count(), 8);
}

#[tokio::test(start_paused = true)]
async fn an_overlapping_page_is_deduplicated_and_a_changing_total_is_tolerated() {
    let server = FaultServer::start(vec![
        Reply::page(&[1, 2, 3], "n1", 5),
        Reply::page(&[3, 4, 5], "", 6),
    ])
    .await;
    let (store, log, failure) = load_all(&server, join_only()).await;
    assert_eq!(failure, None, "{log:#?}");
    assert_each_once(&store, 1..=5);
    assert_eq!(store.duplicates(), 1);
}

#[tokio::test(start_paused = true)]
async fn a_repeated_cursor_stops_paging_instead_of_looping() {
    let server = FaultServer::start(vec![
        Reply::page(&[1, 2], "same", 9),
        Reply::page(&[3, 4], "same", 9),
    ])
    .await;
    let (store, _, failure) = load_all(&server, join_only()).await;
    let message = failure.expect("paging stops with a message");
    assert!(message.contains("already used"), "{message}");
    assert_each_once(&store, 1..=4);
    assert_eq!(server.count(), 2, "no request after the repeated cursor");
}

#[tokio::test(start_paused = true)]
async fn fresh_cursors_over_empty_pages_stop_after_a_run_and_say_why() {
    let server = FaultServer::start(vec![
        Reply::page(&[1, 2, 3], "n1", 1_000_000),
        Reply::Endless {
            per_page: 0,
            total: 1_000_000,
        },
    ])
    .await;
    let (store, _, failure) = load_all(&server, join_only()).await;
    let message = failure.expect("paging stops with a message");
    assert!(message.contains("10 pages in a row"), "{message}");
    assert_each_once(&store, 1..=3);
    assert_eq!(server.count(), 11, "the first page, then ten empty ones");
}

#[tokio::test(start_paused = true)]
async fn one_event_a_page_under_a_huge_total_stops_after_a_run_and_keeps_the_events() {
    let server = FaultServer::start(vec![Reply::Endless {
        per_page: 1,
        total: 10_000_000_000,
    }])
    .await;
    let (store, _, failure) = load_all_in_pages_of(&server, join_only(), 100).await;
    let message = failure.expect("paging stops with a message");
    assert!(message.contains("of the 100 events asked for"), "{message}");
    assert_eq!(store.len(), 10);
    assert_eq!(server.count(), 10);
}

#[tokio::test(start_paused = true)]
async fn pages_past_the_total_stop_and_say_why() {
    let server = FaultServer::start(vec![Reply::Endless {
        per_page: 3,
        total: 5,
    }])
    .await;
    let (store, _, failure) = load_all(&server, join_only()).await;
    let message = failure.expect("paging stops with a message");
    assert!(message.contains("its total says 5"), "{message}");
    // Overlaps and events arriving while paging may pass the total by a page; not by more.
    assert_each_once(&store, 1..=9);
    assert_eq!(server.count(), 3);
}

#[tokio::test(start_paused = true)]
async fn a_body_dripped_a_byte_a_second_is_abandoned_at_the_request_deadline() {
    let server = FaultServer::start(vec![
        Reply::Drip { len: 10_000 },
        Reply::page(&[1, 2, 3], "", 3),
    ])
    .await;
    let started = Instant::now();
    let (_commands, mut reports) = ask(&server.url, 3, join_only());
    let mut store = Store::new();
    let (failure, retries) = drive(&mut reports, &mut store, 1).await;
    assert_eq!(failure, None);
    assert_each_once(&store, 1..=3);
    assert_eq!(retries.len(), 1, "{retries:?}");
    assert_eq!(
        retries[0].reason,
        "network error: timed out (120 s in all, and the answer was not yet whole)"
    );
    let elapsed = started.elapsed() - retries[0].wait;
    assert!(
        elapsed >= callscope::source::api::REQUEST_DEADLINE
            && elapsed < callscope::source::api::REQUEST_DEADLINE + Duration::from_secs(1),
        "abandoned after {elapsed:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn an_answer_larger_than_any_page_is_cut_off_and_not_asked_for_again() {
    let limit = callscope::source::api::MAX_ANSWER_BYTES;
    for announced in [false, true] {
        let server = FaultServer::start(vec![Reply::Huge {
            len: limit * 4,
            announced,
        }])
        .await;
        let (store, _, failure) = load_all(&server, join_only()).await;
        let message = failure.expect("the query fails");
        assert!(message.contains("larger than 16 MiB"), "{message}");
        assert!(store.is_empty());
        assert_eq!(server.count(), 1, "not retried");
        let written = server.written.load(std::sync::atomic::Ordering::Relaxed);
        assert!(
            written < limit * 2,
            "{written} bytes were sent before the client stopped"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn a_401_is_not_retried_and_says_to_check_the_token_without_showing_it() {
    let server = FaultServer::start(vec![Reply::Status {
        status: 401,
        body: r#"{"message":"token expired: test-token-7f3a9c"}"#,
        retry_after: None,
    }])
    .await;
    let (store, log, failure) = load_all(&server, join_only()).await;
    let message = failure.expect("a 401 fails the query");
    assert!(
        message.contains("HTTP 401") && message.contains("check the token"),
        "{message}"
    );
    assert!(
        message.contains("token expired"),
        "the server's message is shown: {message}"
    );
    assert!(
        !message.contains(TOKEN),
        "the token never appears: {message}"
    );
    assert!(log.iter().all(|l| !l.starts_with("retry")));
    assert_eq!(server.count(), 1);
    assert!(store.is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_page_that_is_not_json_fails_after_retries_and_keeps_what_was_loaded() {
    let server = FaultServer::start(vec![Reply::page(&[1, 2, 3], "n1", 6), Reply::NotJson]).await;
    let started = Instant::now();
    let (store, _, failure) = load_all(&server, join_only()).await;
    let message = failure.expect("the bad page fails the query");
    assert!(message.contains("not valid"), "{message}");
    assert_each_once(&store, 1..=3);
    // Retried for as long as failures without a stated wait are, not for a count of tries.
    assert!(
        started.elapsed() >= worker::RETRY_FOR,
        "{:?}",
        started.elapsed()
    );
    assert!(
        started.elapsed() < worker::RETRY_FOR + Duration::from_secs(31),
        "{:?}",
        started.elapsed()
    );
    assert!(server.count() > 6, "{} requests", server.count());
}

/// `list --live` stopped part-way by a failure writes what arrived, and says before the
/// failure that its answer is partial, with each type's count and latest time: read later,
/// the file does not pass for the whole query.
#[tokio::test]
async fn a_list_stopped_part_way_writes_what_arrived_and_says_where_each_type_stops() {
    let server = FaultServer::start(vec![
        Reply::page(&[1, 2, 3], "n1", 6),
        Reply::Status {
            status: 401,
            body: r#"{"message":"token expired"}"#,
            retry_after: None,
        },
    ])
    .await;
    let out = list_live(
        &server,
        &["--type", "join", "--page-size", "3", "--format", "ndjson"],
    )
    .await;
    assert_eq!(out.status.code(), Some(1), "a partial answer exits with 1");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr.clone()).unwrap();
    assert_eq!(
        stdout.lines().count(),
        3,
        "what arrived is written: {stdout} {stderr}"
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    let partial = stderr
        .find(
            "callscope: partial: the answer holds only what arrived before the failure below, \
             3 of the query's 6 events, from 2026-11-18T10:00:01.123456789Z up to \
             2026-11-18T10:00:03.123456789Z; none later arrived. By type: client.join.failed 3 \
             events, the latest at 2026-11-18T10:00:03.123456789Z\n",
        )
        .unwrap_or_else(|| panic!("no partial note: {stderr}"));
    let failure = stderr
        .find("HTTP 401")
        .unwrap_or_else(|| panic!("no failure: {stderr}"));
    assert!(
        partial < failure,
        "the note comes before the failure: {stderr}"
    );
}

/// `list --live` over pages that overlap: the event the second page brings again is dropped,
/// and said on stderr after the answer (there is no follow mode here to fetch it again).
#[tokio::test]
async fn a_list_over_overlapping_pages_says_the_copy_it_dropped() {
    let server = FaultServer::start(vec![
        Reply::page(&[1, 2, 3], "n1", 5),
        Reply::page(&[3, 4, 5], "", 5),
    ])
    .await;
    let out = list_live(
        &server,
        &["--type", "join", "--page-size", "3", "--format", "ndjson"],
    )
    .await;
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 5);
    assert_eq!(
        stderr,
        "callscope: note: 1 matching event dropped: its id was read before (the first copy is \
         kept)\n"
    );
}

/// `list --live` stopped by a failure before any event arrived writes nothing and says no word
/// of a partial answer: there is none, only the failure.
#[tokio::test]
async fn a_list_stopped_before_any_event_speaks_of_no_partial_answer() {
    let server = FaultServer::start(vec![Reply::Status {
        status: 404,
        body: r#"{"message":"not found"}"#,
        retry_after: None,
    }])
    .await;
    let out = list_live(&server, &["--type", "join", "--format", "table"]).await;
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("HTTP 404"), "the failure is said: {stderr}");
    assert!(!stderr.contains("partial"), "no partial answer: {stderr}");
    assert_eq!(stdout, "", "nothing is written");
}

/// An https `--base-url` at a server that answers in plain http fails at once, saying to use
/// http://: no retry can make it speak TLS.
#[tokio::test(start_paused = true)]
async fn https_to_a_plain_http_server_is_not_retried_and_says_to_use_http() {
    // A plain http server: whatever arrives, even a TLS hello, is answered in plain text.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let https = format!("https://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        while let Ok((mut socket, _)) = listener.accept().await {
            let mut buf = [0u8; 1024];
            let _ = socket.read(&mut buf).await;
            let _ = socket
                .write_all(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n")
                .await;
        }
    });
    let (commands, mut reports) = ask(&https, 3, join_only());
    commands.send(Command::LoadAll { id: 1 }).unwrap();
    let mut retries = Vec::new();
    let failure = loop {
        match reports.recv().await.expect("the worker reports") {
            Report::Retrying { retry, .. } => retries.push(retry.reason),
            Report::Failed { message, .. } => break message,
            Report::Finished { .. } => panic!("an https request to a plain server succeeded"),
            _ => {}
        }
    };
    assert_eq!(retries, Vec::<String>::new(), "{failure}");
    assert!(
        failure.contains("the server does not speak TLS (https): use http:// in --base-url"),
        "{failure}"
    );
}

/// A `--base-url` written without http:// or https:// is a usage error before anything is
/// asked, naming the option as it should be written.
#[test]
fn a_base_url_without_its_scheme_is_a_usage_error_naming_the_fix() {
    for command in [&["list", "--live"][..], &["serve", "--live"][..]] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_callscope"))
            .args(command)
            .args([
                "--base-url",
                "127.0.0.1:8431",
                "--room",
                fault_server::ROOM_ID,
            ])
            .env("HMS_MANAGEMENT_TOKEN", TOKEN)
            .env_remove("CALLSCOPE_CONFIG")
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{command:?}: {stderr}");
        assert!(
            stderr.contains("--base-url http://127.0.0.1:8431"),
            "{command:?}: {stderr}"
        );
    }
}

/// `callscope list --live` of the fault server's room with `args` (see [`list_live_at`]).
async fn list_live(server: &FaultServer, args: &[&'static str]) -> std::process::Output {
    list_live_at(&server.url, fault_server::ROOM_ID, args).await
}

/// A request that keeps failing: each retry's countdown leaves no more time than the one
/// before said was left, the last says so, and the request is given up when the countdown
/// ends, whether its tries fail at once (a cut body) or run until a timeout (a hang).
#[tokio::test(start_paused = true)]
async fn the_retry_countdown_agrees_with_itself_and_ends_within_the_time_for_retries() {
    for (reply, first_try, reason) in [
        (Reply::Truncated, Duration::ZERO, "the answer was cut off"),
        (
            Reply::Hang,
            callscope::source::api::READ_TIMEOUT,
            "timed out (30 s without data)",
        ),
    ] {
        let server = FaultServer::start(vec![reply]).await;
        let started = Instant::now();
        let (_commands, mut reports) = ask(&server.url, 3, join_only());
        let mut store = Store::new();
        let (failure, retries) = drive(&mut reports, &mut store, 1).await;
        let failure = failure.expect("the request is given up");
        let took = started.elapsed();
        assert!(retries.len() > 5, "{retries:?}");
        assert!(retries[0].reason.contains(reason), "{}", retries[0].reason);
        // One instant to give up at, said by every retry, and no retry after it.
        let gives_up_at = retries[0].gives_up_at;
        for r in &retries {
            assert_eq!(r.gives_up_at, gives_up_at, "{r:?}");
            assert!(r.until() <= gives_up_at, "{r:?}");
        }
        let last = retries.last().unwrap();
        assert_eq!(last.giving_up(), "the last", "{last:?}");
        // Not given up before the countdown said.
        assert!(Instant::now().into_std() >= gives_up_at, "{failure}");
        // The first try, the time for retries, and the last try begun as it ended (which
        // takes as long as the first).
        assert!(
            took <= first_try + worker::RETRY_FOR + first_try,
            "{took:?}: {failure}"
        );
        assert!(
            took >= first_try + worker::RETRY_FOR,
            "retried for the whole time: {took:?}"
        );
    }
}

/// A page of valid JSON in another shape is said as what it is, with what was expected where,
/// and not asked for again: the service would answer so again.
#[tokio::test(start_paused = true)]
async fn a_page_of_json_in_another_shape_says_what_was_expected_and_is_not_retried() {
    let server = FaultServer::start(vec![
        Reply::page(&[1, 2, 3], "n1", 6),
        Reply::Json(r#"{"data":[1,2,3]}"#),
    ])
    .await;
    let (store, log, failure) = load_all(&server, join_only()).await;
    assert_eq!(
        failure.as_deref(),
        Some(
            "the server's answer is JSON but not a page of events: it has no \"events\" array \
             (its fields: \"data\") (check --base-url)"
        )
    );
    assert_each_once(&store, 1..=3);
    assert!(log.iter().all(|l| !l.starts_with("retry")), "{log:#?}");
    assert_eq!(server.count(), 2);
}

/// A 429 whose stated wait is `secs`, again and again.
fn rate_limited_every_time(secs: u64) -> Reply {
    Reply::Status {
        status: 429,
        body: r#"{"message":"Too Many Requests"}"#,
        retry_after: Some(secs),
    }
}

/// A wait the server states is honoured whole, never cut to the time left: where it would end
/// past the time for retries, the request is given up at once in the server's words, rather
/// than sent early to be refused again.
#[tokio::test(start_paused = true)]
async fn a_stated_wait_past_the_time_for_retries_gives_up_at_once_instead_of_asking_early() {
    // Asked at 0, 7, 14, 21 and 28 min: the fifth refusal's wait would end at 35 min, past
    // the 30 min of retries.
    let server = FaultServer::start(vec![rate_limited_every_time(7 * 60)]).await;
    let started = Instant::now();
    let (_commands, mut reports) = ask(&server.url, 3, join_only());
    let mut store = Store::new();
    let (failure, retries) = drive(&mut reports, &mut store, 1).await;
    let failure = failure.expect("the request is given up");
    assert_eq!(
        failure,
        "HTTP 429: Too Many Requests; the service asks to wait 7 min, which would end past the \
         30 min of retries since the first failure"
    );
    assert_eq!(server.requests.lock().unwrap().len(), 5);
    assert_eq!(retries.len(), 4, "{retries:?}");
    for r in &retries {
        assert_eq!(r.wait, Duration::from_secs(7 * 60), "{r:?}");
        assert!(r.asked);
    }
    let took = started.elapsed();
    assert!(took >= Duration::from_secs(4 * 7 * 60), "{took:?}");
    assert!(took < worker::WAIT_FOR, "{took:?}");
}

/// A stated wait longer than ten minutes is honoured whole too (20 min: asked again once, at
/// 20 min), and one longer than the time for retries gives the request up at the first refusal.
#[tokio::test(start_paused = true)]
async fn a_stated_wait_of_any_length_is_honoured_whole_or_given_up_at_once() {
    for (secs, requests) in [(20 * 60, 2), (2 * 60 * 60, 1)] {
        let server = FaultServer::start(vec![rate_limited_every_time(secs)]).await;
        let (_commands, mut reports) = ask(&server.url, 3, join_only());
        let mut store = Store::new();
        let (failure, retries) = drive(&mut reports, &mut store, 1).await;
        let failure = failure.expect("the request is given up");
        assert!(
            failure.contains("which would end past the 30 min"),
            "{failure}"
        );
        assert_eq!(server.requests.lock().unwrap().len(), requests, "{secs}");
        for r in &retries {
            assert_eq!(r.wait, Duration::from_secs(secs), "{r:?}");
        }
    }
}

/// A 503 with a stated wait gives the request the longer time for retries; a failure after it
/// without one does not take that time back: the request is given up no earlier than the
/// first countdown said.
#[tokio::test(start_paused = true)]
async fn a_failure_without_a_stated_wait_keeps_the_time_a_stated_wait_gave() {
    let busy = |retry_after| Reply::Status {
        status: 503,
        body: r#"{"message":"Service Unavailable"}"#,
        retry_after,
    };
    let server = FaultServer::start(vec![busy(Some(60)), busy(None)]).await;
    let (_commands, mut reports) = ask(&server.url, 3, join_only());
    let mut store = Store::new();
    let (failure, retries) = drive(&mut reports, &mut store, 1).await;
    let failure = failure.expect("the request is given up");
    assert!(failure.starts_with("HTTP 503"), "{failure}");
    let said = retries[0].gives_up_at;
    assert_eq!(said, retries[0].at + worker::WAIT_FOR);
    for r in &retries {
        assert_eq!(r.gives_up_at, said, "{r:?}");
    }
    assert!(Instant::now().into_std() >= said, "given up early");
}
