//! Follow mode and its refreshes of a live query.

use super::*;

#[test]
fn follow_mode_needs_a_live_source() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ToggleFollow);
    assert!(m.session.follow.is_none());
    assert!(m.status.as_deref().unwrap_or("").contains("live"));
}

/// `ten()` as a live query's whole answer (every page loaded), in follow mode.
fn following_a_whole_answer() -> Model {
    let mut m = loaded(&ten());
    let mut live = crate::tui::model::Live::new("http://127.0.0.1:1".into());
    live.fetch = Fetch::Done;
    live.complete = true;
    m.session.live = Some(live);
    run(&mut m, Command::ToggleFollow);
    m
}

#[test]
fn a_follow_tick_runs_the_query_again_keeping_what_is_loaded_and_counts_new_events() {
    let mut m = following_a_whole_answer();
    assert!(m.session.follow.is_some());
    let before = m.events.store.len();
    let effects = update(&mut m, Action::FollowTick);
    let id = m.session.live.as_ref().unwrap().query;
    assert_eq!(
        effects,
        vec![
            Effect::Worker(worker::Command::Query {
                id,
                filter: m.events.filter.clone()
            }),
            Effect::Worker(worker::Command::LoadAll { id }),
        ]
    );
    assert_eq!(
        m.events.store.len(),
        before,
        "a refresh keeps what is loaded"
    );
    // A page with one new event and one known one.
    let mut events = ten();
    events.truncate(1);
    events.push(event(99, "client.join.failed", "r9", false));
    let page = crate::source::api::Page {
        batch: Box::new(batch(&events)),
        next: "n".into(),
        total: None,
    };
    update(&mut m, Action::Live(Report::Page { query: id, page }));
    assert_eq!(m.session.follow.as_ref().unwrap().new_events, 1);
    assert_eq!(m.events.store.len(), before + 1);
    // A page with nothing new does not end the refresh: the service promises no order, and
    // a later page may hold new events.
    let page = crate::source::api::Page {
        batch: Box::new(batch(&events)),
        next: "n2".into(),
        total: None,
    };
    let effects = update(&mut m, Action::Live(Report::Page { query: id, page }));
    assert_eq!(effects, vec![]);
    assert!(m.session.follow.as_ref().unwrap().refreshing);
    let mut later = ten();
    later.truncate(2);
    later.push(event(98, "client.join.failed", "r9", false));
    let page = crate::source::api::Page {
        batch: Box::new(batch(&later)),
        next: String::new(),
        total: None,
    };
    update(&mut m, Action::Live(Report::Page { query: id, page }));
    update(&mut m, Action::Live(Report::Finished { query: id }));
    let follow = m.session.follow.as_ref().unwrap();
    assert!(!follow.refreshing);
    assert_eq!(follow.new_events, 2);
    assert_eq!(m.session.live.as_ref().unwrap().fetch, Fetch::Done);
    // What the refresh fetched again is no duplicate of the data.
    let live = m.session.live.as_ref().unwrap();
    assert_eq!(m.events.store.duplicates(), live.refetched);
    assert_eq!(live.refetched, 1 + 2 + 2);
}

/// One follow mode refresh that brings `events` in one page, to the query's end.
fn refresh_with(m: &mut Model, events: &[serde_json::Value]) {
    update(m, Action::FollowTick);
    let query = m.session.live.as_ref().unwrap().query;
    let page = crate::source::api::Page {
        batch: Box::new(batch(events)),
        next: String::new(),
        total: None,
    };
    update(m, Action::Live(Report::Page { query, page }));
    update(m, Action::Live(Report::Finished { query }));
}

#[test]
fn a_refresh_of_a_query_not_yet_loaded_whole_counts_nothing_new_then_the_next_does() {
    let mut m = loaded(&ten());
    m.session.live = Some(crate::tui::model::Live::new("http://127.0.0.1:1".into()));
    // One page of several loaded: what a refresh adds may be old events never loaded.
    m.session.live.as_mut().unwrap().next = Some("more".into());
    run(&mut m, Command::ToggleFollow);
    refresh_with(&mut m, &[event(50, "client.join.failed", "r1", false)]);
    let follow = m.session.follow.as_ref().unwrap();
    assert_eq!((follow.new_events, follow.new_from), (0, None));
    assert_eq!(
        m.events.store.len(),
        11,
        "the refresh completed what is loaded"
    );
    // Loaded whole now: the next refresh's additions are new.
    refresh_with(&mut m, &[event(51, "client.join.failed", "r1", false)]);
    let follow = m.session.follow.as_ref().unwrap();
    assert_eq!((follow.new_events, follow.new_from), (1, Some(11)));
}

