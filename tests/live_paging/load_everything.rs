//! Loading everything: one cursor per type at once or one untyped cursor, back-to-back pages,
//! the same events in the same order, services that do not order by time, a failing cursor.

use super::*;

/// Each request of a cursor arrived the very instant the previous one was answered.
fn assert_back_to_back(server: &Catalog, key: &str) {
    let requests = server.requests_of(key);
    for pair in requests.windows(2) {
        assert_eq!(
            Some(pair[1].arrived),
            pair[0].answered,
            "{key}: an idle gap between an answer and the next request: {requests:#?}"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn load_everything_asks_for_the_next_page_the_instant_one_arrives() {
    let server = Catalog::start(setup(vec![JOIN; 12])).await;
    let out = load(&server, join_only(), Fanout::PerType, tokens()).await;
    assert_eq!(out.failure, None);
    assert_eq!(out.numbers, (1..=12).collect::<Vec<_>>());
    assert_eq!(
        server.requests().len(),
        4,
        "one cursor: the type was asked for"
    );
    assert_back_to_back(&server, JOIN);
    assert_eq!(
        out.elapsed,
        4 * DELAY,
        "four pages take four answers' time, nothing more"
    );
}

#[tokio::test(start_paused = true)]
async fn without_a_type_one_cursor_per_type_runs_at_once_and_the_events_come_in_order() {
    let server = Catalog::start(setup(mixed(60))).await;
    let (out, ()) = tokio::join!(
        load(&server, in_room(), Fanout::PerType, tokens()),
        five_typed_at_once(&server)
    );
    assert_eq!(out.failure, None);
    assert_eq!(
        out.numbers,
        (1..=60).collect::<Vec<_>>(),
        "every event once, in the order of one cursor over every type"
    );
    assert_eq!(out.duplicates, 0);
    assert_one_request_at_a_time(&server);
    for key in KNOWN {
        assert_eq!(server.requests_of(key).len(), 4, "{key}");
        assert_back_to_back(&server, key);
    }
    assert_back_to_back(&server, "untyped");
    let untyped = server.requests_of("untyped").len();
    assert!(
        untyped < 20,
        "the untyped cursor stops once the typed ones are shown to cover the query: {untyped} requests"
    );
    assert_eq!(server.requests_of("census").len(), 1);
    // The first page, then four pages of each type side by side.
    assert_eq!(out.elapsed, 5 * DELAY);
}

#[tokio::test(start_paused = true)]
async fn list_live_gets_the_same_events_in_the_same_order_with_one_cursor_or_one_per_type() {
    let server = Catalog::start(setup(mixed(60))).await;
    let api = Api::new(&server.url, PAGE).unwrap();
    let mut timed = Vec::new();
    for fanout in [Fanout::Single, Fanout::PerType] {
        let started = Instant::now();
        let store = live::fetch_all_with(&api, tokens(), &in_room(), None, fanout, |_| {}, |_| {})
            .await
            .unwrap_or_else(|u| panic!("{fanout:?}: {}", u.message));
        timed.push((numbers(&store), started.elapsed()));
    }
    let (single, parallel) = (&timed[0], &timed[1]);
    assert_eq!(single.0, (1..=60).collect::<Vec<_>>());
    assert_eq!(parallel.0, single.0);
    assert_eq!(single.1, 20 * DELAY, "twenty pages one after the other");
    assert_eq!(parallel.1, 5 * DELAY, "four times sooner");
}

#[tokio::test(start_paused = true)]
async fn with_a_maximum_no_page_past_it_is_asked_for() {
    let server = Catalog::start(setup(mixed(60))).await;
    let api = Api::new(&server.url, PAGE).unwrap();
    let store = live::fetch_all(&api, tokens(), &in_room(), Some(7), |_| {}, |_| {})
        .await
        .unwrap_or_else(|u| panic!("{}", u.message));
    assert_eq!(numbers(&store), (1..=9).collect::<Vec<_>>());
    let keys: Vec<String> = server.requests().into_iter().map(|r| r.key).collect();
    assert_eq!(
        keys, ["untyped"; 3],
        "the three pages that reach seven events"
    );
}

#[tokio::test(start_paused = true)]
async fn without_a_type_only_error_events_are_asked_for_and_other_families_come_by_type() {
    let mut types = mixed(60);
    types[1] = "track.add.success";
    types[40] = "beam.recording.success";
    let server = Catalog::start(setup(types.clone())).await;
    let out = load(&server, in_room(), Fanout::PerType, tokens()).await;
    assert_eq!(out.failure, None);
    let errors: Vec<u32> = (1..=60).filter(|k| ![2, 41].contains(k)).collect();
    assert_eq!(out.numbers, errors);
    for r in server.requests() {
        assert!(!r.key.contains("track") && !r.key.contains("beam"), "{r:?}");
    }
    // The explorer's toggle for the other families asks for every type by name.
    let server = Catalog::start(setup(types)).await;
    let every = Filter {
        types: KNOWN
            .iter()
            .chain(&["track.add.success", "beam.recording.success"])
            .map(|t| EventType::from_name(t))
            .collect(),
        ..in_room()
    };
    let out = load(&server, every, Fanout::PerType, tokens()).await;
    assert_eq!(out.failure, None);
    assert_eq!(out.numbers, (1..=60).collect::<Vec<_>>());
}

#[tokio::test(start_paused = true)]
async fn error_types_outside_the_five_are_not_lost() {
    let mut types = mixed(60);
    // One on the first page, one deep down: the untyped cursor finds it on the way.
    types[1] = "client.preview.failed";
    types[40] = "client.reconnect.failed";
    let server = Catalog::start(setup(types)).await;
    let out = load(&server, in_room(), Fanout::PerType, tokens()).await;
    assert_eq!(out.failure, None);
    assert_eq!(out.numbers, (1..=60).collect::<Vec<_>>());
    assert_eq!(out.duplicates, 0);
    assert_one_request_at_a_time(&server);
    for key in ["client.preview.failed", "client.reconnect.failed"] {
        assert_eq!(server.requests_of(key).len(), 1, "{key} got a cursor");
    }
    // The first census finds one event more than the typed cursors hold; the second, after the
    // deep one was found, finds the sum.
    assert_eq!(server.requests_of("census").len(), 2);
    assert!(server.requests_of("untyped").len() < 20);
}

#[tokio::test(start_paused = true)]
async fn without_proof_of_coverage_the_untyped_cursor_loads_to_the_end() {
    let mut types = mixed(60);
    // On the untyped cursor's last page: found too late to matter.
    types[59] = "client.reconnect.failed";
    let server = Catalog::start(setup(types)).await;
    let out = load(&server, in_room(), Fanout::PerType, tokens()).await;
    assert_eq!(out.failure, None);
    assert_eq!(out.numbers, (1..=60).collect::<Vec<_>>());
    assert_eq!(server.requests_of("untyped").len(), 20);
    assert_eq!(out.elapsed, 20 * DELAY);
}

#[tokio::test(start_paused = true)]
async fn a_service_that_does_not_order_by_time_is_paged_by_one_cursor_in_its_own_order() {
    let mut setup = setup(mixed(60));
    setup.time = |k| (k * 37) % 61;
    let server = Catalog::start(setup).await;
    let out = load(&server, in_room(), Fanout::PerType, tokens()).await;
    assert_eq!(out.failure, None);
    assert_eq!(
        out.numbers,
        (1..=60).collect::<Vec<_>>(),
        "the service's order"
    );
    let keys: HashSet<String> = server.requests().into_iter().map(|r| r.key).collect();
    assert_eq!(
        keys,
        HashSet::from(["untyped".to_string()]),
        "the first page showed the order is not by time: no typed cursor"
    );
}

#[tokio::test(start_paused = true)]
async fn when_later_pages_show_the_order_is_not_by_time_the_untyped_cursor_finishes_alone() {
    let mut setup = setup(mixed(60));
    // In time order for thirty events, then backwards.
    setup.time = |k| if k <= 30 { k } else { 91 - k };
    let server = Catalog::start(setup).await;
    let out = load(&server, in_room(), Fanout::PerType, tokens()).await;
    assert_eq!(out.failure, None);
    let mut got = out.numbers.clone();
    got.sort();
    assert_eq!(got, (1..=60).collect::<Vec<_>>(), "every event once");
    assert_eq!(out.duplicates, 0);
    assert_eq!(
        out.numbers[..20],
        (1..=20).collect::<Vec<_>>(),
        "in order while the order held"
    );
    let untyped = server.requests_of("untyped");
    assert_eq!(untyped.len(), 20, "the untyped cursor went to the end");
    for key in KNOWN {
        // Its third page, past the thirtieth event, showed time running backwards.
        assert_eq!(
            server.requests_of(key).len(),
            3,
            "{key}: the typed cursors were dropped"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn a_failing_cursor_is_reported_after_the_others_and_their_events_are_kept() {
    let mut setup = setup(mixed(60));
    // Not a refused cursor (a 400), whose query would be asked again from its first page: a
    // refusal that asking again does not get past.
    setup.faults.push(Fault {
        key: JOIN,
        nth: 1,
        status: 404,
        retry_after: None,
    });
    let server = Catalog::start(setup).await;
    let (commands, mut reports) = load_everything_without_a_type(&server);
    let mut store = Store::new();
    let (failure, _) = drive(&mut reports, &mut store, 1).await;
    let message = failure.expect("the join cursor's failure is reported");
    assert!(
        message.contains("client.join.failed") && message.contains("HTTP 404"),
        "{message}"
    );
    let got: HashSet<u32> = numbers(&store).into_iter().collect();
    assert_eq!(got.len(), store.len(), "no event twice");
    let types = mixed(60);
    for k in 1..=60u32 {
        if types[k as usize - 1] != JOIN {
            assert!(got.contains(&k), "event {k} of another type is kept");
        }
    }
    assert!(
        got.len() < 60,
        "the join events after the failure are missing"
    );
    let last_join = server.requests_of(JOIN).last().unwrap().arrived;
    let last_other = server
        .requests()
        .iter()
        .filter(|r| r.key != JOIN)
        .map(|r| r.arrived)
        .max()
        .unwrap();
    assert!(last_other > last_join, "the other cursors went on");

    // Asking again retries the failed cursor from where it stopped.
    commands.send(Command::LoadAll { id: 1 }).unwrap();
    let (failure, _) = drive(&mut reports, &mut store, 1).await;
    assert_eq!(failure, None);
    let join = server.requests_of(JOIN);
    assert_eq!(join[1].status, 404);
    assert_eq!(
        join[2].start, join[1].start,
        "the failed page is asked again"
    );
    assert_eq!(join[2].start.as_deref(), Some("o:3"));
    let mut all = numbers(&store);
    all.sort();
    assert_eq!(all, (1..=60).collect::<Vec<_>>());
    assert_eq!(store.duplicates(), 0);
}

/// The untyped cursor retired by the census while a request of its is on its way, that request
/// then failing: the typed cursors cover the query, so the load ends whole, not failed. Each of
/// the untyped cursor's requests after its first is made to fail in turn, the one on its way at
/// the census among them.
#[tokio::test(start_paused = true)]
async fn a_retired_cursors_request_that_fails_on_its_way_does_not_fail_a_covered_load() {
    let clean = Catalog::start(setup(mixed(60))).await;
    let out = load(&clean, in_room(), Fanout::PerType, tokens()).await;
    assert_eq!(out.failure, None);
    let untyped = clean.requests_of("untyped").len();
    assert!(untyped > 1, "{untyped}");
    for nth in 1..untyped {
        let mut setup = setup(mixed(60));
        setup.faults.push(Fault {
            key: "untyped",
            nth,
            status: 404,
            retry_after: None,
        });
        let server = Catalog::start(setup).await;
        let out = load(&server, in_room(), Fanout::PerType, tokens()).await;
        assert_eq!(
            out.failure, None,
            "the untyped cursor's request {nth} failing"
        );
        assert_eq!(out.numbers, (1..=60).collect::<Vec<_>>(), "request {nth}");
    }
}
