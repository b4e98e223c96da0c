//! Find: a text looked for as it is typed (`/`), with the search filter's meaning (any string
//! value in any case, any number as written). The selection jumps to the first event that holds
//! it, `n`/`N` to the next and the previous; the list and the detail pane highlight it; `&`
//! keeps only the events that hold it (the search filter). In the groups view it looks for a
//! group's name.
//!
//! Which events hold the text, looked at a part at a time, is in `hits`; the text marked where
//! it is drawn, in `marks`; the prompt, the jump and `n`/`N` are here.

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use tui_input::Input;

use super::groups::GroupsPanel;
use super::{Focus, Handled, visible_offset};

use crate::insight::Order;
use crate::store::Store;
use crate::text::for_terminal;
use crate::text::thousands;
use crate::tui::action::Command;
use crate::tui::keymap::Mode;
use crate::tui::model::{Events, Generation, Model};
use crate::tui::update::events::{fetch_more_if_near_end, select};
use crate::tui::update::history::{self, Return};
use crate::tui::view::layout::list_height;

mod hits;
mod marks;

pub use hits::{FIND_STEP, Find};
pub use marks::{holds, mark_line, marked, matches_in};

/// A find's jump looks at one by one at most this share of a turn's part of the events not
/// looked at yet (8,192 of them), then waits for the parts looked at in the turns after:
/// one by one, an event takes up to about a microsecond (its description may be read from the
/// dump), where a part reads its events on every core, in order.
const JUMP_SHARE: usize = 32;

/// A jump owed since the text was typed: the shown events are walked from the one at `from`
/// (event `from_row`), and `walked` of them were found not to hold the text. It is given up
/// when the user moves: the selection off event `selected`, another order, another filter.
/// Events of the load that join the shown ones move the place it walks from: the walk begins
/// again there.
#[derive(Debug, Clone, Copy)]
struct Jump {
    from: usize,
    from_row: Option<u32>,
    walked: usize,
    selected: Option<u32>,
    order: Order,
    /// The generation of the events when the jump last went on.
    generation: Generation,
}

/// Where a walk through the shown events stopped.
enum Walked {
    /// At this shown event, which holds the text.
    Hit(usize),
    /// Round every shown event, none of which holds it.
    Nowhere,
    /// After this many, all found not to hold it: the next are not looked at yet.
    Stopped(usize),
}

/// The find prompt at the foot of the screen, while the text is typed.
#[derive(Debug)]
pub struct FindPrompt {
    pub input: Input,
    /// Where the keyboard goes back to: the list, the detail pane or the groups view.
    pub back: Box<Focus>,
    /// The find in force before, which Esc brings back.
    before: Option<Find>,
    /// Where the selection was when the prompt opened: each text typed is looked for from there,
    /// and Esc goes back there.
    start: usize,
}

impl FindPrompt {
    /// The events were replaced (a live query's first answer): the find Esc brings back is
    /// looked for afresh in the new ones, as the find in force is (its hits were the old
    /// events').
    pub fn events_replaced(&mut self) {
        self.before = self.before.take().map(|f| Find::lazy(&f.text));
    }
}

/// `/`: the prompt opens; what is typed is looked for at once.
pub fn open(model: &mut Model, back: Focus) -> Handled {
    let start = match &back {
        Focus::Groups(g) => g.selected,
        _ => model.events.selection.selected,
    };
    Handled::to(Focus::Find(FindPrompt {
        input: Input::default(),
        back: Box::new(back),
        before: model.events.find.clone(),
        start,
    }))
}

