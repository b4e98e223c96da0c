//! The header while loading: load problems, stalls, rate limits, partial and saved coverage,
//! filters cut to fit.

use super::*;

#[test]
fn a_load_problem_is_shown_in_the_header_with_the_count_of_the_others() {
    let events = vec![json!({
        "version": "2.0",
        "id": "9a3e1c5f-0000-4000-8000-000000000001",
        "timestamp": "2026-11-18T10:02:03.000123456Z",
        "type": "client.publish.failed",
        "data": {"room_id": "r1", "room_name": "standup", "user_name": "Ana", "peer_id": "p1",
                 "error_code": 3001, "error_name": "CantAccessCaptureDevice", "is_terminal": true,
                 "action": "PUBLISH"}
    })];
    let source = SourceLabel::Files {
        count: 2,
        first: "incident/page1.json".into(),
    };
    let mut m = Model::new(source, Filter::default(), 100, 16);
    update(&mut m, Action::BatchLoaded(batch(&events)));
    let problems = vec![
        DumpProblem {
            path: "incident/page2.json".into(),
            position: Some((3, 17)),
            message: "expected `,` or `}`; the 12 events before it were read".into(),
        },
        DumpProblem {
            path: "incident/page3.json".into(),
            position: None,
            message: "No such file or directory".into(),
        },
    ];
    update(&mut m, Action::LoadFinished { problems });
    let t = draw(&m);
    let text = screen_text(t.backend().buffer());
    assert!(
        text.contains(
            "⚠ 2 load problems (P lists in full): incident/page2.json:3:17: expected `,` or `}`"
        ),
        "{text}"
    );
    let y = (0..4)
        .find(|&y| row_text(t.backend().buffer(), y).contains('⚠'))
        .unwrap();
    let x = column_of(t.backend().buffer(), y, "incident").unwrap();
    assert_eq!(t.backend().buffer()[(x, y)].fg, Color::Red);
    insta::assert_snapshot!("load_problem_100x16", t.backend());
    // P lists every problem in full, with its place.
    run(&mut m, Command::ShowProblems);
    let t = draw(&m);
    let text = screen_text(t.backend().buffer());
    assert!(
        text.contains("incident/page2.json:3:17: expected `,` or `}`; the 12 events before it"),
        "{text}"
    );
    assert!(
        text.contains("incident/page3.json: No such file or directory"),
        "{text}"
    );
    insta::assert_snapshot!("load_problems_listed_100x16", t.backend());
}

#[test]
fn a_live_load_that_stops_after_some_pages_says_why_on_a_line_of_its_own() {
    let mut m = demo(Filter::default(), (80, 24));
    m.session.live = Some(callscope::tui::model::Live::new(
        "http://127.0.0.1:1".into(),
    ));
    let query = m.session.live.as_ref().unwrap().query;
    let reason = "HTTP 503: upstream unavailable, try again later";
    update(
        &mut m,
        Action::Live(callscope::source::worker::Report::Failed {
            query,
            message: reason.into(),
        }),
    );
    let text = screen_text(draw(&m).backend().buffer());
    let line = text.lines().nth(3).unwrap();
    assert!(
        line.contains(&format!("loading stopped: {reason}")),
        "{text}"
    );
}

fn report(m: &mut Model, report: callscope::source::worker::Report) {
    update(m, Action::Live(report));
}

fn tick(m: &mut Model, at: std::time::Instant) {
    update(
        m,
        Action::Tick(callscope::tui::model::Clock {
            at,
            unix: 1_763_460_000,
        }),
    );
}

/// The header's four lines.
fn header_text(m: &Model) -> String {
    let text = screen_text(draw(m).backend().buffer());
    text.lines().take(4).collect::<Vec<_>>().join("\n")
}

