//! When requests go out and stop: pages only when asked, a new query dropping or cancelling the
//! old one's requests, stop, and what the worker says is on its way.

use super::*;

#[tokio::test(start_paused = true)]
async fn pages_are_fetched_only_when_asked_and_one_at_a_time() {
    let server = FaultServer::start(vec![
        Reply::page(&[1, 2, 3], "n1", 9),
        Reply::page(&[4, 5, 6], "n2", 9),
        Reply::page(&[7, 8, 9], "", 9),
    ])
    .await;
    let (commands, mut reports) = ask(&server.url, 3, Filter::default());
    let mut pages = 0;
    while pages < 1 {
        if let Report::Page { .. } = reports.recv().await.unwrap() {
            pages += 1;
        }
    }
    // Nothing more is requested until the explorer asks.
    tokio::time::sleep(Duration::from_secs(60)).await;
    assert_eq!(server.count(), 1);
    // Asking twice while a request is in flight still makes one request.
    commands.send(Command::NextPage { id: 1 }).unwrap();
    commands.send(Command::NextPage { id: 1 }).unwrap();
    while pages < 2 {
        if let Report::Page { .. } = reports.recv().await.unwrap() {
            pages += 1;
        }
    }
    tokio::time::sleep(Duration::from_secs(60)).await;
    assert_eq!(server.count(), 2);
}

#[tokio::test(start_paused = true)]
async fn a_new_query_drops_the_request_of_the_old_one() {
    let server = FaultServer::start(vec![Reply::Hang, Reply::page(&[1], "", 1)]).await;
    let (commands, mut reports) = ask(&server.url, 3, Filter::default());
    // Wait until the first request is on the wire.
    while server.count() < 1 {
        tokio::task::yield_now().await;
    }
    commands
        .send(Command::Query {
            id: 2,
            filter: Filter::default(),
        })
        .unwrap();
    loop {
        match reports.recv().await.unwrap() {
            Report::Page { query, .. } => {
                assert_eq!(query, 2, "only the new query's page arrives");
                break;
            }
            Report::Retrying { query, .. } => assert_eq!(query, 2),
            _ => {}
        }
    }
}

// "Load everything", one cursor per type.

#[tokio::test(start_paused = true)]
async fn stop_halts_every_cursor_once_what_is_in_flight_has_arrived() {
    let server = Catalog::start(setup(mixed(60))).await;
    let (commands, mut reports) = load_everything_without_a_type(&server);
    five_typed_at_once(&server).await;
    let stopped = Instant::now();
    commands.send(Command::Stop { id: 1 }).unwrap();
    // Long enough for anything still to come.
    tokio::time::sleep(Duration::from_secs(60)).await;
    let requests = server.requests();
    assert!(
        requests.iter().all(|r| r.arrived <= stopped + DELAY),
        "no request after those in flight at the stop were answered: {requests:#?}"
    );
    let mut pages = 0;
    let mut events = 0;
    while let Ok(report) = reports.try_recv() {
        match report {
            Report::Page { page, .. } => {
                pages += 1;
                events += page.batch.len();
            }
            Report::Finished { .. } | Report::Failed { .. } => panic!("the query was stopped"),
            _ => {}
        }
    }
    assert!(pages >= 2 && events > 3, "what was in flight was reported");
    // Asking for the next page brings the events that come next, and no more requests than the
    // cursors the merge waits on.
    let before = server.requests().len();
    commands.send(Command::NextPage { id: 1 }).unwrap();
    let next = loop {
        match reports.recv().await.unwrap() {
            Report::Page { page, .. } => break page.batch.len(),
            Report::Finished { .. } | Report::Failed { .. } => panic!("the query was stopped"),
            _ => {}
        }
    };
    assert!(next > 0);
    let asked = server.requests().len() - before;
    assert!(
        (1..=6).contains(&asked),
        "{asked} requests for the next page"
    );
    events += next;
    // Loading everything again picks up where it stopped.
    commands.send(Command::LoadAll { id: 1 }).unwrap();
    let mut store = Store::new();
    let (failure, _) = drive(&mut reports, &mut store, 1).await;
    assert_eq!(failure, None);
    assert_eq!(store.len() + events, 60, "every event once");
}

