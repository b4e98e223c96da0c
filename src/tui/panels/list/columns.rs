//! The list's columns: which fit the width, how wide each is drawn, and how much of a time shows.

use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Row};

use crate::event::EventType;
use crate::output::status_word;
use crate::store::NO_TIME;
use crate::text::cut;
use crate::text::for_terminal;
use crate::tui::model::Model;

/// One of the list's columns.
struct Column {
    title: &'static str,
    /// The width it needs to be shown at all.
    width: u16,
    /// The width its texts may take when the terminal has room: wider ones are cut with `…`.
    widest: u16,
    /// Whether it may be left out on a narrow screen (the last ones go first).
    optional: bool,
}

const fn column(title: &'static str, width: u16, widest: u16, optional: bool) -> Column {
    Column {
        title,
        width,
        widest,
        optional,
    }
}

/// The list's columns, in order. The time is as wide as its text (see [`TimeText`]).
const COLUMNS: [Column; 9] = [
    column("TIME (UTC)", 12, 12, false),
    column("TYPE", 10, 10, false),
    column("CODE", 4, 4, false),
    column("ERROR", 20, 26, false),
    column("STATUS", 7, 7, false),
    column("ROOM", 14, 36, true),
    column("USER", 12, 20, true),
    column("SDK", 14, 24, true),
    column("OS", 14, 20, true),
];

/// Where the time's, the room's and the user's columns are in [`COLUMNS`].
const TIME: usize = 0;
const ROOM: usize = 5;
const USER: usize = 6;

/// The order in which columns take the room a wide terminal has left, up to their widest: the
/// user and the room first (the detail pane beside the list holds everything else about the
/// event, and the error's 20 columns hold all but the longest names).
const WIDENING: [usize; 5] = [USER, ROOM, 3, 7, 8];

/// The narrowest the error's name gets on a terminal too narrow for the columns that are always
/// shown.
const NARROWEST_ERROR: u16 = 8;

/// How much of an event's time the list shows: the clock to the millisecond while every loaded
/// event is of one day; the day and the clock to the second when they span several, the year
/// too when they span years (a row's time then never reads the same as another day's, and the
/// detail pane has the rest).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeText {
    Clock,
    Day,
    Year,
}

impl TimeText {
    /// How much of the times to show when the loaded events span `range`, read in `zone`.
    pub fn in_zone(range: Option<(i64, i64)>, zone: crate::time::Zone) -> TimeText {
        TimeText::of(range.map(|(a, z)| (zone.shift(a), zone.shift(z))))
    }

    pub fn of(range: Option<(i64, i64)>) -> TimeText {
        let Some((a, z)) = range else {
            return TimeText::Clock;
        };
        let (first, last) = (crate::time::format_short(a), crate::time::format_short(z));
        if first[..10] == last[..10] {
            TimeText::Clock
        } else if first[..4] == last[..4] {
            TimeText::Day
        } else {
            TimeText::Year
        }
    }

    /// The part shown of `time::format_short`'s text (`2026-11-18 08:01:02.258`).
    fn part(self) -> std::ops::Range<usize> {
        match self {
            TimeText::Clock => 11..23,
            TimeText::Day => 5..19,
            TimeText::Year => 0..19,
        }
    }

    fn width(self) -> u16 {
        self.part().len() as u16
    }

    /// A time in a column of its own beside others (the groups' first and last seen): to the
    /// second on one day, to the minute with the day (and the year) otherwise.
    pub fn seen(self, ns: i64) -> String {
        crate::time::format_short(ns)[self.seen_part()].to_string()
    }

    /// The width of [`TimeText::seen`]'s text.
    pub fn seen_width(self) -> u16 {
        self.seen_part().len() as u16
    }

    fn seen_part(self) -> std::ops::Range<usize> {
        match self {
            TimeText::Clock => 11..19,
            TimeText::Day => 5..16,
            TimeText::Year => 0..16,
        }
    }
}