/// The prompt's text changed: it is looked for from where the prompt opened.
pub fn typed(model: &mut Model) {
    let (text, start, in_groups) = match &model.focus {
        Focus::Find(p) => (
            p.input.value().to_string(),
            p.start,
            matches!(*p.back, Focus::Groups(_)),
        ),
        _ => return,
    };
    let page = list_height(model).max(1);
    if in_groups {
        // A group's name is looked for; the events are looked at only if `n` is pressed in the
        // list later.
        model.events.find = (!text.is_empty()).then(|| Find::lazy(&text));
        let store = &model.events.store;
        if let Focus::Find(p) = &mut model.focus
            && let Focus::Groups(g) = &mut *p.back
        {
            let found = (!text.is_empty())
                .then(|| group_from(g, store, &text, start, true))
                .flatten();
            g.selected = found.unwrap_or(start);
            g.offset = visible_offset(g.selected, g.offset, page);
        }
        return;
    }
    if text.is_empty() {
        model.events.find = None;
        select(model, start.min(model.events.shown.len().saturating_sub(1)));
        return;
    }
    let mut find = match &model.events.find {
        Some(before) if narrows(&before.text, &text) => Find::narrowed(before, &text),
        _ => Find::lazy(&text),
    };
    // The first part is looked at, and the jump made, once the update's views are brought up
    // to date (see `update`).
    let events = &model.events;
    find.jump = Some(Jump {
        from: start,
        from_row: events.shown.get(start).copied(),
        walked: 0,
        selected: events.shown.get(events.selection.selected).copied(),
        order: events.order,
        generation: events.generation,
    });
    model.events.find = Some(find);
}

/// Goes on with the jump a find owes, if any: the shown events after those walked are looked
/// at, those the find has not looked at yet one by one up to a share of its part
/// (`JUMP_SHARE`); the selection moves to the first that holds the text. Given up when the
/// user moved meanwhile (see `Jump`).
pub fn owed_jump(model: &mut Model) {
    let Some(jump) = model.events.find.as_ref().and_then(|f| f.jump) else {
        return;
    };
    let events = &model.events;
    let Some(jump) = jump.after(events) else {
        if let Some(find) = &mut model.events.find {
            find.jump = None;
        }
        return;
    };
    let started = std::time::Instant::now();
    let alone = (model.events.find_step / JUMP_SHARE).max(1);
    let walked = walk(model, jump.from, true, jump.walked, Some(alone));
    let jump_ms = started.elapsed().as_secs_f64() * 1e3;
    if jump_ms >= 1.0 {
        tracing::trace!(jump_ms, "find's jump walked");
    }
    let Some(find) = &mut model.events.find else {
        return;
    };
    match walked {
        Walked::Stopped(walked) => find.jump = Some(Jump { walked, ..jump }),
        Walked::Nowhere => find.jump = None,
        Walked::Hit(k) => {
            find.jump = None;
            jump_to(model, k);
            // The jump itself moved the selection: it is not the user's move.
        }
    }
}

impl Jump {
    /// This jump, to go on with the events as they are now; `None` when the user moved since
    /// it last went on. The shown events changed with the store alone (the load's events
    /// joined them): the walk begins again from its event's place among them.
    fn after(self, events: &Events) -> Option<Jump> {
        let selected = events.shown.get(events.selection.selected).copied();
        let now = events.generation;
        if selected != self.selected || events.order != self.order {
            return None;
        }
        if now.shown == self.generation.shown {
            return Some(Jump {
                generation: now,
                ..self
            });
        }
        // The shown events changed without the store: a filter the user changed.
        if now.store == self.generation.store {
            return None;
        }
        let row = self.from_row?;
        let from = events.shown.iter().position(|&r| r == row)?;
        Some(Jump {
            from,
            walked: 0,
            generation: now,
            ..self
        })
    }
}

/// Whether every event that holds `text` holds `before` too, so that a find of `text` need only
/// look at the events of a find of `before`: `text` holds `before`, in any case. Only for ASCII
/// texts: lowercasing some other letters depends on what is around them (a Greek final sigma).
fn narrows(before: &str, text: &str) -> bool {
    !before.is_empty()
        && before.is_ascii()
        && text.is_ascii()
        && text
            .to_ascii_lowercase()
            .contains(&before.to_ascii_lowercase())
}

/// A command while the text is typed.
pub fn handle(prompt: FindPrompt, model: &mut Model, c: Command) -> Handled {
    match c {
        Command::Apply => {
            let back = *prompt.back;
            if prompt.input.value().is_empty() {
                model.events.find = None;
            } else {
                say_hits(model, &back);
            }
            let effects = fetch_more_if_near_end(model);
            Handled::Done(back, effects)
        }
        Command::Cancel => {
            // The find in force before comes back, not a jump it still owed: Esc leaves the
            // selection where the prompt opened.
            model.events.find = prompt.before.map(Find::without_jump);
            let mut back = *prompt.back;
            match &mut back {
                Focus::Groups(g) => g.selected = prompt.start,
                _ => select(model, prompt.start),
            }
            Handled::to(back)
        }
        _ => Handled::Unused(Focus::Find(prompt)),
    }
}

