//! The insight views: groups, a peer's story, facets and the timeline strip.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table};

use super::layout::{STORY_FIRST_ROW, TABLE_FIRST_ROW, TIMELINE_MIN_HEIGHT};
use super::list::TimeText;
use crate::event::EventType;
use crate::insight::GroupSort;
use crate::insight::{self, FACET_KEYS, clock, slot_type, sparkline_text};
use crate::output::status_word;
use crate::store::NO_TIME;
use crate::text::cut;
use crate::text::for_terminal;
use crate::tui::action::Command;
use crate::tui::keymap::Mode;
use crate::tui::model::{FacetPanel, Model, StoryLine};

fn short_time(ns: Option<i64>, time: TimeText) -> String {
    ns.map(|ns| time.seen(ns)).unwrap_or_else(|| "-".into())
}

/// The groups table, in the list's place.
pub fn draw_groups(model: &Model, frame: &mut Frame, area: Rect) {
    let Some(g) = &model.groups else { return };
    let sort = match g.sort {
        GroupSort::Count => "count",
        GroupSort::Last => "last seen",
    };
    let key = |c| model.keymap.key(Mode::Groups, c);
    let title = format!(
        " {} groups by {} · sorted by {sort} · {}: key, {}: sort, {}: its events ",
        g.groups.len(),
        g.key.name(),
        key(Command::NextGroupKey),
        key(Command::ToggleGroupSort),
        key(Command::Apply),
    );
    let block = Block::new()
        .borders(Borders::TOP)
        .border_style(model.theme.focused_border())
        .title(title);
    if g.groups.is_empty() {
        frame.render_widget(Paragraph::new(" no event is shown").block(block), area);
        return;
    }
    let height = area.height.saturating_sub(TABLE_FIRST_ROW) as usize;
    let end = (g.offset + height).min(g.groups.len());
    // The times carry their day when the loaded events span several.
    let time = TimeText::of(model.store.time_range());
    let shown = GroupColumn::fitting(area.width, g.name_width, time);
    let spark = GroupColumn::Sparkline.width(time) as usize;
    // The name takes what the other columns leave, and a cut one says so.
    let name_width = area
        .width
        .saturating_sub(shown.iter().map(|c| c.width(time) + 1).sum());
    let rows: Vec<Row> = (g.offset..end)
        .map(|k| {
            let group = g.groups.group(k);
            let label = for_terminal(&group.label(&model.store, g.key)).into_owned();
            let mut cells = vec![Cell::from(cut(&label, name_width.into()))];
            cells.extend(shown.iter().map(|column| match column {
                GroupColumn::Count => Cell::from(group.count.to_string()),
                GroupColumn::Final => Cell::from(Span::styled(
                    group.finals.to_string(),
                    model.theme.terminal(Some(group.finals > 0)),
                )),
                GroupColumn::FinalShare => {
                    Cell::from(format!("{:.0}%", group.final_share() * 100.0))
                }
                GroupColumn::Peers => Cell::from(group.peers.to_string()),
                GroupColumn::Rooms => Cell::from(group.rooms.to_string()),
                GroupColumn::First => Cell::from(short_time(group.first_seen, time)),
                GroupColumn::Last => Cell::from(short_time(group.last_seen, time)),
                GroupColumn::Sparkline => Cell::from(sparkline_text(&g.groups.sparkline(k, spark))),
            }));
            let row = Row::new(cells);
            if k == g.selected {
                row.style(model.theme.selected_row())
            } else {
                row
            }
        })
        .collect();
    let header = Row::new(std::iter::once("GROUP").chain(shown.iter().map(|c| c.title())))
        .style(model.theme.heading());
    let widths = std::iter::once(Constraint::Fill(1))
        .chain(shown.iter().map(|c| Constraint::Length(c.width(time))));
    frame.render_widget(Table::new(rows, widths).header(header).block(block), area);
}

/// The columns of the groups table after the group's name, in the order they are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GroupColumn {
    Count,
    Final,
    FinalShare,
    Peers,
    Rooms,
    First,
    Last,
    Sparkline,
}

/// The group's name is given at least this many columns (or its whole length, when shorter)
/// before any column gives way to it: below that, groups that differ only past the cut (two
/// errors of one type, two peers of one name) look the same.
const GROUP_NAME_ROOM: u16 = 44;

impl GroupColumn {
    const ALL: [GroupColumn; 8] = [
        GroupColumn::Count,
        GroupColumn::Final,
        GroupColumn::FinalShare,
        GroupColumn::Peers,
        GroupColumn::Rooms,
        GroupColumn::First,
        GroupColumn::Last,
        GroupColumn::Sparkline,
    ];

