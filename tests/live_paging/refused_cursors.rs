//! A cursor the service refuses (expired, or of a server that restarted): its query is asked
//! again from its first page, every event arrives once, and it is said; a service that refuses
//! every cursor fails the query as before, without asking on and on.

use super::*;
use catalog::{REFUSED_CURSOR, TOO_MANY};

/// What the note of a query asked again says, with one cursor (`list --live` writes it after
/// `callscope: `).
const ASKED_AGAIN: &str = "the service refused the cursor of the query with HTTP 400: Bad Request \
                           (invalid or expired start cursor); asked again from its first page";

/// The catalog's events, `mixed(60)`, paged three at a time, refusing the start cursors that
/// `refuse_start` picks (by the cursor's key and the number of its requests with one) and any
/// request past the hundredth.
async fn refusing(refuse_start: fn(&str, usize) -> bool) -> Catalog {
    let mut setup = setup(mixed(60));
    setup.refuse_start = refuse_start;
    setup.most_requests = Some(100);
    Catalog::start(setup).await
}

/// The numbers of the catalog's events of type `kind`.
fn of_type(kind: &str) -> Vec<u32> {
    (1..=60u32)
        .filter(|&k| mixed(60)[k as usize - 1] == kind)
        .collect()
}

/// Everything the worker reported of query 1 when loading every page of `filter`: the store,
/// the notes of queries asked again, and the failure.
async fn load_noting(
    url: &str,
    filter: Filter,
    fanout: Fanout,
) -> (Store, Vec<String>, Option<String>) {
    let api = Api::new(url, PAGE).unwrap();
    let (reports_tx, mut reports) = mpsc::unbounded_channel();
    let commands = worker::spawn_with(api, tokens(), reports_tx, fanout);
    commands.send(Command::Query { id: 1, filter }).unwrap();
    commands.send(Command::LoadAll { id: 1 }).unwrap();
    let mut store = Store::new();
    let mut notes = Vec::new();
    loop {
        match reports.recv().await.expect("the worker reports") {
            Report::Page { page, .. } => {
                store.merge(*page.batch);
            }
            Report::Restarted { message, .. } => notes.push(message),
            Report::Finished { .. } => return (store, notes, None),
            Report::Failed { message, .. } => return (store, notes, Some(message)),
            _ => {}
        }
    }
}

#[tokio::test]
async fn list_live_asks_a_query_whose_cursor_is_refused_again_and_prints_each_event_once() {
    // The third page's cursor is refused.
    let server = refusing(|_, n| n == 1).await;
    let out = list_ndjson(&server, &["--type", JOIN]).await;
    let stderr = String::from_utf8(out.stderr.clone()).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(numbers_of_lines(&out.stdout), of_type(JOIN), "{stderr}");
    // The copies the new run brought again are not the service's own: no note of any dropped.
    assert_eq!(stderr, format!("callscope: {ASKED_AGAIN}\n"));
    let starts: Vec<Option<String>> = server.requests().into_iter().map(|r| r.start).collect();
    let o = |s: &str| Some(s.to_string());
    assert_eq!(
        starts,
        [None, o("o:3"), o("o:6"), None, o("o:3"), o("o:6"), o("o:9")],
        "from the first page again, to the end"
    );
}

#[tokio::test]
async fn list_live_of_every_type_asks_a_refused_cursor_again_and_prints_each_event_once() {
    let server = refusing(|key, n| key == JOIN && n == 1).await;
    let out = list_ndjson(&server, &[]).await;
    let stderr = String::from_utf8(out.stderr.clone()).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(
        numbers_of_lines(&out.stdout),
        (1..=60).collect::<Vec<_>>(),
        "{stderr}"
    );
    let notes: Vec<&str> = stderr.lines().collect();
    assert_eq!(notes.len(), 1, "{stderr}");
    assert!(
        notes[0].starts_with(&format!(
            "callscope: the service refused the cursor of the {JOIN} events"
        )) && notes[0].ends_with(
            " with HTTP 400: Bad Request (invalid or expired start cursor); asked again \
                 from its first page"
        ),
        "{stderr}"
    );
    assert_eq!(
        server.requests().iter().filter(|r| r.status == 400).count(),
        1
    );
}

/// The service's own repeats stay counted as dropped copies; the copies a query asked again
/// brings of what was read before are not.
#[tokio::test]
async fn list_live_counts_the_services_repeats_and_not_the_copies_read_again() {
    let server = FaultServer::start(vec![
        Reply::page(&[1, 2, 2], "c1", 6),
        Reply::page(&[3, 4], "c2", 6),
        Reply::Status {
            status: 400,
            body: REFUSED_CURSOR,
            retry_after: None,
        },
        // The new run: its cursors may well be written as the refused run's were.
        Reply::page(&[1, 2, 2], "c1", 6),
        Reply::page(&[3, 4], "c2", 6),
        Reply::page(&[5, 2], "", 6),
    ])
    .await;
    let out = list_live_at(
        &server.url,
        fault_server::ROOM_ID,
        &["--type", "join", "--page-size", "3", "--format", "ndjson"],
    )
    .await;
    let stderr = String::from_utf8(out.stderr.clone()).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(numbers_of_lines(&out.stdout), [1, 2, 3, 4, 5], "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "callscope: {ASKED_AGAIN}\ncallscope: note: 2 matching events dropped: their ids \
             were read before (the first copy of each is kept)\n"
        ),
        "the second 2 of the first page and the 2 of the last"
    );
    assert_eq!(server.count(), 6);
}

