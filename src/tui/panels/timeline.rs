//! The timeline strip above the list: the shown events counted per bucket of time, a cursor and
//! a range to filter on. The strip stays open when the keyboard leaves it.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders};

use super::help::HelpPanel;
use super::{Focus, Handled};
use crate::event::EventType;
use crate::filter::TimeBound;
use crate::insight::{self, Timeline, slot_type};
use crate::time::Zone;
use crate::tui::action::Command;
use crate::tui::keymap::Mode;
use crate::tui::model::{Events, Model, Screen};
use crate::tui::update::events::keep_selection_visible;
use crate::tui::update::history::{self, Return};
use crate::tui::view::layout::{TIMELINE_MIN_HEIGHT, areas_with};

/// The timeline strip: its buckets for the shown events, a cursor and an optional range start.
#[derive(Debug, Clone)]
pub struct TimelineStrip {
    pub timeline: Timeline,
    pub cursor: usize,
    pub anchor: Option<usize>,
    /// The generation of the shown events and the number of buckets the timeline was counted
    /// for.
    counted_for: (u64, usize),
}

impl TimelineStrip {
    /// The strip as it opens: counted for the shown events, the cursor on the selected event's
    /// bucket (or the last one).
    fn open(events: &Events, buckets: usize) -> TimelineStrip {
        let mut strip = TimelineStrip {
            timeline: Timeline::default(),
            cursor: 0,
            anchor: None,
            counted_for: (0, 0),
        };
        strip.count(events, buckets);
        let ts = events.selected().map(|i| events.store.row(i).ts);
        let at = ts.and_then(|ts| strip.timeline.bucket_at(ts));
        strip.cursor = at.unwrap_or(strip.timeline.buckets.len().saturating_sub(1));
        strip
    }

    /// The buckets of the marked range, first and last: from the mark to the cursor, or the
    /// cursor's bucket alone.
    pub fn marked(&self) -> (usize, usize) {
        match self.anchor {
            Some(anchor) => (anchor.min(self.cursor), anchor.max(self.cursor)),
            None => (self.cursor, self.cursor),
        }
    }

    /// Counts the timeline again when the shown events or the strip's width changed (a column
    /// per bucket, so a wider strip has shorter buckets).
    pub fn refresh(&mut self, events: &Events, buckets: usize) {
        if self.counted_for != (events.generation.shown, buckets) {
            self.count(events, buckets);
        }
    }

    fn count(&mut self, events: &Events, buckets: usize) {
        // The cursor and the mark stay on the times they were on, in the new buckets.
        let start = |k: usize| self.timeline.buckets.get(k).map(|b| b.start);
        let (cursor_at, anchor_at) = (start(self.cursor), self.anchor.and_then(start));
        self.timeline = Timeline::compute(&events.store, &events.matching, buckets);
        self.counted_for = (events.generation.shown, buckets);
        let last = self.timeline.buckets.len().saturating_sub(1);
        let timeline = &self.timeline;
        let at = |ts: Option<i64>, k: usize| {
            ts.and_then(|ts| timeline.bucket_at(ts))
                .unwrap_or(k)
                .min(last)
        };
        self.cursor = at(cursor_at, self.cursor);
        self.anchor = self.anchor.map(|a| at(anchor_at, a));
    }
}

/// How many buckets the strip has room for on this screen: a column each, inside its border.
pub fn buckets_for(screen: Screen) -> usize {
    let strip = areas_with(screen.width, screen.height, true).timeline;
    strip.width.saturating_sub(2).max(1) as usize
}

/// `T` from the list or the detail pane: the strip opens, if it is closed, and takes the
/// keyboard.
pub fn open(model: &mut Model) -> Handled {
    if model.panes.timeline.is_none() {
        let strip = TimelineStrip::open(&model.events, buckets_for(model.screen));
        model.panes.timeline = Some(strip);
        keep_selection_visible(model);
    }
    Handled::to(Focus::Timeline)
}

/// A command with the keyboard on the strip.
pub fn handle(model: &mut Model, c: Command) -> Handled {
    // The keyboard is on the strip only while it is open: `open` and `click` give it the
    // keyboard, and closing it takes the keyboard back to the list.
    let Some(tl) = &mut model.panes.timeline else {
        return Handled::to(Focus::List);
    };
    match c {
        Command::Left => tl.cursor = tl.cursor.saturating_sub(1),
        Command::Right => {
            tl.cursor = (tl.cursor + 1).min(tl.timeline.buckets.len().saturating_sub(1))
        }
        Command::MarkStart => {
            tl.anchor = match tl.anchor {
                Some(_) => None,
                None => Some(tl.cursor),
            }
        }
        Command::Apply => {
            let (a, b) = tl.marked();
            let range = tl.timeline.range(a, b);
            if range.is_some() {
                tl.anchor = None;
            }
            return show_range(model, range);
        }
        Command::Cancel => return Handled::to(Focus::List),
        Command::ToggleTimeline => {
            model.panes.timeline = None;
            keep_selection_visible(model);
            return Handled::to(Focus::List);
        }
        Command::ToggleHelp => return Handled::to(Focus::Help(HelpPanel::over(Focus::Timeline))),
        _ => return Handled::Unused(Focus::Timeline),
    }
    Handled::to(Focus::Timeline)
}

