//! The header's first two lines at every width: what gives way, in which order, and that a
//! count is never cut into another number nor left out without a `…`.

use super::*;
use callscope::text::thousands;

/// The header's first `n` rows at this width, each between bars that show its edges.
fn rows(m: &mut Model, width: u16, n: usize) -> Vec<String> {
    let height = m.screen.height;
    update(m, Action::Resize { width, height });
    let text = screen_text(draw(m).backend().buffer());
    text.lines().take(n).map(|l| format!("|{l}|")).collect()
}

/// The header's first two rows at 60, 80 and 120 columns.
fn at_three_widths(m: &mut Model) -> String {
    [60, 80, 120]
        .iter()
        .map(|&w| format!("{w} columns:\n{}", rows(m, w, 2).join("\n")))
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The numbers of a text: each run of digits and commas, without a comma that ends it (`2,`
/// in `attempt 2, gives up`), and whether it is a wait in seconds (`10 s`).
fn numbers(text: &str) -> Vec<(&str, bool)> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(|c: char| c.is_ascii_digit()) {
        let run = &rest[start..];
        let end = run
            .find(|c: char| !c.is_ascii_digit() && c != ',')
            .unwrap_or(run.len());
        let n = run[..end].trim_end_matches(',');
        let after = &run[n.len()..];
        let wait = after.starts_with(" s") && !after[2..].starts_with(char::is_alphabetic);
        found.push((n, wait));
        rest = &run[end..];
    }
    found
}

/// A dump's path, long and deep.
const LONG_PATH: &str =
    "/srv/incidents/2026-11-18/eu-west-1/peer-dumps/standup-room/page-0001.ndjson";

/// A dump of three joins at this path, one of them twice.
fn with_duplicate(source: SourceLabel, size: (u16, u16)) -> Model {
    let events = [
        join_at("a", "2026-11-18T10:00:00Z"),
        join_at("b", "2026-11-18T10:00:01Z"),
        join_at("b", "2026-11-18T10:00:01Z"),
        join_at("c", "2026-11-18T10:00:02Z"),
    ];
    loaded(source, Filter::default(), size, vec![batch(&events)])
}

/// A live query loaded whole, in follow mode after failed refreshes, with events new since.
fn live_following(size: (u16, u16)) -> Model {
    let mut m = live_loading_at(std::time::Instant::now(), size);
    let query = m.session.live.as_ref().unwrap().query;
    update(
        &mut m,
        Action::Live(callscope::source::worker::Report::Finished { query }),
    );
    let live = m.session.live.as_mut().unwrap();
    live.next = Some(String::new());
    live.total = Some(100);
    let mut follow = callscope::tui::model::Follow::new(std::time::Duration::from_secs(5));
    follow.failures = 1;
    follow.new_events = 1_234;
    m.session.follow = Some(follow);
    m
}

/// A live query whose first page came and whose next failed.
fn live_failed(size: (u16, u16)) -> Model {
    let mut m = live_loading_at(std::time::Instant::now(), size);
    let query = m.session.live.as_ref().unwrap().query;
    update(
        &mut m,
        Action::Live(callscope::source::worker::Report::Failed {
            query,
            message: "HTTP 503 from 10.0.0.12:8443: upstream unavailable, 30 s".into(),
        }),
    );
    m
}

/// Two of the five types chosen and two types no key names.
fn types_chosen(size: (u16, u16)) -> Model {
    let filter = Filter {
        types: vec![
            EventType::Join,
            EventType::Subscribe,
            EventType::from_name("track.add.success"),
            EventType::from_name("recording.success"),
        ],
        ..Filter::default()
    };
    demo(filter, size)
}

#[test]
fn the_demo_gives_way_at_60_columns_with_its_counts_whole() {
    let mut m = demo(Filter::default(), (120, 24));
    let shot = at_three_widths(&mut m);
    insta::assert_snapshot!("header_widths_demo", shot);
    let at60 = rows(&mut m, 60, 2);
    assert!(
        at60[0].contains(" 2,400 shown / 2,400 loaded │ idle"),
        "{at60:?}"
    );
    for k in 1..=5 {
        assert!(at60[1].contains(&format!("[x]{k}")), "{at60:?}");
    }
}

#[test]
fn a_long_path_is_cut_from_its_start_and_the_duplicates_stay_counted() {
    let mut m = with_duplicate(
        SourceLabel::Files {
            count: 1,
            first: LONG_PATH.into(),
        },
        (120, 24),
    );
    let shot = at_three_widths(&mut m);
    insta::assert_snapshot!("header_widths_long_path", shot);
    let at80 = rows(&mut m, 80, 1);
    assert!(at80[0].contains("…"), "{at80:?}");
    assert!(at80[0].contains("page-0001.ndjson │ 3 shown"), "{at80:?}");
    assert!(at80[0].contains("(1 duplicate dropped)"), "{at80:?}");
}

#[test]
fn follow_mode_and_the_live_counts_give_way_after_the_name_and_the_url() {
    let mut m = live_following((120, 24));
    let shot = at_three_widths(&mut m);
    insta::assert_snapshot!("header_widths_live_following", shot);
    let at60 = rows(&mut m, 60, 1);
    assert!(at60[0].contains("+1,234 new"), "{at60:?}");
}

#[test]
fn the_types_row_keeps_every_mark_and_counts_the_types_it_leaves_out() {
    let mut m = types_chosen((120, 24));
    let shot = at_three_widths(&mut m);
    insta::assert_snapshot!("header_widths_types_chosen", shot);
    let at60 = rows(&mut m, 60, 2);
    assert!(at60[1].contains("+2 more"), "{at60:?}");
    assert!(at60[1].contains("[ ]others"), "{at60:?}");
}

/// From 16 columns to 200: every number on the first line is a number of the whole line (none
/// cut into another), the shown count is there, and a number of the whole line left out (but
/// for follow mode's wait) comes with a `…`; the types row has every type's mark with its name whole or cut to `…`, and the
/// note of the other families, from 48 columns; narrower, it ends in `…` where it leaves
/// something out. Neither line is cut by the terminal's edge: each ends as its whole form
/// does, or in `…`.
fn assert_every_width(name: &str, mut m: Model) {
    let wide = rows(&mut m, 1000, 2);
    let whole = wide[0].trim_end_matches(['|', ' ']);
    assert!(!whole.ends_with('…'), "{name}: {whole}");
    let shown = format!("{} shown", thousands(m.events.shown.len()));
    let others = !m.events.filter.types.is_empty();
    for width in 16..=200 {
        let at = rows(&mut m, width, 2);
        let (first, types) = (&at[0], &at[1]);
        let said: Vec<&str> = numbers(first).into_iter().map(|(n, _)| n).collect();
        for n in &said {
            assert!(
                numbers(whole).iter().any(|(w, _)| w == n),
                "{name} at {width}: {n} is no number of {whole}\n{first}"
            );
        }
        assert!(first.contains(&shown), "{name} at {width}: {first}");
        // Not cut by the terminal's edge: the line ends where the whole line ends, or in `…`.
        let end = first.trim_end_matches(['|', ' ']);
        let last_word = whole.rsplit(' ').next().unwrap();
        assert!(
            end.ends_with('…') || end.ends_with(last_word),
            "{name} at {width}: {first}"
        );
        // A count left out comes with a `…`; follow mode's wait may go without one.
        let left_out = numbers(whole)
            .into_iter()
            .any(|(n, wait)| !wait && !said.contains(&n));
        if left_out {
            assert!(first.contains('…'), "{name} at {width}: {first}");
        }
        let all = (1..=5).all(|k| {
            let t = &EventType::KNOWN[k - 1];
            types.contains(&format!("{k} {}", t.alias())) || types.contains(&format!("{k}…"))
        }) && (!others || types.contains("others"));
        let end = types.trim_end_matches(['|', ' ']);
        assert!(
            ["…", "connect", "others hidden", "[ ]others"]
                .iter()
                .any(|e| end.ends_with(e)),
            "{name} at {width}: {types}"
        );
        if width >= 48 {
            assert!(all, "{name} at {width}: {types}");
        } else if !all {
            assert!(
                types.trim_end_matches(['|', ' ']).ends_with('…'),
                "{name} at {width}: {types}"
            );
        }
    }
}

#[test]
fn at_every_width_the_counts_are_whole_and_what_gives_way_is_marked() {
    let size = (120, 24);
    assert_every_width("demo", demo(Filter::default(), size));
    assert_every_width(
        "one file",
        with_duplicate(
            SourceLabel::Files {
                count: 1,
                first: LONG_PATH.into(),
            },
            size,
        ),
    );
    assert_every_width(
        "three files",
        with_duplicate(
            SourceLabel::Files {
                count: 3,
                first: LONG_PATH.into(),
            },
            size,
        ),
    );
    assert_every_width("live following", live_following(size));
    assert_every_width("live failed", live_failed(size));
    assert_every_width(
        "live loading",
        live_loading_at(std::time::Instant::now(), size),
    );
    assert_every_width("types chosen", types_chosen(size));
}
