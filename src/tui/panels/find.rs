//! Find: a text looked for as it is typed (`/`), with the search filter's meaning (any string
//! value in any case, any number as written). The selection jumps to the first event that holds
//! it, `n`/`N` to the next and the previous; the list and the detail pane highlight it; `&`
//! keeps only the events that hold it (the search filter). In the groups view it looks for a
//! group's name.

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use tui_input::Input;

use super::groups::GroupsPanel;
use super::{Focus, Handled, visible_offset};
use crate::filter::Filter;
use crate::store::Store;
use crate::text::for_terminal;
use crate::text::thousands;
use crate::tui::action::Command;
use crate::tui::keymap::Mode;
use crate::tui::model::{Events, Model};
use crate::tui::update::events::{fetch_more_if_near_end, select};
use crate::tui::update::history::{self, Return};
use crate::tui::view::layout::list_height;

/// A find in force: its text, and which loaded events hold it.
#[derive(Debug, Clone)]
pub struct Find {
    pub text: String,
    /// Bit `i` is set when loaded event `i` holds the text.
    hits: Vec<u64>,
    /// How many loaded events `hits` covers: events loaded later are looked at when they come.
    covered: usize,
    /// How many of the shown events hold the text, for the generation of the shown events it
    /// was counted for.
    pub shown_hits: usize,
    counted_for: Option<u64>,
}

impl Find {
    /// A find of `text` whose events are looked at on its first [`Find::refresh`].
    pub fn lazy(text: &str) -> Find {
        Find {
            text: text.to_string(),
            hits: Vec::new(),
            covered: 0,
            shown_hits: 0,
            counted_for: None,
        }
    }

    /// A find of `text` that holds `before`'s text (see [`narrows`]): only the events that hold
    /// `before`'s are looked at, as only they can hold this one; the events loaded since are
    /// looked at on its first [`Find::refresh`].
    fn narrowed(before: &Find, text: &str, store: &Store) -> Find {
        let covered = before.covered.min(store.len());
        let candidates: Vec<u32> = before
            .hits
            .iter()
            .enumerate()
            .flat_map(|(w, &word)| {
                let mut bits = word;
                std::iter::from_fn(move || {
                    (bits != 0).then(|| {
                        let b = bits.trailing_zeros();
                        bits &= bits - 1;
                        (w * 64) as u32 + b
                    })
                })
            })
            .take_while(|&i| (i as usize) < covered)
            .collect();
        let filter = Filter {
            search: Some(text.to_string()),
            ..Filter::default()
        };
        let mut hits = vec![0u64; covered.div_ceil(64)];
        for i in store.matching_among(&filter, &candidates) {
            hits[i as usize / 64] |= 1 << (i % 64);
        }
        Find {
            text: text.to_string(),
            hits,
            covered,
            shown_hits: 0,
            counted_for: None,
        }
    }

    /// Looks at the events loaded since the text was last looked for.
    fn extend(&mut self, store: &Store) {
        if self.covered >= store.len() {
            return;
        }
        let filter = Filter {
            search: Some(self.text.clone()),
            ..Filter::default()
        };
        self.hits.resize(store.len().div_ceil(64), 0);
        for i in store.matching(&filter, self.covered..store.len()) {
            self.hits[i as usize / 64] |= 1 << (i % 64);
        }
        self.covered = store.len();
    }

    /// Whether loaded event `row` holds the text.
    pub fn hit(&self, row: u32) -> bool {
        self.hits
            .get(row as usize / 64)
            .is_some_and(|w| w & (1 << (row % 64)) != 0)
    }

