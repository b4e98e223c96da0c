//! A save of part of a live answer: what the envelope says of the rest, and what the status line
//! says of the file, which is what the file says when opened again.

use super::*;
use crate::tui::model::Live;

/// `ten()` as part of a live answer: the last page says more follow, the service's total is
/// `total`, and the query's own cursor, as the fetch task's tally said it, is `cursor`.
fn part(total: Option<u64>, cursor: &str) -> Model {
    let mut m = loaded(&ten());
    let mut live = Live::new("http://127.0.0.1:1".into());
    live.next = Some("more".into());
    live.total = total;
    live.cursor = cursor.into();
    m.session.live = Some(live);
    m
}

/// Saves what `m` holds to `path` as an envelope: the status line, and the file read back.
fn save_to(m: &Model, path: &std::path::Path) -> (String, serde_json::Value) {
    let saved = crate::tui::save::save(m, path.to_str().unwrap(), SaveWhat::Loaded, true);
    let Action::Saved(Ok(status)) = saved else {
        panic!("{saved:?}");
    };
    let file = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    (status, file)
}

/// `part(Some(40), "c:7")` in follow mode, a refresh started and no report of it come yet.
fn refreshing_part() -> Model {
    let mut m = part(Some(40), "c:7");
    run(&mut m, Command::ToggleFollow);
    update(&mut m, Action::FollowTick);
    m
}

#[test]
fn a_part_is_saved_with_the_querys_own_cursor_and_the_status_line_says_what_the_file_will() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("part.json");
    let of = "saved 10 events to part.json: part of";
    for (total, cursor, said, opens_partial) in [
        (
            Some(40),
            "c:7",
            "the 40 the query matched; the file says so, with the cursor of the rest",
            true,
        ),
        (
            None,
            "c:7",
            "what the query matched; the file says more exist, with their cursor",
            true,
        ),
        (
            Some(40),
            "",
            "the 40 the query matched; the file says so with the query's total (no cursor of \
             the rest is known)",
            true,
        ),
        (
            None,
            "",
            "what the query matched, and the file cannot say so: no cursor of the rest is \
             known, nor a total of what was saved, so it opens again as if whole",
            false,
        ),
    ] {
        let (status, file) = save_to(&part(total, cursor), &path);
        let status = status.replace(path.to_str().unwrap(), "part.json");
        assert_eq!(status, format!("{of} {said}"));
        assert_eq!(
            file["next"], cursor,
            "the query's own cursor, not the last page's"
        );
        assert_eq!(file["total"].as_u64(), total);
        let reopened = crate::source::pages::of_file(&path).unwrap();
        assert_eq!(reopened.say_more_than(10), opens_partial, "{status}");
    }
}

/// Follow mode's refresh of a query never loaded whole runs it again from its first page: a
/// save made before that page arrives is still of part of the answer, and says so, with the
/// cursor of the rest the last load left.
#[test]
fn a_save_while_a_refresh_of_a_part_waits_for_its_first_page_is_still_of_a_part() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("part.json");
    let m = refreshing_part();
    assert!(m.session.follow.as_ref().unwrap().refreshing);
    let (status, file) = save_to(&m, &path);
    assert!(
        status.ends_with(
            "part of the 40 the query matched; the file says so, with the cursor of the rest"
        ),
        "{status}"
    );
    assert_eq!(
        (file["next"].as_str(), file["total"].as_u64()),
        (Some("c:7"), Some(40))
    );
    assert!(
        crate::source::pages::of_file(&path)
            .unwrap()
            .say_more_than(10)
    );
    assert_eq!(
        crate::tui::view::coverage::note(&m)
            .as_deref()
            .map(|n| n.starts_with("10 of 40 loaded")),
        Some(true),
        "the header still says what is missing"
    );
}

/// A refresh of a part whose first request fails is tallied with no cursor (it had no page):
/// the part is still saved with the cursor of the rest the last load left.
#[test]
fn a_refresh_of_a_part_that_fails_before_its_first_page_keeps_the_cursor_of_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("part.json");
    let mut m = refreshing_part();
    let query = m.session.live.as_ref().unwrap().query;
    let tally = Box::new(crate::source::worker::Tally {
        total: Some(40),
        ..Default::default()
    });
    update(&mut m, Action::Live(Report::Tally { query, tally }));
    let message = "network error: connection refused".to_string();
    update(&mut m, Action::Live(Report::Failed { query, message }));
    let (status, file) = save_to(&m, &path);
    assert!(
        status.ends_with("the file says so, with the cursor of the rest"),
        "{status}"
    );
    assert_eq!(file["next"].as_str(), Some("c:7"));
}