#[tokio::test]
async fn list_live_against_a_service_refusing_every_cursor_fails_as_before() {
    let server = refusing(|_, _| true).await;
    let out = list_ndjson(&server, &["--type", JOIN]).await;
    let stderr = String::from_utf8(out.stderr.clone()).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let statuses: Vec<u16> = server.requests().iter().map(|r| r.status).collect();
    assert_eq!(
        statuses,
        [200, 400, 200, 400],
        "asked again once, then failed: {stderr}"
    );
    assert_eq!(
        numbers_of_lines(&out.stdout),
        of_type(JOIN)[..3],
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("callscope: {ASKED_AGAIN}\n")),
        "{stderr}"
    );
    assert!(
        stderr.ends_with("HTTP 400: Bad Request (invalid or expired start cursor)\n"),
        "the refusal, as a failure: {stderr}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_refused_cursor_of_one_type_is_asked_again_and_the_events_come_once_in_order() {
    let server = refusing(|key, n| key == JOIN && n == 1).await;
    let (store, notes, failure) = load_noting(&server.url, in_room(), Fanout::PerType).await;
    assert_eq!(failure, None, "{notes:?}");
    assert_eq!(numbers(&store), (1..=60).collect::<Vec<_>>(), "{notes:?}");
    assert_eq!(store.duplicates(), 0);
    assert_eq!(notes.len(), 1, "{notes:?}");
    // The refused cursor's part of the query was asked for again from its first page.
    let requests = server.requests();
    let refused = requests.iter().position(|r| r.status == 400).unwrap();
    let key = &requests[refused].key;
    assert!(
        requests[refused + 1..]
            .iter()
            .any(|r| &r.key == key && r.start.is_none()),
        "{key}: {requests:#?}"
    );
    let of = match key.as_str() {
        "untyped" => "the cursor of the query ".to_string(),
        kind => format!("the cursor of the {kind} events "),
    };
    assert!(notes[0].contains(&of), "{notes:?}");
}

#[tokio::test(start_paused = true)]
async fn every_cursor_refused_fails_each_after_one_new_run_without_asking_on() {
    let server = refusing(|_, _| true).await;
    let (store, notes, failure) = load_noting(&server.url, in_room(), Fanout::PerType).await;
    let message = failure.expect("the query fails");
    assert!(
        message.contains("invalid or expired start cursor"),
        "{message}"
    );
    let requests = server.requests();
    assert!(
        requests.iter().all(|r| r.status != TOO_MANY),
        "the worker asked on: {} requests",
        requests.len()
    );
    // Each cursor: its first page, a refused cursor, its first page again, refused again.
    for key in std::iter::once("untyped").chain(KNOWN) {
        let statuses: Vec<u16> = requests
            .iter()
            .filter(|r| r.key == key)
            .map(|r| r.status)
            .collect();
        assert_eq!(statuses, [200, 400, 200, 400], "{key}");
    }
    assert_eq!(notes.len(), 6, "{notes:?}");
    let mut got = numbers(&store);
    got.sort();
    got.dedup();
    assert_eq!(got.len(), store.len(), "no event twice");
}

#[tokio::test(start_paused = true)]
async fn a_cursor_refused_again_after_its_new_run_got_further_is_asked_again_once_more() {
    // The third page's cursor, then the fourth's once the new run got past the third.
    let server = refusing(|_, n| n == 1 || n == 4).await;
    let join = Filter {
        types: vec![EventType::Join],
        ..in_room()
    };
    let (store, notes, failure) = load_noting(&server.url, join, Fanout::PerType).await;
    assert_eq!(failure, None, "{notes:?}");
    assert_eq!(numbers(&store), of_type(JOIN));
    assert_eq!(store.duplicates(), 0);
    assert_eq!(notes, [ASKED_AGAIN, ASKED_AGAIN]);
}

#[tokio::test(start_paused = true)]
async fn a_query_whose_first_page_is_refused_once_asked_again_fails() {
    let server = FaultServer::start(vec![
        Reply::page(&[1, 2, 3], "c1", 6),
        Reply::Status {
            status: 400,
            body: REFUSED_CURSOR,
            retry_after: None,
        },
    ])
    .await;
    let (store, notes, failure) = load_noting(&server.url, join_only(), Fanout::PerType).await;
    assert_eq!(
        failure.as_deref(),
        Some("HTTP 400: Bad Request (invalid or expired start cursor)")
    );
    assert_eq!(notes, [ASKED_AGAIN]);
    assert_eq!(numbers(&store), [1, 2, 3]);
    let queries = server.queries();
    assert_eq!(queries.len(), 3, "{queries:#?}");
    assert!(!queries[2].contains("start="), "{}", queries[2]);
}

/// A refusal that is about the token, the address or the rate is not the cursor's: the query
/// is not asked again.
#[tokio::test(start_paused = true)]
async fn a_refusal_of_the_token_or_the_address_is_not_asked_again() {
    for status in [401, 403, 404] {
        let server = FaultServer::start(vec![
            Reply::page(&[1, 2, 3], "c1", 6),
            Reply::Status {
                status,
                body: r#"{"code":0,"message":"no","details":[]}"#,
                retry_after: None,
            },
        ])
        .await;
        let (_, notes, failure) = load_noting(&server.url, join_only(), Fanout::PerType).await;
        assert!(failure.is_some(), "{status}");
        assert_eq!(notes, Vec::<String>::new(), "{status}");
        assert_eq!(server.count(), 2, "{status}");
    }
}
