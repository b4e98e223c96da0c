//! What the loaded events cover of what the query matches, when it is less: a live query with
//! pages still on the server, or saved API pages whose `total` or `next` say more exist. The
//! header's counts say it, and so does each view that summarises the events (the groups, a
//! story, the facets, the timeline), on its title line: 13 groups of 100 events are not the
//! groups of 2,400.

use ratatui::Frame;
use ratatui::layout::Rect;

use super::layout::Areas;
use crate::text::display_width;
use crate::text::thousands;
use crate::tui::action::Command;
use crate::tui::keymap::Mode;
use crate::tui::model::Model;
use crate::tui::panels::Focus;

/// The loaded events against what the query matches, when they are fewer: `100 of 2,400
/// loaded: A loads all`. `None` when everything that matches is loaded (or nothing says more
/// exist).
pub fn note(model: &Model) -> Option<String> {
    notes(model).map(|(long, _)| long)
}

/// The note, and a short form of it for where the long one has no room (`100 of 2,400
/// loaded`).
pub(super) fn notes(model: &Model) -> Option<(String, String)> {
    let loaded = model.events.store.len();
    if let Some(live) = &model.session.live {
        // Follow mode's refreshes page through a query loaded whole once: no part missing.
        let more = live.next.as_deref().is_some_and(|n| !n.is_empty()) && !live.complete;
        if !more {
            return None;
        }
        let of = match live.total {
            Some(total) if total > loaded as u64 => {
                format!(
                    "{} of {} loaded",
                    thousands(loaded),
                    thousands(total as usize)
                )
            }
            _ => format!("{} loaded, more on the server", thousands(loaded)),
        };
        let long = if live.loading_all {
            format!("{of} so far")
        } else {
            format!(
                "{of}: {} loads all",
                model.config.keymap.key(Mode::List, Command::LoadAll)
            )
        };
        return Some((long, of));
    }
    let saved = &model.session.saved;
    if !saved.say_more_than(loaded) {
        return None;
    }
    Some(match saved.total {
        Some(total) => {
            let of = format!("{} of {}", thousands(loaded), thousands(total as usize));
            (
                format!("{of}: the saved pages hold part of their query"),
                format!("{of}, partial"),
            )
        }
        None => (
            format!(
                "{} loaded: the saved pages say more followed",
                thousands(loaded)
            ),
            format!("{} loaded, partial", thousands(loaded)),
        ),
    })
}

/// The widest a title may be, written after a pane's corner with a space either side on an
/// area `width` wide, for the note's short form to follow it where the note is marked. `None`
/// where no note is due. A view whose title ends in a key hint leaves the hint out beyond it:
/// the note says what the view shows, the hint only how to use it.
pub fn title_room(model: &Model, width: u16) -> Option<usize> {
    let (_, short) = notes(model)?;
    // The corner and a space before the title; a space, the note, a space and two cells of
    // border after it.
    Some(usize::from(width).saturating_sub(2 + 1 + display_width(&short) + 2 + 2))
}

/// Writes the note on the title line of each view that summarises the events, at its right
/// end, where the title leaves room.
pub fn mark_views(model: &Model, frame: &mut Frame, a: &Areas) {
    let Some((long, short)) = notes(model) else {
        return;
    };
    let style = model.config.theme.problem();
    if matches!(model.focus.beneath(), Focus::Groups(_) | Focus::Story(_)) {
        mark(frame, a.list, &long, &short, style);
    }
    if model.focus.json().is_none() && model.panes.facets.panel.is_some() {
        mark(frame, a.detail, &long, &short, style);
    }
    if model.panes.timeline.is_some() {
        mark(frame, a.timeline, &long, &short, style);
    }
}

/// Whether a cell of a title line is part of its border, not of its title.
fn is_border(symbol: &str) -> bool {
    matches!(
        symbol,
        "─" | " " | "┌" | "┐" | "╭" | "╮" | "└" | "┘" | "╰" | "╯" | "│" | ""
    )
}

/// The fewest cells of a title kept when the note takes the place of its end.
const TITLE_KEPT: u16 = 16;

/// Writes the note at the right end of `area`'s first line: the long form after the title if
/// it fits, else the short one; else on the area's last line when that is a border; else the
/// short form over the end of the title, keeping its start.
fn mark(frame: &mut Frame, area: Rect, long: &str, short: &str, style: ratatui::style::Style) {
    if area.height == 0 || area.width < 4 {
        return;
    }
    let buffer = frame.buffer_mut();
    // One border cell stays at the right end.
    let right = area.right().saturating_sub(2);
    let title_end = |y: u16| {
        (area.x..area.right())
            .rev()
            .find(|&x| !is_border(buffer[(x, y)].symbol()))
            .map_or(area.x, |x| x + 1)
    };
    let top_end = title_end(area.y);
    let bottom = area.bottom() - 1;
    // A bottom border line with nothing written on it (not a blank line of content).
    let bottom_free = area.height > 1
        && title_end(bottom) == area.x
        && (area.x..area.right()).any(|x| buffer[(x, bottom)].symbol() == "─");
    let fits = |text: &str, after: u16| after + 1 + display_width(text) as u16 + 2 <= right;
    let (y, text) = if fits(long, top_end) {
        (area.y, format!(" {long} "))
    } else if fits(short, top_end) {
        (area.y, format!(" {short} "))
    } else if bottom_free && fits(long, area.x) {
        (bottom, format!(" {long} "))
    } else if fits(&format!("… {short}"), area.x + TITLE_KEPT) {
        // Over the end of the title, which is cut there.
        (area.y, format!("… {short} "))
    } else {
        return;
    };
    let width = display_width(&text) as u16;
    buffer.set_stringn(right - width, y, &text, width as usize, style);
    // What the title wrote past the note (a pane with no right border) is cleared.
    for x in right..area.right() {
        if !is_border(buffer[(x, y)].symbol()) {
            buffer[(x, y)].set_symbol(" ");
        }
    }
}