/// The columns drawn in `width` cells, by their place in [`COLUMNS`], with the width each is
/// drawn at: those that fit, the optional ones going first from the end; then the room left is
/// given to the text columns up to their widest (see [`WIDENING`]), and what still remains to
/// the last. With a room filter the room's column is left out (the header names the room), which
/// leaves its width to the SDK and the OS.
pub fn columns_shown(width: u16, one_room: bool, time: TimeText) -> Vec<(usize, u16)> {
    let natural = |k: usize| {
        if k == TIME {
            time.width()
        } else {
            COLUMNS[k].width
        }
    };
    let mut used = 0u16;
    let mut shown: Vec<(usize, u16)> = Vec::new();
    for (k, c) in COLUMNS.iter().enumerate() {
        if one_room && k == ROOM {
            continue;
        }
        let w = natural(k);
        if shown.is_empty() {
            used = w;
            shown.push((k, w));
            continue;
        }
        if c.optional && used + w + 1 > width {
            break;
        }
        used += w + 1;
        shown.push((k, w));
    }
    // Too narrow for the columns always shown: the error's name gives way, down to its
    // narrowest (below that, the table squeezes them all).
    if used > width
        && let Some((_, w)) = shown.iter_mut().find(|(k, _)| *k == 3)
    {
        let less = (used - width).min(*w - NARROWEST_ERROR);
        *w -= less;
        used -= less;
    }
    let mut spare = width.saturating_sub(used);
    for k in WIDENING {
        if let Some((_, w)) = shown.iter_mut().find(|(j, _)| *j == k) {
            let more = spare.min(COLUMNS[k].widest.saturating_sub(*w));
            *w += more;
            spare -= more;
        }
    }
    if let Some((_, w)) = shown.last_mut() {
        *w += spare;
    }
    shown
}

/// The width the columns up to the user's take at their narrowest, with a column of space
/// between each: what the list asks of a screen shared with the detail pane. The room's is left
/// out with a room filter.
pub fn wanted_width(one_room: bool, time: TimeText) -> u16 {
    let mut width = 0;
    let mut count = 0;
    for (k, c) in COLUMNS.iter().enumerate().take(USER + 1) {
        if one_room && k == ROOM {
            continue;
        }
        width += if k == TIME { time.width() } else { c.width };
        count += 1;
    }
    width + count - 1
}

/// The titles of the columns left out of `shown` for want of room (not the room's, which a
/// room filter leaves out on purpose).
pub fn left_out(shown: &[(usize, u16)], one_room: bool) -> Vec<&'static str> {
    COLUMNS
        .iter()
        .enumerate()
        .filter(|&(k, _)| !(shown.iter().any(|&(j, _)| j == k) || one_room && k == ROOM))
        .map(|(_, c)| c.title)
        .collect()
}

/// Column `k`'s title; the time's says its zone (the header names it in full).
pub fn title(k: usize, zone: crate::time::Zone) -> &'static str {
    match zone {
        crate::time::Zone::Utc => COLUMNS[k].title,
        _ if k == TIME => "TIME (local)",
        _ => COLUMNS[k].title,
    }
}