/// `ten()`, every event in room-a: the answer of a live query, which names one room.
fn ten_in_room_a() -> Vec<serde_json::Value> {
    let mut events = ten();
    for e in &mut events {
        e["data"]["room_id"] = "room-a".into();
    }
    events
}

/// The demo-like store of `ten_in_room_a()` as a live query's answer, every page loaded.
fn live_ten() -> Model {
    let mut m = loaded(&ten_in_room_a());
    m.events.filter = Filter::default().with(Field::Room, "room-a");
    refilter(&mut m);
    let mut live = crate::tui::model::Live::new("http://127.0.0.1:1".into());
    live.fetch = Fetch::Done;
    live.complete = true;
    live.next = Some(String::new());
    m.session.live = Some(live);
    m
}

fn page(m: &mut Model, events: &[serde_json::Value], next: &str) {
    let query = m.session.live.as_ref().unwrap().query;
    let page = crate::source::api::Page {
        batch: Box::new(batch(events)),
        next: next.into(),
        total: None,
    };
    update(m, Action::Live(Report::Page { query, page }));
}

#[test]
fn rerun_keeps_the_old_rows_until_the_answer_then_finds_the_selected_event_again_by_id() {
    let mut m = live_ten();
    select(&mut m, 6);
    let effects = run(&mut m, Command::Rerun);
    // The query again, and the room's sessions asked for with it.
    assert!(matches!(
        effects.as_slice(),
        [
            Effect::Worker(worker::Command::Query { .. }),
            Effect::Ask(_)
        ]
    ));
    // While the new query runs, the old rows and the selection stay, and the status line says
    // so.
    assert_eq!(shown_numbers(&m), (0..10).collect::<Vec<_>>());
    assert_eq!(selected_number(&m), Some(6));
    let status = m.status.clone().unwrap_or_default();
    assert!(
        status.contains("these rows stay until its answer"),
        "{status}"
    );
    assert_eq!(
        m.session.live.as_ref().unwrap().fetch,
        Fetch::Fetching { page: 1 }
    );
    // The first page holds newer events and not the selected one: the old rows make way,
    // and the selected event is looked for in the next pages.
    let all = {
        let mut all = ten_in_room_a();
        all.push(event(20, JOIN, "room-a", false));
        all
    };
    page(&mut m, &all[8..], "more");
    assert_eq!(shown_numbers(&m), [8, 9, 20]);
    assert_eq!(m.status, None, "the answer arrived: no row waits for it");
    page(&mut m, &all[..8], "");
    assert_eq!(m.events.store.len(), 11);
    assert_eq!(selected_number(&m), Some(6), "found again by its id");
}

#[test]
fn a_rerun_that_fails_leaves_the_old_rows_under_its_message() {
    let mut m = live_ten();
    select(&mut m, 4);
    run(&mut m, Command::Rerun);
    let query = m.session.live.as_ref().unwrap().query;
    update(
        &mut m,
        Action::Live(Report::Failed {
            query,
            message: "HTTP 503".into(),
        }),
    );
    assert_eq!(m.events.store.len(), 10);
    assert_eq!(selected_number(&m), Some(4));
    assert_eq!(m.session.live.as_ref().unwrap().failure(), Some("HTTP 503"));
    // No answer is coming: the rows no longer wait for one.
    assert_eq!(m.status, None);
}

#[test]
fn a_rerun_answered_with_no_event_clears_its_message_and_a_later_one_stays() {
    let mut m = live_ten();
    run(&mut m, Command::Rerun);
    let query = m.session.live.as_ref().unwrap().query;
    update(&mut m, Action::Live(Report::Finished { query }));
    assert!(m.events.shown.is_empty());
    assert_eq!(m.status, None);
    // A message written while the query runs is not the rerun's: the answer leaves it.
    run(&mut m, Command::Rerun);
    run(&mut m, Command::ToggleLocalTime);
    let said = m.status.clone();
    assert!(said.as_deref().is_some_and(|s| s.starts_with("times in")));
    page(&mut m, &ten_in_room_a(), "");
    assert_eq!(m.status, said);
}

#[test]
fn in_follow_mode_the_selection_at_the_bottom_stays_at_the_bottom() {
    let mut m = live_ten();
    run(&mut m, Command::ToggleFollow);
    run(&mut m, Command::Bottom);
    refresh_with(&mut m, &[event(70, JOIN, "room-a", false)]);
    assert_eq!(selected_number(&m), Some(70));
    // Elsewhere, the selected event stays selected.
    select(&mut m, 3);
    refresh_with(&mut m, &[event(71, JOIN, "room-a", false)]);
    assert_eq!(selected_number(&m), Some(3));
}