/// Enter on the strip: the list shows the events of the marked range (or of the bucket), from
/// `since` to `until`.
fn show_range(model: &mut Model, range: Option<(i64, i64)>) -> Handled {
    let Some((since, until)) = range else {
        return Handled::to(Focus::List);
    };
    let bound = |nanos: i64| TimeBound {
        text: crate::time::format_nanos(nanos),
        nanos,
    };
    let mut filter = model.events.filter.clone();
    filter.since = Some(bound(since));
    filter.until = Some(bound(until));
    let from = Return::list(model);
    Handled::Done(Focus::List, history::change(model, filter, from))
}

/// A click on the strip, `x` columns from its left: the cursor goes to that bucket and the
/// keyboard to the strip. The groups and a story keep the keyboard: the strip's keys would act
/// on the list they cover.
pub fn click(model: &mut Model, x: u16) {
    if matches!(model.focus, Focus::Groups(_) | Focus::Story(_)) {
        return;
    }
    let width = areas_with(model.screen.width, model.screen.height, true)
        .timeline
        .width as usize;
    if let Some(tl) = &mut model.panes.timeline {
        let k = bucket_at_column(x as usize, tl.timeline.buckets.len(), width);
        if k < tl.timeline.buckets.len() {
            tl.cursor = k;
        }
        model.focus = Focus::Timeline;
    }
}

/// `n` events, in words: "1 event", "2 events".
fn events(n: u64) -> String {
    crate::text::plural(n as usize, "event", "events")
}

/// The columns bucket `k` of `n` takes in a strip `width` columns wide: the buckets share the
/// whole width, each a column or more.
fn columns_of(k: usize, n: usize, width: usize) -> std::ops::Range<usize> {
    let n = n.max(1);
    (k * width).div_ceil(n)..((k + 1) * width).div_ceil(n)
}

/// The bucket of `n` drawn in column `x` of a strip `width` columns wide.
fn bucket_at_column(x: usize, n: usize, width: usize) -> usize {
    if width <= n { x } else { x * n / width }
}

/// The time axis under the bars: the start of every bucket that begins a round stretch of
/// time, as far apart as their labels need (`HH:MM`, with seconds when the buckets are
/// shorter than a minute, `MM-DD` for days). Returns (column, label) pairs, the labels in
/// `zone` (the buckets stay where UTC's round stretches start: in a zone half an hour off,
/// they read `17:30`).
pub fn axis_labels(timeline: &Timeline, width: usize, zone: Zone) -> Vec<(usize, String)> {
    let n = timeline.buckets.len();
    if n == 0 || timeline.step <= 0 {
        return Vec::new();
    }
    let step = timeline.step;
    let format = if step >= insight::DAY {
        "%m-%d"
    } else if step < 60 * 1_000_000_000 {
        "%H:%M:%S"
    } else {
        "%H:%M"
    };
    let label_width = if format == "%H:%M:%S" { 8 } else { 5 };
    // The shortest round stretch whose labels leave at least three columns between them.
    let per_bucket = width.max(n) as f64 / n as f64;
    let rounds = insight::BUCKET_STEPS
        .iter()
        .copied()
        .chain([2, 7, 14, 28, 56, 112].map(|d| d * insight::DAY));
    let Some(every) = rounds
        .filter(|r| r % step == 0)
        .find(|r| (r / step) as f64 * per_bucket >= (label_width + 3) as f64)
    else {
        return Vec::new();
    };
    let mut labels = Vec::new();
    for (k, bucket) in timeline.buckets.iter().enumerate() {
        if bucket.start.rem_euclid(every) != 0 {
            continue;
        }
        let x = if width <= n {
            k
        } else {
            columns_of(k, n, width).start
        };
        if x + label_width > width {
            break;
        }
        let text = chrono::DateTime::<chrono::Utc>::from_timestamp_nanos(zone.shift(bucket.start))
            .format(format)
            .to_string();
        labels.push((x, text));
    }
    labels
}