#[test]
fn a_stalled_request_says_how_long_it_waited_for_which_part_and_the_timeouts() {
    use callscope::source::worker::{InFlight, Report};
    use std::time::Duration;
    let t0 = std::time::Instant::now();
    let mut m = live_loading(t0);
    let query = m.session.live.as_ref().unwrap().query;
    run(&mut m, Command::LoadAll);
    report(&mut m, Report::Fetching { query, page: 2 });
    report(
        &mut m,
        Report::InFlight {
            query,
            requests: vec![
                InFlight {
                    part: "the error events (error=true)".into(),
                    since: t0 + Duration::from_millis(200),
                },
                InFlight {
                    part: "the client.join.failed events".into(),
                    since: t0,
                },
            ],
        },
    );
    // Within a second: events so far against the total, and no wait said.
    tick(&mut m, t0 + Duration::from_millis(900));
    let text = header_text(&m);
    assert!(
        text.contains("100 of 2,400 loaded so far │ fetching… (loading all: A stops)"),
        "{text}"
    );
    assert!(!text.contains("page"), "page numbers give way: {text}");
    assert!(!text.contains("waiting"), "{text}");
    // Twelve seconds on: the oldest request, its part, and the timeouts.
    tick(&mut m, t0 + Duration::from_secs(12));
    insta::assert_snapshot!("live_stalled_request", header_text(&m));
    let text = header_text(&m);
    assert!(
        text.contains("waiting 12 s for the client.join.failed events (and 1 other request)"),
        "{text}"
    );
    // The request lands: nothing waits.
    report(
        &mut m,
        Report::InFlight {
            query,
            requests: Vec::new(),
        },
    );
    assert!(!header_text(&m).contains("waiting"));
}

#[test]
fn a_rate_limit_counts_down_to_the_retry_and_loading_everything_goes_on_after_it() {
    use callscope::source::worker::{InFlight, Report, Retry};
    use std::time::Duration;
    let t0 = std::time::Instant::now();
    let mut m = live_loading(t0);
    let query = m.session.live.as_ref().unwrap().query;
    run(&mut m, Command::LoadAll);
    report(
        &mut m,
        Report::InFlight {
            query,
            requests: vec![InFlight {
                part: "the error events (error=true)".into(),
                since: t0,
            }],
        },
    );
    report(
        &mut m,
        Report::Retrying {
            query,
            retry: Retry {
                attempt: 2,
                wait: Duration::from_secs(90),
                asked: true,
                gives_up_at: t0 + Duration::from_secs(1 + 30 * 60),
                reason: "HTTP 429: Too Many Requests (retry after 90 seconds)".into(),
                at: t0 + Duration::from_secs(1),
            },
        },
    );
    tick(&mut m, t0 + Duration::from_secs(9));
    insta::assert_snapshot!("live_rate_limit_countdown", header_text(&m));
    let text = header_text(&m);
    assert!(text.contains("retrying in 82 s"), "{text}");
    assert!(
        text.contains("the server asked to wait 90 s: next try in 82 s; loading every page goes on after it (A stops)"),
        "{text}"
    );
    assert!(m.session.live.as_ref().unwrap().loading_all);
    // A minute on, the count goes on down.
    tick(&mut m, t0 + Duration::from_secs(70));
    let text = header_text(&m);
    assert!(text.contains("next try in 21 s"), "{text}");
    assert!(text.contains("gives up 29 min from now"), "{text}");
    // The wait over, the new try is on its way: how long it has waited counts from the end of
    // the wait.
    tick(&mut m, t0 + Duration::from_secs(95));
    let text = header_text(&m);
    assert!(text.contains("retrying now"), "{text}");
    assert!(
        text.contains("waiting 4 s for the error events (error=true)"),
        "{text}"
    );
}

/// A backoff late in the time for retries: the header counts down to the retry and to giving
/// up alike, both from the clock's time, and the retry begun as the time is up is the last.
#[test]
fn the_retry_and_giving_up_count_down_together_as_the_clock_moves() {
    use callscope::source::worker::{Report, Retry};
    use std::time::Duration;
    let t0 = std::time::Instant::now();
    let mut m = live_loading(t0);
    let query = m.session.live.as_ref().unwrap().query;
    let retry = |attempt, wait, gives_up| Report::Retrying {
        query,
        retry: Retry {
            attempt,
            wait: Duration::from_secs(wait),
            asked: false,
            gives_up_at: t0 + Duration::from_secs(gives_up),
            reason: "HTTP 500: Internal Server Error (db down)".into(),
            at: t0,
        },
    };
    report(&mut m, retry(12, 28, 55));
    let said = |m: &Model| {
        let text = header_text(m);
        let first = text.lines().next().unwrap();
        let from = first.find("retrying").expect(first);
        let to = first.find("):").expect(first);
        first[from..=to].to_string()
    };
    tick(&mut m, t0);
    assert_eq!(
        said(&m),
        "retrying in 28 s (attempt 12, gives up 55 s from now)"
    );
    tick(&mut m, t0 + Duration::from_secs(20));
    assert_eq!(
        said(&m),
        "retrying in 8 s (attempt 12, gives up 35 s from now)"
    );
    // The wait over, the try runs, and the time to giving up goes on down.
    tick(&mut m, t0 + Duration::from_millis(30_500));
    assert_eq!(
        said(&m),
        "retrying now (attempt 12, gives up 25 s from now)"
    );
    // The last backoff ends as the time for retries does.
    report(&mut m, retry(14, 9, 9));
    tick(&mut m, t0 + Duration::from_secs(3));
    assert_eq!(said(&m), "retrying in 6 s (attempt 14, the last)");
}