#[test]
fn a_query_asked_again_from_its_first_page_is_said_and_its_loading_goes_on() {
    let mut m = live_ten();
    let query = m.session.live.as_ref().unwrap().query;
    let said = "the service refused the cursor of the query with HTTP 400: Bad Request (invalid \
                or expired start cursor); asked again from its first page";
    let older = Report::Restarted {
        query: query + 1,
        message: "of another query".into(),
    };
    update(&mut m, Action::Live(older));
    assert_eq!(m.status, None, "another query's word is dropped");
    let restarted = Report::Restarted {
        query,
        message: said.into(),
    };
    update(&mut m, Action::Live(restarted));
    assert_eq!(m.status.as_deref(), Some(said));
    let live = m.session.live.as_ref().unwrap();
    assert_eq!(live.failure(), None, "the loading goes on");
    assert_eq!(m.events.store.len(), 10, "what was loaded stays");
}

#[test]
fn a_load_complete_though_a_request_failed_says_which_on_the_status_line() {
    let mut m = live_ten();
    let query = m.session.live.as_ref().unwrap().query;
    let failed = "loading the client.join.failed events: HTTP 401: expired";
    let tally = crate::source::worker::Tally {
        redundant: vec![failed.to_string()],
        ..Default::default()
    };
    update(
        &mut m,
        Action::Live(Report::Tally {
            query,
            tally: Box::new(tally),
        }),
    );
    update(&mut m, Action::Live(Report::Finished { query }));
    assert_eq!(
        m.status.as_deref(),
        Some(
            "note: every event of the query arrived; a request no longer needed failed: \
             loading the client.join.failed events: HTTP 401: expired"
        )
    );
    assert!(m.session.live.as_ref().unwrap().complete);
}

/// `A` loads every page from the views whose figures the missing pages make partial (the groups,
/// their facets, a peer's story), and leaves the view as it is.
#[test]
fn a_loads_every_page_from_the_groups_the_facets_and_a_story() {
    // A key as the keymap reads it in the mode at hand.
    let key = |m: &mut Model, c: char| {
        let key = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        match m.config.keymap.command_for(m.focus.mode(), &key) {
            Some(command) => run(m, command),
            None => panic!("{c} is not bound in {:?}", m.focus.mode()),
        }
    };
    for (open, mode) in [
        (&['e'][..], Mode::Groups),
        (&['e', 'F'][..], Mode::Facets),
        (&['p'][..], Mode::Story),
    ] {
        let mut m = loaded(&ten());
        m.session.live = Some(crate::tui::model::Live::new("http://127.0.0.1:1".into()));
        let live = m.session.live.as_mut().unwrap();
        live.next = Some("more".into());
        let id = live.query;
        for &c in open {
            key(&mut m, c);
        }
        assert_eq!(m.focus.mode(), mode);
        let effects = key(&mut m, 'A');
        assert_eq!(
            effects,
            vec![Effect::Worker(worker::Command::LoadAll { id })],
            "{mode:?}: {:?}",
            m.status
        );
        assert_eq!(m.focus.mode(), mode);
        assert!(m.session.live.as_ref().unwrap().loading_all, "{mode:?}");
    }
}

/// `A` during a refresh stops it: no last page will come to end it, so it ends there, and the
/// next tick runs the query again (it was left running, and follow mode refreshed no more).
#[test]
fn stopping_a_refresh_with_a_ends_it_and_the_next_tick_refreshes_again() {
    let mut m = following_a_whole_answer();
    update(&mut m, Action::FollowTick);
    let id = m.session.live.as_ref().unwrap().query;
    let effects = run(&mut m, Command::LoadAll);
    assert_eq!(effects, vec![Effect::Worker(worker::Command::Stop { id })]);
    assert!(!m.session.follow.as_ref().unwrap().refreshing);
    assert_eq!(
        m.status.as_deref(),
        Some("stopped this refresh; follow mode runs the next in its time")
    );
    // The request on its way when stopped still brings its page, which says more follow: its
    // new event is counted, and no further page of the stopped refresh is asked for (the list
    // fits the screen, so its end would ask).
    let mut events = ten();
    events.truncate(1);
    events.push(event(99, "client.join.failed", "r9", false));
    let page = crate::source::api::Page {
        batch: Box::new(batch(&events)),
        next: "n".into(),
        total: None,
    };
    let effects = update(&mut m, Action::Live(Report::Page { query: id, page }));
    assert_eq!(effects, vec![]);
    assert_eq!(m.session.follow.as_ref().unwrap().new_events, 1);
    // The next tick asks again.
    let effects = update(&mut m, Action::FollowTick);
    let next = m.session.live.as_ref().unwrap().query;
    assert!(next > id);
    assert!(effects.contains(&Effect::Worker(worker::Command::LoadAll { id: next })));
}