/// The timeline strip: the buckets' bars across its whole width, each as tall as the bucket's
/// count and coloured by the type most counted in it; a red mark under buckets holding final
/// errors; the time axis under them; the cursor's bucket (or the marked range) in the bottom
/// border.
pub fn draw(model: &Model, tl: &TimelineStrip, frame: &mut Frame, area: Rect) {
    let theme = &model.config.theme;
    let focused = matches!(model.focus, Focus::Timeline);
    let (lo, hi) = tl.marked();
    let key = |c| model.config.keymap.key(Mode::Timeline, c);
    let closes: Vec<String> = model
        .config
        .keymap
        .bindings_for(Mode::Timeline)
        .filter(|b| b.command() == Command::ToggleTimeline)
        .flat_map(|b| b.keys.iter().map(crate::tui::keymap::Key::label))
        .collect();
    let closes = closes.join("/");
    let zone = model.panes.zone;
    // The zone the axis and the cursor's times are in, as the header names it.
    let zone_label = zone.label(model.events.store.time_range().map_or(0, |(_, z)| z));
    let width = usize::from(area.width);
    let block = Block::new()
        .borders(Borders::TOP | Borders::BOTTOM)
        .border_style(if focused {
            theme.focused_border()
        } else {
            theme.border()
        })
        .title(crate::text::cut(&{
            // Too few lines for the bars: said where it shows, rather than an empty strip.
            if area.height < TIMELINE_MIN_HEIGHT {
                format!(
                    " timeline · too few lines to draw: make the terminal taller · {closes}: close ",
                )
            } else if !focused {
                // The list has the keyboard (after Enter showed a range): the strip's own keys
                // do nothing until it has it again.
                format!(
                    " timeline {zone_label} · {} per bar · {}: back to the strip ",
                    tl.timeline.step_label(),
                    model.config.keymap.key(Mode::List, Command::ToggleTimeline),
                )
            } else {
                format!(
                    " timeline {zone_label} · {} per bar · {}/{} move, {}: mark, {}: show · {closes}: close ",
                    tl.timeline.step_label(),
                    key(Command::Left),
                    key(Command::Right),
                    key(Command::MarkStart),
                    key(Command::Apply),
                )
            }
        }, width));
    // A strip too short for its bars has no bottom border of its own to write in.
    let block = if area.height < TIMELINE_MIN_HEIGHT {
        block
    } else {
        block.title_bottom(Line::styled(
            crate::text::cut(&cursor_words(tl, lo, hi, zone), width),
            Style::new(),
        ))
    };
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if inner.height < 3 || tl.timeline.buckets.is_empty() {
        return;
    }
    let bars = inner.height - 2;
    let peak = tl.timeline.peak().max(1);
    let n = tl.timeline.buckets.len();
    let width = inner.width as usize;
    let buf = frame.buffer_mut();
    for x in 0..width.min(n.max(width)) {
        let k = bucket_at_column(x, n, width);
        let Some(bucket) = tl.timeline.buckets.get(k) else {
            break;
        };
        let total = bucket.total();
        let dominant = (0..insight::TYPE_SLOTS)
            .max_by_key(|&s| bucket.by_type[s])
            .unwrap_or(0);
        let kind = slot_type(dominant).unwrap_or(EventType::Other(String::new()));
        let mut style = theme.event_type(&kind);
        if focused && (lo..=hi).contains(&k) {
            style = style.add_modifier(Modifier::REVERSED);
        }
        // Eighths of a row, so small counts still show.
        let eighths = (u64::from(total) * u64::from(bars) * 8).div_ceil(u64::from(peak)) as u16;
        for row in 0..bars {
            let filled = eighths.saturating_sub(row * 8).min(8);
            let symbol = match filled {
                0 => " ",
                1 => "▁",
                2 => "▂",
                3 => "▃",
                4 => "▄",
                5 => "▅",
                6 => "▆",
                7 => "▇",
                _ => "█",
            };
            let y = inner.y + bars - 1 - row;
            buf[(inner.x + x as u16, y)]
                .set_symbol(symbol)
                .set_style(style);
        }
        // Under every column of the bucket, as its bar is: a bucket two columns wide has no
        // gap under it to read as a stretch without final errors.
        if bucket.finals > 0 {
            buf[(inner.x + x as u16, inner.y + bars)]
                .set_symbol("▴")
                .set_style(theme.terminal(Some(true)));
        }
    }
    let axis_y = inner.y + bars + 1;
    for (x, label) in axis_labels(&tl.timeline, width, zone) {
        buf.set_string(inner.x + x as u16, axis_y, label, theme.label());
    }
}

/// The bottom border's words: the cursor's bucket or the marked range (its times in `zone`),
/// its events and finals.
fn cursor_words(tl: &TimelineStrip, lo: usize, hi: usize, zone: Zone) -> String {
    let cursor = tl.timeline.buckets.get(tl.cursor);
    match (cursor, tl.timeline.range(lo, hi)) {
        (Some(b), Some((since, until))) => {
            let (total, finals): (u64, u64) = if lo == hi {
                (b.total().into(), b.finals.into())
            } else {
                let buckets = &tl.timeline.buckets[lo..=hi];
                (
                    buckets.iter().map(|b| u64::from(b.total())).sum(),
                    buckets.iter().map(|b| u64::from(b.finals)).sum(),
                )
            };
            format!(
                " {} to {}: {}, {} final{} ",
                crate::time::format_short(zone.shift(since)),
                // The end's date too when it is another day's.
                if zone.shift(since).div_euclid(insight::DAY)
                    == zone.shift(until).div_euclid(insight::DAY)
                {
                    zone.clock(until)
                } else {
                    crate::time::format_short(zone.shift(until))
                },
                events(total),
                finals,
                if tl.timeline.untimed > 0 {
                    format!(" · {} without a time", events(tl.timeline.untimed as u64))
                } else {
                    String::new()
                }
            )
        }
        _ => String::new(),
    }
}