/// A load stopped by one refusal of several cursors: the line that says why names the refusal
/// once, with what else it stopped.
/// The lines of the screen that carry the coverage note, and the header's first line.
fn coverage_lines(m: &Model, note: &str) -> String {
    let text = screen_text(draw(m).backend().buffer());
    let mut lines = vec![text.lines().next().unwrap().trim_end().to_string()];
    lines.extend(
        text.lines()
            .skip(1)
            .filter(|l| l.contains(note))
            .map(|l| l.trim_end().to_string()),
    );
    lines.join("\n")
}

#[test]
fn with_part_of_a_live_query_loaded_every_summary_says_what_it_covers() {
    let mut m = live_loading_at(std::time::Instant::now(), (140, 40));
    let note = "100 of 2,400 loaded: A loads all";
    let header = header_text(&m);
    assert!(header.contains(&format!("100 shown / {note}")), "{header}");
    run(&mut m, Command::ToggleTimeline);
    run(&mut m, Command::Cancel);
    run(&mut m, Command::ShowGroups);
    run(&mut m, Command::ToggleFacets);
    let groups = coverage_lines(&m, "100 of 2,400 loaded");
    // The header, the timeline, the groups in the list's place and the facets beside them.
    assert_eq!(groups.matches("100 of 2,400 loaded").count(), 4, "{groups}");
    insta::assert_snapshot!("coverage_live_groups_facets_timeline", groups);
    run(&mut m, Command::Cancel);
    run(&mut m, Command::ShowStory);
    let story = coverage_lines(&m, "100 of 2,400 loaded");
    assert!(story.matches("100 of 2,400 loaded").count() >= 2, "{story}");
    // Every page loaded: no note.
    let query = m.session.live.as_ref().unwrap().query;
    update(
        &mut m,
        Action::Live(callscope::source::worker::Report::Finished { query }),
    );
    let live = m.session.live.as_mut().unwrap();
    live.next = Some(String::new());
    let text = screen_text(draw(&m).backend().buffer());
    assert!(!text.contains("loads all"), "{text}");
    // A follow mode refresh pages through the query again: nothing of it is missing.
    m.session.live.as_mut().unwrap().next = Some("more".into());
    assert!(m.session.live.as_ref().unwrap().complete);
    assert!(!header_text(&m).contains("of 2,400 loaded"));
    // On a narrow terminal the header still says it where a view's title leaves no room.
    let mut m = live_loading_at(std::time::Instant::now(), (80, 24));
    run(&mut m, Command::ShowGroups);
    assert!(header_text(&m).contains("100 of 2,400 loaded"));
}

#[test]
fn saved_pages_of_a_larger_answer_are_marked_as_part_of_it() {
    let dir = tempfile::tempdir().unwrap();
    let events: Vec<Value> = (0..5)
        .map(|k| join_at(&format!("e{k}"), &format!("2026-11-18T10:0{k}:00Z")))
        .collect();
    let page = |events: &[Value], next: &str| {
        json!({"limit": events.len(), "total": 2400, "next": next, "events": events}).to_string()
    };
    std::fs::write(dir.path().join("page1.json"), page(&events[..3], "c:1~a=")).unwrap();
    std::fs::write(dir.path().join("page2.json"), page(&events[3..], "c:2~b=")).unwrap();
    let saved = callscope::source::pages::of_paths([
        dir.path().join("page1.json").as_path(),
        dir.path().join("page2.json").as_path(),
    ]);
    assert_eq!((saved.pages, saved.total), (2, Some(2400)));
    let mut m = loaded(
        SourceLabel::Files {
            count: 2,
            first: "page1.json".into(),
        },
        Filter::default(),
        (140, 30),
        vec![batch(&events)],
    );
    update(&mut m, Action::SavedPages(saved));
    let note = "5 of 2,400: the saved pages hold part of their query";
    run(&mut m, Command::ShowGroups);
    let lines = coverage_lines(&m, "5 of 2,400");
    assert!(lines.contains(&format!("5 shown / {note}")), "{lines}");
    // The header, the groups and their facets.
    assert_eq!(lines.matches("5 of 2,400").count(), 3, "{lines}");
    insta::assert_snapshot!("coverage_saved_pages", lines);
    // A dump of events (no envelope) says nothing of the kind.
    std::fs::write(
        dir.path().join("events.ndjson"),
        events.iter().map(|e| format!("{e}\n")).collect::<String>(),
    )
    .unwrap();
    assert_eq!(
        callscope::source::pages::of_file(&dir.path().join("events.ndjson")),
        None
    );
}