    /// Brings the find up to date with the events: new ones looked at, the shown ones that hold
    /// the text counted again when they changed.
    pub fn refresh(&mut self, events: &Events) {
        self.extend(&events.store);
        if self.counted_for != Some(events.generation.shown) {
            // Every loaded event shown: the bits set are the count. Else the shown events in
            // load order, which reads the bits in order.
            self.shown_hits = if events.matching.len() == events.store.len() {
                self.hits.iter().map(|w| w.count_ones() as usize).sum()
            } else {
                events.matching.iter().filter(|&&i| self.hit(i)).count()
            };
            self.counted_for = Some(events.generation.shown);
        }
    }
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
    let mut lap = crate::time::Lap::new(std::time::Instant::now());
    let mut find = match &model.events.find {
        Some(before) if narrows(&before.text, &text) => {
            Find::narrowed(before, &text, &model.events.store)
        }
        _ => Find::lazy(&text),
    };
    let narrowed_ms = lap.split();
    find.refresh(&model.events);
    let refresh_ms = lap.split();
    model.events.find = Some(find);
    if let Some(k) = hit_from(model, start, true) {
        jump(model, k);
    }
    tracing::trace!(narrowed_ms, refresh_ms, jump_ms = lap.split(), "found");
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
            model.events.find = prompt.before;
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
        _ if find.shown_hits == 0 => format!("no shown event holds \"{text}\""),
        _ => format!(
            "{} of the {} shown events hold \"{text}\" ({}/{}: next/previous, {}: keep only them)",
            thousands(find.shown_hits),
            thousands(model.events.shown.len()),
            key(Command::FindNext),
            key(Command::FindPrev),
            key(Command::FindToFilter)
        ),
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
    match hit_from(model, from, forward) {
        Some(k) => {
            let wrapped = if forward { k <= sel } else { k >= sel };
            jump(model, k);
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

/// The first shown event from `from` (round from the other end) that holds the find, looking
/// forward or back.
fn hit_from(model: &Model, from: usize, forward: bool) -> Option<usize> {
    let find = model.events.find.as_ref()?;
    let shown = &model.events.shown;
    let len = shown.len();
    (0..len)
        .map(|step| {
            if forward {
                (from + step) % len
            } else {
                (from + len - step % len) % len
            }
        })
        .find(|&k| find.hit(shown[k]))
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
fn jump(model: &mut Model, k: usize) {
    select(model, k);
    if let Some(line) = super::detail::first_line_holding(model) {
        model.panes.detail.scroll = line.saturating_sub(2);
        super::detail::clamp_scroll(model);
    }
}

/// Whether `hay` holds `needle` in any case.
pub fn holds(hay: &str, needle: &str) -> bool {
    !matches_in(hay, needle).is_empty()
}

/// Where `needle` stands in `hay`, in any case: byte ranges of `hay`, not overlapping.
pub fn matches_in(hay: &str, needle: &str) -> Vec<std::ops::Range<usize>> {
    let needle: Vec<char> = needle.chars().flat_map(char::to_lowercase).collect();
    if needle.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let starts: Vec<usize> = hay.char_indices().map(|(i, _)| i).collect();
    let mut k = 0;
    while k < starts.len() {
        let at = starts[k];
        let mut lowered = hay[at..].chars().flat_map(char::to_lowercase);
        if needle.iter().all(|c| lowered.next() == Some(*c)) {
            // The match ends after the characters whose lowercase made the needle.
            let mut taken = 0;
            let mut end = at;
            for ch in hay[at..].chars() {
                if taken >= needle.len() {
                    break;
                }
                taken += ch.to_lowercase().count();
                end += ch.len_utf8();
            }
            out.push(at..end);
            k = starts.partition_point(|&s| s < end);
        } else {
            k += 1;
        }
    }
    out
}

/// `text` as spans of `base` style, the places that hold `needle` in `hit` style.
pub fn marked(text: &str, needle: &str, base: Style, hit: Style) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    let mut at = 0;
    for m in matches_in(text, needle) {
        if m.start > at {
            spans.push(Span::styled(text[at..m.start].to_string(), base));
        }
        spans.push(Span::styled(text[m.clone()].to_string(), hit));
        at = m.end;
    }
    if at < text.len() || spans.is_empty() {
        spans.push(Span::styled(text[at..].to_string(), base));
    }
    spans
}

/// A line with the places that hold `needle` in `hit` style (within each of its spans).
pub fn mark_line(line: Line<'static>, needle: &str, hit: Style) -> Line<'static> {
    let Line {
        spans,
        style,
        alignment,
    } = line;
    let spans: Vec<Span<'static>> = spans
        .into_iter()
        .flat_map(|s| marked(&s.content, needle, s.style, s.style.patch(hit)))
        .collect();
    let mut out = Line::from(spans).style(style);
    out.alignment = alignment;
    out
}

/// The prompt, in the hint bar's place: the text with the cursor, and how many events hold it.
pub fn draw_prompt(model: &Model, prompt: &FindPrompt, frame: &mut Frame, area: Rect) {
    let theme = &model.config.theme;
    let count = match (&model.events.find, &*prompt.back) {
        (_, Focus::Groups(_)) | (None, _) => String::new(),
        (Some(find), _) => format!(
            "   {} of {} shown",
            thousands(find.shown_hits),
            thousands(model.events.shown.len())
        ),
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
    let (text, cursor) = super::editor::visible(&prompt.input, width);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_are_found_in_any_case_even_where_lowercase_changes_the_length() {
        assert_eq!(matches_in("ICEDisconnected ice", "ice"), [0..3, 16..19]);
        assert_eq!(matches_in("aaaa", "aa"), [0..2, 2..4]);
        let turkish = matches_in("İstanbul", "i̇s");
        assert_eq!((turkish.len(), &turkish[0]), (1, &(0..3)));
        assert_eq!(matches_in("Zoë ZOË", "zoë"), [0..4, 5..9]);
        assert!(matches_in("abc", "").is_empty());
        let spans = marked("code 4006!", "4006", Style::new(), Style::new().bold());
        let texts: Vec<&str> = spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(texts, ["code ", "4006", "!"]);
    }
}