#[tokio::test(start_paused = true)]
async fn a_new_query_cancels_every_cursor_of_the_old_one() {
    let server = Catalog::start(setup(mixed(60))).await;
    let (commands, mut reports) = load_everything_without_a_type(&server);
    five_typed_at_once(&server).await;
    let switched = Instant::now();
    commands
        .send(Command::Query {
            id: 2,
            filter: join_only(),
        })
        .unwrap();
    commands.send(Command::LoadAll { id: 2 }).unwrap();
    let mut store = Store::new();
    let (failure, _) = drive(&mut reports, &mut store, 2).await;
    assert_eq!(failure, None);
    let joins: Vec<u32> = (1..=60u32)
        .filter(|&k| mixed(60)[k as usize - 1] == JOIN)
        .collect();
    assert_eq!(numbers(&store), joins, "only the new query's events");
    let late: Vec<_> = server
        .requests()
        .into_iter()
        .filter(|r| r.arrived > switched && r.key != JOIN)
        .collect();
    assert!(
        late.is_empty(),
        "the old query's cursors asked for more: {late:#?}"
    );
}

/// The requests on their way as the worker reports them, one line per report: each request's
/// part, or "none".
async fn in_flight_reports(server: &FaultServer, filter: Filter) -> Vec<String> {
    let (commands, mut reports) = ask(&server.url, 3, filter);
    commands.send(Command::LoadAll { id: 1 }).unwrap();
    let mut seen = Vec::new();
    loop {
        match reports
            .recv()
            .await
            .expect("the worker reports until the end")
        {
            Report::InFlight { requests, .. } => {
                let parts: Vec<String> = requests.into_iter().map(|r| r.part).collect();
                seen.push(if parts.is_empty() {
                    "none".to_string()
                } else {
                    parts.join(" + ")
                });
            }
            Report::Finished { .. } | Report::Failed { .. } => {
                // The last report of the requests follows at once.
                if let Ok(Report::InFlight { requests, .. }) = reports.try_recv() {
                    assert!(requests.is_empty());
                    seen.push("none".into());
                }
                return seen;
            }
            _ => {}
        }
    }
}

#[tokio::test(start_paused = true)]
async fn the_worker_says_which_part_of_the_query_each_request_on_its_way_loads() {
    let one_page = || vec![Reply::page(&[1, 2], "", 2)];
    // No type: the one cursor asks for the error events.
    let server = FaultServer::start(one_page()).await;
    let seen = in_flight_reports(&server, in_room()).await;
    assert_eq!(seen, ["the error events (error=true)", "none"]);
    // A type: its events.
    let server = FaultServer::start(one_page()).await;
    let seen = in_flight_reports(&server, join_only()).await;
    assert_eq!(seen, ["the client.join.failed events", "none"]);
}

#[tokio::test(start_paused = true)]
async fn each_page_of_a_cursor_is_reported_as_a_request_of_its_own() {
    // One cursor, three pages: each page's request is reported with the time it was sent, so
    // that the header counts a stalled request's wait, not the whole load's.
    let server = FaultServer::start(vec![
        Reply::page(&[1, 2], "n1", 6),
        Reply::page(&[3, 4], "n2", 6),
        Reply::page(&[5, 6], "", 6),
    ])
    .await;
    let (commands, mut reports) = ask(&server.url, 3, join_only());
    commands.send(Command::LoadAll { id: 1 }).unwrap();
    let mut sent = Vec::new();
    loop {
        match reports.recv().await.expect("reports until the end") {
            Report::InFlight { requests, .. } => sent.extend(requests.into_iter().map(|r| r.since)),
            Report::Finished { .. } | Report::Failed { .. } => break,
            _ => {}
        }
    }
    sent.dedup();
    assert_eq!(sent.len(), 3, "{sent:?}");
}