#[test]
fn filters_too_long_for_the_header_are_cut_visibly_after_the_order_gives_way() {
    let filter = Filter::default()
        .with(callscope::event::Field::Type, "client.disconnected")
        .with(callscope::event::Field::Code, "1003")
        .with(
            callscope::event::Field::ErrorName,
            "WebSocketConnectionLost",
        )
        .with(callscope::event::Field::Sdk, "android")
        .with(callscope::event::Field::SdkVersion, "2.9.47");
    // At 80 columns the order gives way and the filters are cut, saying so.
    let m = demo(filter.clone(), (80, 30));
    let line = row_text(draw(&m).backend().buffer(), 2);
    assert!(line.starts_with(" filters "), "the order gave way: {line}");
    assert!(line.contains("… (f shows them all)"), "{line}");
    assert!(line.contains("code=1003"), "{line}");
    // At 120, once the order has given way, every filter is whole.
    let m = demo(filter.clone(), (120, 30));
    let line = row_text(draw(&m).backend().buffer(), 2);
    assert!(line.starts_with(" filters "), "the order gave way: {line}");
    assert!(line.contains("sdk_version=2.9.47"), "{line}");
    let m = demo(filter, (200, 30));
    let line = row_text(draw(&m).backend().buffer(), 2);
    assert!(line.contains("sorted by time"), "{line}");
    assert!(line.contains("sdk_version=2.9.47"), "{line}");
    assert!(!line.contains("shows them all"), "{line}");
}

#[test]
fn a_query_run_again_that_fails_says_why_while_it_waits_to_retry() {
    use callscope::source::worker::{Report, Retry};
    use std::time::Duration;
    let t0 = std::time::Instant::now();
    let mut m = live_loading_at(t0, (200, 12));
    run(&mut m, Command::Rerun);
    let query = m.session.live.as_ref().unwrap().query;
    report(
        &mut m,
        Report::Retrying {
            query,
            retry: Retry {
                attempt: 1,
                wait: Duration::from_secs(8),
                asked: false,
                gives_up_at: t0 + Duration::from_secs(180),
                reason: "cannot connect to 127.0.0.1:8097: connection refused".into(),
                at: t0,
            },
        },
    );
    tick(&mut m, t0 + Duration::from_secs(2));
    let text = header_text(&m);
    assert!(
        text.contains(
            "running again, retrying in 6 s: cannot connect to 127.0.0.1:8097: connection refused"
        ),
        "{text}"
    );
}

/// The header's types row, as drawn.
fn types_row(m: &Model) -> String {
    row_text(draw(m).backend().buffer(), 1)
        .trim_end()
        .to_string()
}

#[test]
fn the_types_row_marks_the_type_of_a_groups_events_and_its_keys_go_on_from_it() {
    let mut m = demo(Filter::default(), (140, 40));
    run(&mut m, Command::ShowGroups);
    // The storm's joins, on top: Enter shows them, and the row says only joins are shown.
    run(&mut m, Command::Apply);
    let joins = m.events.shown.len();
    assert!(joins > 0);
    assert_eq!(
        types_row(&m),
        " types [ ]1 publish [ ]2 subscribe [x]3 join [ ]4 disconnected [ ]5 connect │ others hidden"
    );
    // `1` adds the publish failures of that error to the joins, which stay.
    run(&mut m, Command::TogglePublish);
    assert_eq!(m.events.shown.len(), joins);
    assert_eq!(
        types_row(&m),
        " types [x]1 publish [ ]2 subscribe [x]3 join [ ]4 disconnected [ ]5 connect │ others hidden"
    );
    // `3` takes the joins away.
    run(&mut m, Command::ToggleJoin);
    assert!(types_row(&m).contains("[x]1 publish [ ]2 subscribe [ ]3 join"));
    assert_eq!(m.events.shown.len(), 0);

    // A group of a type no key names: the row names it.
    let mut m = demo(Filter::default(), (140, 40));
    run(&mut m, Command::ShowGroups);
    let store = &m.events.store;
    let g = m.focus.groups().unwrap();
    let track = (0..g.groups.len())
        .position(|k| g.groups.group(k).label(store, g.key) == "track.add.success")
        .expect("the demo's track events");
    for _ in 0..track {
        run(&mut m, Command::Down);
    }
    run(&mut m, Command::Apply);
    assert_eq!(
        types_row(&m),
        " types [ ]1 publish [ ]2 subscribe [ ]3 join [ ]4 disconnected [ ]5 connect \
         [x]track.add.success │ others hidden"
    );
}