/// Says how many events (or groups) hold the find, and the keys that go on from there.
fn say_hits(model: &mut Model, here: &Focus) {
    let Some(find) = &model.events.find else {
        return;
    };
    let key = |c| model.config.keymap.key(Mode::List, c);
    let text = for_terminal(&find.text).into_owned();
    model.status = Some(match here {
        Focus::Groups(g) => {
            let n = (0..g.groups.len())
                .filter(|&k| {
                    holds(
                        &g.groups.group(k).label(&model.events.store, g.key),
                        &find.text,
                    )
                })
                .count();
            let are = if n == 1 { "is" } else { "are" };
            format!(
                "{} {are} named with \"{text}\" ({}/{} next/previous)",
                crate::text::plural(n, "group", "groups"),
                key(Command::FindNext),
                key(Command::FindPrev)
            )
        }
        _ => match find.shown_hits() {
            Some(0) => format!("no shown event holds \"{text}\""),
            Some(n) => format!(
                "{} of the {} shown events hold \"{text}\" ({}/{}: next/previous, {}: keep only them)",
                thousands(n),
                thousands(model.events.shown.len()),
                key(Command::FindNext),
                key(Command::FindPrev),
                key(Command::FindToFilter)
            ),
            None => format!(
                "looking through the {} shown events for \"{text}\"; the list's title counts them when done ({}/{}: next/previous, {}: keep only them)",
                thousands(model.events.shown.len()),
                key(Command::FindNext),
                key(Command::FindPrev),
                key(Command::FindToFilter)
            ),
        },
    });
}

/// `n` / `N`: the next (or previous) event that holds the find, round from the other end.
pub fn next(model: &mut Model, forward: bool, here: Focus) -> Handled {
    let Some(find) = &model.events.find else {
        model.status = Some(format!(
            "nothing to find again: {} finds a text",
            model.config.keymap.key(here.mode(), Command::Find)
        ));
        return Handled::to(here);
    };
    let text = find.text.clone();
    if let Focus::Groups(mut g) = here {
        let from = if forward {
            g.selected + 1
        } else {
            g.selected + g.groups.len().max(1) - 1
        };
        match group_from(&g, &model.events.store, &text, from, forward) {
            Some(k) => {
                g.selected = k;
                g.offset = visible_offset(k, g.offset, list_height(model).max(1));
            }
            None => {
                model.status = Some(format!(
                    "no group is named with \"{}\"",
                    for_terminal(&text)
                ))
            }
        }
        return Handled::to(Focus::Groups(g));
    }
    let len = model.events.shown.len();
    let sel = model.events.selection.selected;
    let from = if forward {
        sel + 1
    } else {
        sel + len.max(1) - 1
    };
    match next_hit(model, from, forward) {
        Some(k) => {
            let wrapped = if forward { k <= sel } else { k >= sel };
            jump_to(model, k);
            if wrapped {
                model.status = Some(if forward {
                    "found again from the top".into()
                } else {
                    "found again from the bottom".into()
                });
            }
        }
        None => model.status = Some(format!("no shown event holds \"{}\"", for_terminal(&text))),
    }
    let effects = fetch_more_if_near_end(model);
    Handled::Done(here, effects)
}

/// `&`: the find becomes the search filter: only the events that hold it are shown.
pub fn to_filter(model: &mut Model, here: Focus) -> Handled {
    let Some(find) = &model.events.find else {
        model.status = Some(format!(
            "no find to keep: {} finds a text",
            model.config.keymap.key(here.mode(), Command::Find)
        ));
        return Handled::to(here);
    };
    let mut filter = model.events.filter.clone();
    filter.search = Some(find.text.clone());
    let from = Return::list(model);
    let effects = history::change(model, filter, from);
    Handled::Done(here, effects)
}