    /// The order in which columns give way to the group's name on a narrow screen: the
    /// sparkline first; how many peers and rooms an error reaches last; the count and the
    /// finals never.
    const GIVING_WAY: [GroupColumn; 6] = [
        GroupColumn::Sparkline,
        GroupColumn::First,
        GroupColumn::FinalShare,
        GroupColumn::Last,
        GroupColumn::Rooms,
        GroupColumn::Peers,
    ];

    fn title(self) -> &'static str {
        match self {
            GroupColumn::Count => "COUNT",
            GroupColumn::Final => "FINAL",
            GroupColumn::FinalShare => "FINAL%",
            GroupColumn::Peers => "PEERS",
            GroupColumn::Rooms => "ROOMS",
            GroupColumn::First => "FIRST",
            GroupColumn::Last => "LAST",
            GroupColumn::Sparkline => "OVER TIME",
        }
    }

    fn width(self, time: TimeText) -> u16 {
        match self {
            GroupColumn::Count => 7,
            GroupColumn::First | GroupColumn::Last => time.seen_width(),
            GroupColumn::Sparkline => 16,
            _ => 6,
        }
    }

    /// The columns drawn in a table `width` wide whose longest name on screen is `longest`:
    /// all of them when the name fits, else without those that give way first, until it does
    /// (or until only the count and the finals are left).
    fn fitting(width: u16, longest: usize, time: TimeText) -> Vec<GroupColumn> {
        let wanted = (longest.min(usize::from(GROUP_NAME_ROOM))) as u16;
        let mut shown = GroupColumn::ALL.to_vec();
        // Each column takes its width and one column of space before it.
        let room = |shown: &[GroupColumn]| {
            let taken: u16 = shown.iter().map(|c| c.width(time) + 1).sum();
            width.saturating_sub(taken)
        };
        for column in GroupColumn::GIVING_WAY {
            if room(&shown) >= wanted {
                break;
            }
            shown.retain(|&c| c != column);
        }
        shown
    }
}