/// Events holding a field of another type than the API's are said where the load's problems
/// are, after the first problem when there is one.
#[test]
fn events_with_a_field_of_another_type_are_said_on_the_problems_line() {
    let event = |id: &str, terminal: Value| {
        json!({
            "id": id,
            "timestamp": "2026-11-18T10:02:03.000123456Z",
            "type": "client.join.failed",
            "data": {"room_id": "r1", "peer_id": "p1", "error_code": 500, "is_terminal": terminal}
        })
    };
    let events = vec![
        event("e1", json!(true)),
        event("e2", json!("true")),
        event("e3", json!("false")),
        // A later copy of e2: dropped, and not counted again.
        event("e2", json!("true")),
    ];
    let source = SourceLabel::Files {
        count: 1,
        first: "odd.ndjson".into(),
    };
    let m = loaded(
        source.clone(),
        Filter::default(),
        (120, 16),
        vec![batch(&events)],
    );
    let said = "⚠ 2 events hold a field of another type than the API's, read as absent \
                (is_terminal: a string)";
    let header = header_text(&m);
    assert!(header.lines().nth(3).unwrap().contains(said), "{header}");
    let plain = loaded(
        source.clone(),
        Filter::default(),
        (120, 16),
        vec![batch(&events[..1])],
    );
    assert!(!header_text(&plain).contains("another type"));
    // After the first load problem.
    let mut m = Model::new(source.clone(), Filter::default(), 200, 16);
    update(&mut m, Action::BatchLoaded(batch(&events)));
    let problems = vec![DumpProblem {
        path: "odd.ndjson".into(),
        position: Some((9, 1)),
        message: "expected value".into(),
    }];
    update(&mut m, Action::LoadFinished { problems });
    let header = header_text(&m);
    assert!(
        header.contains(
            "⚠ 1 load problem, 2 events with a field of another type (P lists in full): \
             odd.ndjson:9:1: expected value"
        ),
        "{header}"
    );
    // Counted before the problem, so that a long one does not push them off the line.
    let mut long = Model::new(source, Filter::default(), 80, 16);
    update(&mut long, Action::BatchLoaded(batch(&events)));
    let problems = vec![DumpProblem {
        path: "a/very/long/path/to/a/folder/of/saved/dumps/odd.ndjson".into(),
        position: Some((9, 1)),
        message: "expected value".into(),
    }];
    update(&mut long, Action::LoadFinished { problems });
    let header = header_text(&long);
    assert!(
        header.contains("⚠ 1 load problem, 2 events with a field of another type (P lists"),
        "{header}"
    );
    // P lists them after the problems, whose length may push them off the problems line.
    run(&mut m, Command::ShowProblems);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(text.contains("odd.ndjson:9:1: expected value"), "{text}");
    assert!(
        text.contains("note: 2 events hold a field of another type"),
        "{text}"
    );
}

#[test]
fn the_facets_keep_the_partial_note_before_their_key_hint() {
    // Saved pages without a total, none of them the query's last: part of what it matched.
    let saved = callscope::source::pages::SavedPages {
        pages: 1,
        events: 2400,
        total: None,
        last_page: false,
    };
    for width in [120, 140, 200] {
        let mut m = demo(Filter::default(), (width, 35));
        update(&mut m, Action::SavedPages(saved));
        run(&mut m, Command::ToggleFacets);
        let text = screen_text(draw(&m).backend().buffer());
        let title = text
            .lines()
            .find(|l| l.contains("┌ facets"))
            .unwrap_or_else(|| panic!("{text}"));
        let facets = &title[title.find("┌ facets").unwrap()..];
        // Beside the list at 120 columns the pane is 35 wide: the hint gives
        // way, then the end of the title.
        assert!(
            facets.contains("2,400 loaded, partial"),
            "{width}: {facets}"
        );
    }
}