/// [`hit_from`] for `n`/`N`: where the walk meets events no part has looked at yet, after a
/// share of a part of them looked at one by one, every event is looked at first, on every core
/// (as a find did on each key before it looked a part at a time): one by one, the rest of
/// five million could take seconds.
fn next_hit(model: &mut Model, from: usize, forward: bool) -> Option<usize> {
    let alone = (model.events.find_step / JUMP_SHARE).max(1);
    match walk(model, from, forward, 0, Some(alone)) {
        Walked::Hit(k) => Some(k),
        Walked::Nowhere => None,
        Walked::Stopped(_) => {
            if let Some(mut find) = model.events.find.take() {
                find.refresh(&model.events, usize::MAX);
                model.events.find = Some(find);
            }
            hit_from(model, from, forward)
        }
    }
}

/// The first shown event from `from` (round from the other end) that holds the find, looking
/// forward or back.
fn hit_from(model: &Model, from: usize, forward: bool) -> Option<usize> {
    match walk(model, from, forward, 0, None) {
        Walked::Hit(k) => Some(k),
        Walked::Nowhere | Walked::Stopped(_) => None,
    }
}

/// Walks the shown events from `from` (round from the other end), forward or back, past the
/// first `skip`, to the first that holds the find. Those the find has not looked at yet are
/// looked at one by one, at most `alone` of them when given.
fn walk(model: &Model, from: usize, forward: bool, skip: usize, alone: Option<usize>) -> Walked {
    let Some(find) = model.events.find.as_ref() else {
        return Walked::Nowhere;
    };
    let store = &model.events.store;
    let shown = &model.events.shown;
    let len = shown.len();
    let mut left = alone.unwrap_or(usize::MAX);
    for step in skip..len {
        let k = if forward {
            (from + step) % len
        } else {
            (from + len - step % len) % len
        };
        let row = shown[k];
        if !find.covers(row) {
            if left == 0 {
                return Walked::Stopped(step);
            }
            left -= 1;
        }
        if find.hit(store, row) {
            return Walked::Hit(k);
        }
    }
    Walked::Nowhere
}

/// The first group from `from` (round) whose name holds `text`.
fn group_from(
    g: &GroupsPanel,
    store: &Store,
    text: &str,
    from: usize,
    forward: bool,
) -> Option<usize> {
    let len = g.groups.len();
    (0..len)
        .map(|step| {
            if forward {
                (from + step) % len
            } else {
                (from + len - step % len) % len
            }
        })
        .find(|&k| holds(&g.groups.group(k).label(store, g.key), text))
}

/// Selects shown event `k`, the detail pane scrolled to the first line that holds the find.
fn jump_to(model: &mut Model, k: usize) {
    select(model, k);
    if let Some(line) = super::detail::first_line_holding(model) {
        model.panes.detail.scroll = line.saturating_sub(2);
        super::detail::clamp_scroll(model);
    }
}

/// The prompt, in the hint bar's place: the text with the cursor, and how many events hold it
/// (nothing before a text is typed: the find before it is not the prompt's).
pub fn draw_prompt(model: &Model, prompt: &FindPrompt, frame: &mut Frame, area: Rect) {
    let theme = &model.config.theme;
    let count = match (&model.events.find, &*prompt.back) {
        (_, Focus::Groups(_)) | (None, _) => String::new(),
        _ if prompt.input.value().is_empty() => String::new(),
        (Some(find), _) => match find.shown_hits() {
            Some(n) => format!(
                "   {} of {} shown",
                thousands(n),
                thousands(model.events.shown.len())
            ),
            None => format!(
                "   looking: {}%",
                find.looked_at_percent(&model.events.store)
            ),
        },
    };
    let key = |c| model.config.keymap.key(Mode::Find, c);
    let tail = format!(
        "{count}   {} keeps it, {} drops it",
        key(Command::Apply),
        key(Command::Cancel)
    );
    let width = (area.width as usize)
        .saturating_sub(2 + tail.chars().count())
        .max(1);
    let (text, cursor) = super::input_view::visible(&prompt.input, width);
    frame.set_cursor_position(Position::new(area.x + 2 + cursor as u16, area.y));
    let line = Line::from(vec![
        Span::styled("/".to_string(), theme.key()),
        Span::raw(" "),
        Span::styled(
            format!(
                "{text}{}",
                " ".repeat(
                    width.saturating_sub(unicode_width::UnicodeWidthStr::width(text.as_str()))
                )
            ),
            theme.input_focused(),
        ),
        Span::styled(tail, theme.label()),
    ]);
    frame.render_widget(Paragraph::new(line), area);
}