/// A peer's story, in the list's place: each chain's summary, then its events.
pub fn draw_story(model: &Model, frame: &mut Frame, area: Rect) {
    let Some(s) = &model.story else { return };
    let store = &model.store;
    let first = s.story.events.first().map(|&i| store.row(i as usize));
    let user = first.map(|r| store.str(r.user_name)).unwrap_or("");
    let title = format!(
        " story of {} ({}) · {} events, {} chains, {} gave up · {}: back ",
        for_terminal(user),
        for_terminal(store.str(s.story.peer)),
        s.story.events.len(),
        s.story.chains.len(),
        s.story.gave_up(),
        model.keymap.key(Mode::Story, Command::Cancel),
    );
    let block = Block::new()
        .borders(Borders::TOP)
        .border_style(model.theme.focused_border())
        .title(title);
    let height = area.height.saturating_sub(STORY_FIRST_ROW) as usize;
    let end = (s.offset + height).min(s.lines.len());
    let width = area.width as usize;
    let lines: Vec<Line> = (s.offset..end)
        .map(|k| {
            let line = match s.lines[k] {
                StoryLine::Chain(c) => {
                    let chain = &s.story.chains[c];
                    let style = if chain.ending.gave_up() {
                        model.theme.terminal(Some(true))
                    } else {
                        model.theme.title()
                    };
                    Line::styled(cut(&for_terminal(&chain.summary(store)), width), style)
                }
                StoryLine::Outside => Line::styled(
                    "events in no chain (other families, or no time):",
                    model.theme.title(),
                ),
                StoryLine::Event(i) => {
                    let row = store.row(i as usize);
                    let kind = EventType::from_name(store.str(row.kind));
                    let time = if row.ts == NO_TIME {
                        "-".into()
                    } else {
                        crate::time::format_short(row.ts)
                    };
                    // The status before the error's name: on a narrow pane the end of the
                    // line is what goes, and which attempt was final must not.
                    Line::from(vec![
                        Span::raw(format!("   {time}  ")),
                        Span::styled(
                            format!("{:<10} ", kind.short()),
                            model.theme.event_type(&kind),
                        ),
                        Span::styled(
                            format!("{:<7} ", status_word(row.is_terminal())),
                            model.theme.terminal(row.is_terminal()),
                        ),
                        Span::raw(format!(
                            "{:<5} {}",
                            row.error_code().map(|c| c.to_string()).unwrap_or_default(),
                            cut(&for_terminal(store.str(row.error_name)), 22)
                        )),
                    ])
                }
            };
            if k == s.selected {
                line.style(model.theme.selected_row())
            } else {
                line
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// The top values of the agent and room fields, in the detail pane's place.
pub fn draw_facets(model: &Model, frame: &mut Frame, area: Rect, panel: &FacetPanel) {
    let title = panel.title.as_str();
    let block = Block::new()
        .borders(Borders::TOP | Borders::LEFT)
        .border_style(model.theme.border())
        .title(format!(" {} ", for_terminal(title)));
    let inner = block.inner(area);
    let facets = &panel.facets;
    let bar_width = 10usize;
    let mut lines = Vec::new();
    for (facet, key) in facets.iter().zip(FACET_KEYS) {
        lines.push(Line::styled(
            format!("{} ({} distinct)", key.name(), facet.distinct),
            model.theme.title(),
        ));
        for (k, (value, count)) in facet.top.iter().enumerate() {
            let share = facet.share(k);
            let filled = (share * bar_width as f64).round() as usize;
            let label = cut(
                &for_terminal(&value.label(&model.store, key)),
                (inner.width as usize).saturating_sub(26).max(8),
            );
            lines.push(Line::from(vec![
                Span::styled(
                    format!("{:<w$}", "█".repeat(filled), w = bar_width),
                    model.theme.key(),
                ),
                Span::raw(format!(" {:>3.0}% {:>7} ", share * 100.0, count)),
                Span::raw(label),
            ]));
        }
        lines.push(Line::raw(""));
    }
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// `n` events, in words: "1 event", "2 events".
fn events(n: u64) -> String {
    if n == 1 {
        "1 event".to_string()
    } else {
        format!("{n} events")
    }
}

/// The timeline strip: one column per bucket, its height the bucket's count, its colour the
/// type most counted in it; a red mark under buckets holding final errors.
pub fn draw_timeline(model: &Model, frame: &mut Frame, area: Rect) {
    let Some(tl) = &model.timeline else { return };
    let focused = model.mode == Mode::Timeline;
    let block = Block::new()
        .borders(Borders::TOP | Borders::BOTTOM)
        .border_style(if focused {
            model.theme.focused_border()
        } else {
            model.theme.border()
        })
        .title({
            let key = |c| model.keymap.key(Mode::Timeline, c);
            // Too few lines for the bars: said where it shows, rather than an empty strip.
            if area.height < TIMELINE_MIN_HEIGHT {
                format!(
                    " timeline · too few lines to draw: make the terminal taller · {}: hide ",
                    key(Command::ToggleTimeline),
                )
            } else {
                format!(
                    " timeline · {} per column · {}/{} move, {}: mark, {}: show the range · {}: hide ",
                    tl.timeline.step_label(),
                    key(Command::Left),
                    key(Command::Right),
                    key(Command::MarkStart),
                    key(Command::Apply),
                    key(Command::ToggleTimeline),
                )
            }
        });
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if inner.height < 3 || tl.timeline.buckets.is_empty() {
        return;
    }
    let bars = inner.height - 2;
    let peak = tl.timeline.peak().max(1);
    let (lo, hi) = match tl.anchor {
        Some(a) => (a.min(tl.cursor), a.max(tl.cursor)),
        None => (tl.cursor, tl.cursor),
    };
    let buf = frame.buffer_mut();
    for (x, bucket) in tl
        .timeline
        .buckets
        .iter()
        .enumerate()
        .take(inner.width as usize)
    {
        let total = bucket.total();
        let dominant = (0..insight::TYPE_SLOTS)
            .max_by_key(|&s| bucket.by_type[s])
            .unwrap_or(0);
        let kind = slot_type(dominant).unwrap_or(EventType::Other(String::new()));
        let mut style = model.theme.event_type(&kind);
        if focused && (lo..=hi).contains(&x) {
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
        if bucket.finals > 0 {
            buf[(inner.x + x as u16, inner.y + bars)]
                .set_symbol("▴")
                .set_style(model.theme.terminal(Some(true)));
        }
    }
    let cursor = tl.timeline.buckets.get(tl.cursor);
    let info = match (cursor, tl.timeline.range(lo, hi)) {
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
                " {} to {}: {}, {} final{}",
                crate::time::format_short(since),
                // The end's date too when it is another day's.
                if since.div_euclid(insight::DAY) == until.div_euclid(insight::DAY) {
                    clock(until)
                } else {
                    crate::time::format_short(until)
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
    };
    frame.render_widget(
        Paragraph::new(Line::styled(info, Style::new())),
        Rect::new(inner.x, inner.y + bars + 1, inner.width, 1),
    );
}