/// Event `i`'s row: each shown column's text in its width, a cut one ending in `…`.
pub fn event_row(model: &Model, i: usize, shown: &[(usize, u16)], time: TimeText) -> Row<'static> {
    let store = &model.events.store;
    let row = store.row(i);
    let s = |sym| for_terminal(store.str(sym)).into_owned();
    let kind = EventType::from_name(store.str(row.kind));
    let join = |a: String, b: String| if b.is_empty() { a } else { format!("{a} {b}") };
    // Column `k`'s text, and its style when it has one of its own.
    let cell = |k: usize| match k {
        TIME => {
            let text = if row.ts == NO_TIME {
                "-".to_string()
            } else {
                crate::time::format_short(model.panes.zone.shift(row.ts))[time.part()].to_string()
            };
            // Events a follow-mode refresh brought are marked new.
            let is_new = model
                .session
                .follow
                .as_ref()
                .and_then(|f| f.new_from)
                .is_some_and(|from| i >= from);
            (text, is_new.then(|| model.config.theme.new_event()))
        }
        1 => (
            for_terminal(&kind.short()).into_owned(),
            Some(model.config.theme.event_type(&kind)),
        ),
        2 => (
            row.error_code().map(|c| c.to_string()).unwrap_or_default(),
            None,
        ),
        3 => (s(row.error_name), None),
        4 => (
            status_word(row.is_terminal()).to_string(),
            Some(model.config.theme.terminal(row.is_terminal())),
        ),
        ROOM if row.room_name.is_none() => (s(row.room_id), None),
        ROOM => (s(row.room_name), None),
        USER => (s(row.user_name), None),
        7 => {
            let agent = store.agent(row);
            (join(s(agent.sdk), s(agent.sdk_version)), None)
        }
        _ => {
            let agent = store.agent(row);
            (join(s(agent.os), s(agent.os_version)), None)
        }
    };
    // An event that holds the text found: its time is marked, and the text where it shows.
    let find = model
        .events
        .find
        .as_ref()
        .filter(|f| f.hit(store, i as u32))
        .map(|f| f.text.as_str());
    let hit = model.config.theme.find_hit();
    // Each text in its column's width, a cut one ending in `…`.
    Row::new(shown.iter().map(|&(k, w)| {
        let (text, style) = cell(k);
        let text = cut(&text, w.into());
        let style = style.unwrap_or_default();
        match find {
            Some(_) if k == TIME => Cell::from(Span::styled(text, style.patch(hit))),
            Some(needle) => Cell::from(Line::from(super::super::find::marked(
                &text,
                needle,
                style,
                style.patch(hit),
            ))),
            None => Cell::from(Span::styled(text, style)),
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn total(shown: &[(usize, u16)]) -> u16 {
        shown.iter().map(|&(_, w)| w).sum::<u16>() + shown.len() as u16 - 1
    }

    #[test]
    fn columns_fill_the_width_the_user_and_room_first_then_the_other_texts_up_to_their_widest() {
        // The list's side of a 140-column screen: the user takes what is left.
        let shown = columns_shown(87, false, TimeText::Clock);
        assert_eq!(
            shown.iter().map(|&(k, _)| k).collect::<Vec<_>>(),
            [0, 1, 2, 3, 4, 5, 6]
        );
        assert_eq!(shown[5], (ROOM, 14));
        assert_eq!(shown[6], (6, 14));
        // An 80-column list has no room for the user: the room takes what is left.
        assert_eq!(columns_shown(80, false, TimeText::Clock)[5], (ROOM, 22));
        assert_eq!(total(&shown), 87);
        // Wide: every column at its widest, the last taking the rest.
        let shown = columns_shown(260, false, TimeText::Clock);
        assert_eq!(shown.len(), COLUMNS.len());
        for &(k, w) in &shown[..8] {
            assert_eq!(w, COLUMNS[k].widest, "{}", COLUMNS[k].title);
        }
        assert_eq!(total(&shown), 260);
        // A day in the time takes two columns more: the room and the user stay.
        let dated = columns_shown(87, false, TimeText::Day);
        assert_eq!(dated[0], (TIME, 14));
        assert_eq!(dated[5], (ROOM, 14));
        assert_eq!(dated[6], (6, 12));
        assert_eq!(total(&dated), 87);
        // And a year: the room stays on an 80-column list.
        let yearly = columns_shown(80, false, TimeText::Year);
        assert_eq!(yearly[0], (TIME, 19));
        assert!(yearly.iter().any(|&(k, _)| k == ROOM), "{yearly:?}");
        // Narrower than the columns always shown: the error gives way.
        let narrow = columns_shown(50, false, TimeText::Clock);
        assert_eq!(narrow.len(), 5);
        assert_eq!(narrow[3], (3, 13));
        assert_eq!(total(&narrow), 50);
        // With a room filter, no room column.
        assert!(
            columns_shown(87, true, TimeText::Clock)
                .iter()
                .all(|&(k, _)| k != ROOM)
        );
    }

    #[test]
    fn the_time_shows_the_day_when_events_span_days_and_the_year_when_they_span_years() {
        let at = |t: &str| crate::time::parse_rfc3339_nanos(t).unwrap();
        let day = |a: &str, z: &str| TimeText::of(Some((at(a), at(z))));
        assert_eq!(TimeText::of(None), TimeText::Clock);
        assert_eq!(
            day("2026-11-18T00:00:00Z", "2026-11-18T23:59:59Z"),
            TimeText::Clock
        );
        assert_eq!(
            day("2026-11-17T23:59:00Z", "2026-11-18T00:01:00Z"),
            TimeText::Day
        );
        assert_eq!(
            day("2025-12-31T23:59:00Z", "2026-01-01T00:01:00Z"),
            TimeText::Year
        );
        let shown = |t: TimeText| {
            crate::time::format_short(at("2026-11-18T08:01:02.258Z"))[t.part()].to_string()
        };
        assert_eq!(shown(TimeText::Clock), "08:01:02.258");
        assert_eq!(shown(TimeText::Day), "11-18 08:01:02");
        assert_eq!(shown(TimeText::Year), "2026-11-18 08:01:02");
    }
}
