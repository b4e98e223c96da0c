//! The insight views' part of `update`: groups, a peer's story, the timeline, facets, the filter
//! stack and follow mode.

use super::{Effect, keep_selection_visible, list_height, set_filter};
use crate::filter::TimeBound;
use crate::insight::{self, Groups, Timeline};
use crate::insight::{GroupKey, GroupSort};
use crate::source::worker;
use crate::tui::action::Command;
use crate::tui::keymap::Mode;
use crate::tui::model::{
    FacetPanel, FacetSource, Fetch, Follow, GroupsView, Model, StoryLine, StoryView, TimelineView,
};
use crate::tui::view::layout::{STORY_FIRST_ROW, TABLE_FIRST_ROW, areas_of};

/// Whether a command moves a selection (or scrolls).
pub(super) fn moves(c: Command) -> bool {
    matches!(
        c,
        Command::Up
            | Command::Down
            | Command::PageUp
            | Command::PageDown
            | Command::Top
            | Command::Bottom
    )
}

/// Handles the commands of the insight views; `None` leaves the command to the list's update.
pub fn command(model: &mut Model, c: Command, page: usize) -> Option<Vec<Effect>> {
    match (model.mode, c) {
        (Mode::Groups, c) if moves(c) => {
            if let Some(g) = &mut model.groups {
                g.selected = moved(g.selected, g.groups.len(), c, page);
                g.offset = visible_offset(g.selected, g.offset, page);
            }
        }
        (Mode::Story, c) if moves(c) => {
            if let Some(s) = &mut model.story {
                s.selected = moved(s.selected, s.lines.len(), c, page);
                if s.lines.get(s.selected) == Some(&StoryLine::Outside) {
                    s.selected = moved(
                        s.selected,
                        s.lines.len(),
                        if c == Command::Up {
                            Command::Up
                        } else {
                            Command::Down
                        },
                        page,
                    );
                }
                s.offset = visible_offset(s.selected, s.offset, page);
                model.detail_scroll = 0;
            }
        }
        (Mode::Groups, Command::Apply) => return Some(open_group(model)),
        (Mode::Timeline, Command::Apply) => return Some(apply_range(model)),
        (Mode::Groups, Command::Cancel | Command::ShowGroups) => {
            model.groups = None;
            model.mode = Mode::List;
        }
        (Mode::Story, Command::Cancel) => {
            let back = model.story.take().map_or(Mode::List, |s| s.back_to);
            model.mode = back;
            model.detail_scroll = 0;
        }
        (Mode::Timeline, Command::Cancel) => model.mode = Mode::List,
        (_, Command::ShowGroups) => {
            open_groups(model, GroupKey::Error, GroupSort::Count);
        }
        (Mode::Groups, Command::NextGroupKey | Command::PrevGroupKey) => {
            if let Some(g) = &model.groups {
                let k = GroupKey::ALL.iter().position(|k| *k == g.key).unwrap_or(0);
                let n = GroupKey::ALL.len();
                let next = if c == Command::NextGroupKey {
                    (k + 1) % n
                } else {
                    (k + n - 1) % n
                };
                let sort = g.sort;
                open_groups(model, GroupKey::ALL[next], sort);
            }
        }
        (Mode::Groups, Command::ToggleGroupSort) => {
            if let Some(g) = &mut model.groups {
                g.sort = match g.sort {
                    GroupSort::Count => GroupSort::Last,
                    GroupSort::Last => GroupSort::Count,
                };
                // The selected group stays selected, on the same row of the screen when it
                // can: a new order does not lose the user's place.
                let selected = g.groups.get(g.selected);
                let row = g.selected.saturating_sub(g.offset);
                g.groups.sort(&model.store, g.sort);
                g.selected = selected
                    .and_then(|group| g.groups.position(&group.value))
                    .unwrap_or(0);
                // Nor does it leave the page half empty at the end of the list.
                g.offset = visible_offset(g.selected, g.selected.saturating_sub(row), page)
                    .min(g.groups.len().saturating_sub(page));
            }
        }
        (_, Command::ShowStory) => open_story(model),
        (_, Command::ToggleFacets) => model.facets = !model.facets,
        (_, Command::ToggleTimeline) => {
            if model.timeline.is_some() && model.mode == Mode::Timeline {
                model.timeline = None;
                model.mode = Mode::List;
            } else {
                if model.timeline.is_none() {
                    model.timeline = Some(TimelineView {
                        timeline: Timeline::default(),
                        cursor: 0,
                        anchor: None,
                    });
                    refresh(model);
                    let ts = model.selected_event().map(|i| model.store.row(i).ts);
                    if let Some(tl) = &mut model.timeline {
                        let at = ts.and_then(|ts| tl.timeline.bucket_at(ts));
                        tl.cursor = at.unwrap_or(tl.timeline.buckets.len().saturating_sub(1));
                    }
                }
                model.mode = Mode::Timeline;
            }
            keep_selection_visible(model);
        }
        (Mode::Timeline, Command::Left | Command::Right) => {
            if let Some(tl) = &mut model.timeline {
                let last = tl.timeline.buckets.len().saturating_sub(1);
                tl.cursor = if c == Command::Left {
                    tl.cursor.saturating_sub(1)
                } else {
                    (tl.cursor + 1).min(last)
                };
            }
        }
        (Mode::Timeline, Command::MarkStart) => {
            if let Some(tl) = &mut model.timeline {
                tl.anchor = match tl.anchor {
                    Some(_) => None,
                    None => Some(tl.cursor),
                };
            }
        }
        (_, Command::PopFilter) => match model.filter_stack.pop() {
            Some(previous) => return Some(set_filter(model, previous)),
            None => model.status = Some("no earlier filter to go back to".into()),
        },
        (_, Command::ToggleFollow) => return Some(toggle_follow(model)),
        _ => return None,
    }
    Some(Vec::new())
}

/// The wheel over the list's place: moves the groups' or the story's selection when one of
/// them is there; `false` leaves the wheel to the list.
pub fn wheel(model: &mut Model, step: i64) -> bool {
    let page = list_height(model).max(1);
    if let Some(g) = &mut model.groups {
        g.selected = shifted(g.selected, g.groups.len(), step);
        g.offset = visible_offset(g.selected, g.offset, page);
        return true;
    }
    if let Some(s) = &mut model.story {
        let mut selected = shifted(s.selected, s.lines.len(), step);
        if s.lines.get(selected) == Some(&StoryLine::Outside) {
            // The heading of the events outside chains holds no event: step over it.
            let past = shifted(selected, s.lines.len(), step.signum());
            selected = if past == selected {
                shifted(selected, s.lines.len(), -step.signum())
            } else {
                past
            };
        }
        if selected != s.selected {
            s.selected = selected;
            model.detail_scroll = 0;
        }
        s.offset = visible_offset(s.selected, s.offset, page);
        return true;
    }
    false
}

/// A click in the list's place, `row` lines below its top: selects the group or the story line
/// under the pointer; `false` leaves the click to the list.
pub fn click_list(model: &mut Model, row: u16) -> bool {
    if let Some(g) = &mut model.groups {
        model.mode = Mode::Groups;
        if let Some(k) = row.checked_sub(TABLE_FIRST_ROW) {
            let k = g.offset + k as usize;
            if k < g.groups.len() {
                g.selected = k;
            }
        }
        return true;
    }
    if let Some(s) = &mut model.story {
        model.mode = Mode::Story;
        if let Some(k) = row.checked_sub(STORY_FIRST_ROW) {
            let k = s.offset + k as usize;
            let holds_event = s.lines.get(k).is_some_and(|l| *l != StoryLine::Outside);
            if holds_event && k != s.selected {
                s.selected = k;
                model.detail_scroll = 0;
            }
        }
        return true;
    }
    false
}

/// A click on the timeline strip, `x` columns from its left: the cursor goes to that bucket
/// and the keyboard to the strip. The groups and a story keep the keyboard: the strip's keys
/// would act on the list they cover.
pub fn click_timeline(model: &mut Model, x: u16) {
    if model.groups.is_some() || model.story.is_some() {
        return;
    }
    if let Some(tl) = &mut model.timeline {
        if (x as usize) < tl.timeline.buckets.len() {
            tl.cursor = x as usize;
        }
        model.mode = Mode::Timeline;
    }
}

/// `selected` moved by `step` within `0..len`.
fn shifted(selected: usize, len: usize, step: i64) -> usize {
    let last = len.saturating_sub(1) as i64;
    (selected as i64).saturating_add(step).clamp(0, last.max(0)) as usize
}

/// A selection moved by a command, within `0..len`.
fn moved(selected: usize, len: usize, c: Command, page: usize) -> usize {
    let last = len.saturating_sub(1);
    match c {
        Command::Up => selected.saturating_sub(1),
        Command::Down => (selected + 1).min(last),
        Command::PageUp => selected.saturating_sub(page),
        Command::PageDown => (selected + page).min(last),
        Command::Top => 0,
        _ => last,
    }
}

fn visible_offset(selected: usize, offset: usize, height: usize) -> usize {
    if selected < offset {
        selected
    } else if selected >= offset + height {
        selected + 1 - height
    } else {
        offset
    }
}

fn open_groups(model: &mut Model, key: GroupKey, sort: GroupSort) {
    let old = model.groups.take().map(|g| g.groups).unwrap_or_default();
    let groups = Groups::recompute(old, &model.store, &model.shown, key, sort);
    model.groups = Some(GroupsView::new(&model.store, groups, key, sort));
    model.mode = Mode::Groups;
}

/// Enter on a group: the list shows its events; Backspace goes back to the filter before.
fn open_group(model: &mut Model) -> Vec<Effect> {
    let Some(g) = model.groups.take() else {
        return Vec::new();
    };
    model.mode = Mode::List;
    let Some(group) = g.groups.get(g.selected) else {
        return Vec::new();
    };
    let mut filter = model.filter.clone();
    for condition in g.key.conditions(&model.store, &group.value) {
        filter.require(condition);
    }
    model.filter_stack.push(model.filter.clone());
    set_filter(model, filter)
}

/// Enter on the timeline: the list shows the events of the marked range (or of the bucket).
fn apply_range(model: &mut Model) -> Vec<Effect> {
    model.mode = Mode::List;
    let Some(tl) = &model.timeline else {
        return Vec::new();
    };
    let (a, b) = match tl.anchor {
        Some(anchor) => (anchor.min(tl.cursor), anchor.max(tl.cursor)),
        None => (tl.cursor, tl.cursor),
    };
    let Some((since, until)) = tl.timeline.range(a, b) else {
        return Vec::new();
    };
    let bound = |nanos: i64| TimeBound {
        text: crate::time::format_nanos(nanos),
        nanos,
    };
    let mut filter = model.filter.clone();
    filter.since = Some(bound(since));
    filter.until = Some(bound(until));
    model.filter_stack.push(model.filter.clone());
    if let Some(tl) = &mut model.timeline {
        tl.anchor = None;
    }
    set_filter(model, filter)
}

fn open_story(model: &mut Model) {
    let Some(i) = model.focused_event() else {
        return;
    };
    let peer = model.store.row(i).peer_id;
    if peer.is_none() {
        model.status = Some("this event has no peer_id: it belongs to no peer's story".into());
        return;
    }
    let story = insight::story(&model.store, peer);
    let mut lines = Vec::new();
    for (c, chain) in story.chains.iter().enumerate() {
        lines.push(StoryLine::Chain(c));
        lines.extend(chain.events.iter().map(|&e| StoryLine::Event(e)));
    }
    let outside: Vec<u32> = story
        .events
        .iter()
        .zip(&story.chain_of)
        .filter(|(_, c)| c.is_none())
        .map(|(&e, _)| e)
        .collect();
    if !outside.is_empty() {
        lines.push(StoryLine::Outside);
        lines.extend(outside.into_iter().map(StoryLine::Event));
    }
    let selected = lines
        .iter()
        .position(|l| *l == StoryLine::Event(i as u32))
        .unwrap_or(0);
    let back_to = if model.mode == Mode::Story {
        Mode::List
    } else {
        model.mode
    };
    let height = list_height(model).max(1);
    model.story = Some(StoryView {
        story,
        lines,
        selected,
        offset: selected.saturating_sub(height / 2),
        back_to,
    });
    model.mode = Mode::Story;
    model.detail_scroll = 0;
}

fn toggle_follow(model: &mut Model) -> Vec<Effect> {
    if model.live.is_none() {
        model.status = Some("follow mode needs a live source (--live)".into());
        return Vec::new();
    }
    model.follow = match model.follow {
        Some(_) => None,
        None => Some(Follow::new(model.follow_every)),
    };
    if model.follow.is_none() {
        model.status = Some("follow mode off".into());
    }
    Vec::new()
}

/// Follow mode's timer fired: run the query again, keeping what is loaded; the pages that bring
/// new events are merged by id and marked new.
pub fn follow_tick(model: &mut Model) -> Vec<Effect> {
    let (Some(follow), Some(live)) = (model.follow.as_mut(), model.live.as_mut()) else {
        return Vec::new();
    };
    if follow.refreshing || matches!(live.fetch, Fetch::Fetching { .. } | Fetch::Retrying { .. }) {
        return Vec::new();
    }
    follow.refreshing = true;
    // Until the query was loaded whole once, a refresh also brings old events never loaded:
    // it completes what is loaded, and marks and counts nothing.
    if live.complete && follow.new_from.is_none() {
        follow.new_from = Some(model.store.len());
    }
    live.query += 1;
    live.next = None;
    live.pages = 0;
    live.fetch = Fetch::Fetching { page: 1 };
    live.loading_all = true;
    live.refresh = true;
    let id = live.query;
    vec![
        Effect::Worker(worker::Command::Query {
            id,
            filter: model.filter.clone(),
        }),
        Effect::Worker(worker::Command::LoadAll { id }),
    ]
}

/// After a refresh's page: count what is new. The refresh runs to the query's end: the service
/// promises no order, so new events may be on any page, and a page of known ones proves nothing
/// (with one cursor per type, it may be the one type that had nothing new).
pub fn follow_page(model: &mut Model, added: usize) -> Vec<Effect> {
    let Some(follow) = model.follow.as_mut() else {
        return Vec::new();
    };
    if !follow.refreshing {
        return Vec::new();
    }
    if follow.new_from.is_some() {
        follow.new_events += added;
    }
    follow.failures = 0;
    Vec::new()
}

/// A refresh ended (the last page, or a failure that makes the next wait longer).
pub fn follow_end(model: &mut Model, failed: bool) {
    if let Some(follow) = model.follow.as_mut().filter(|f| f.refreshing) {
        follow.refreshing = false;
        if failed {
            follow.failures += 1;
        }
    }
}

/// Recomputes the open views after the shown events changed.
pub fn refresh(model: &mut Model) {
    if let Some(g) = &mut model.groups {
        let old = std::mem::take(&mut g.groups);
        g.groups = Groups::recompute(old, &model.store, &model.shown, g.key, g.sort);
        g.measure(&model.store);
        g.selected = g.selected.min(g.groups.len().saturating_sub(1));
    }
    refit_timeline(model);
}

/// Counts the open timeline again for the strip's width: after the shown events changed, or the
/// terminal's size (a column per bucket, so a wider strip has shorter buckets).
pub fn refit_timeline(model: &mut Model) {
    if model.timeline.is_some() {
        let a = areas_of(model);
        // Two columns of the strip are its border.
        let buckets = a.timeline.width.saturating_sub(2).max(1) as usize;
        if let Some(tl) = &mut model.timeline {
            // The cursor and the mark stay on the times they were on, in the new buckets.
            let start = |k: usize| tl.timeline.buckets.get(k).map(|b| b.start);
            let (cursor_at, anchor_at) = (start(tl.cursor), tl.anchor.and_then(start));
            tl.timeline = Timeline::compute(&model.store, &model.shown, buckets);
            let last = tl.timeline.buckets.len().saturating_sub(1);
            let at = |ts: Option<i64>, k: usize| {
                ts.and_then(|ts| tl.timeline.bucket_at(ts))
                    .unwrap_or(k)
                    .min(last)
            };
            tl.cursor = at(cursor_at, tl.cursor);
            tl.anchor = tl.anchor.map(|a| at(anchor_at, a));
        }
    }
}

/// Counts the facets again when what the detail pane's facets count has changed (the selected
/// group, the shown events), and drops them when neither the groups view nor the facets are open.
pub fn refresh_facets(model: &mut Model) {
    let source = match &model.groups {
        Some(g) if g.selected < g.groups.len() => Some(FacetSource::Group(
            g.key,
            g.sort,
            g.selected,
            model.shown.len(),
            model.filter.clone(),
        )),
        _ if model.facets => Some(FacetSource::Shown(
            model.shown.len(),
            model.store.len(),
            model.filter.clone(),
        )),
        _ => None,
    };
    let Some(source) = source else {
        model.facet_panel = None;
        return;
    };
    if model
        .facet_panel
        .as_ref()
        .is_some_and(|p| p.source == source)
    {
        return;
    }
    let (title, members): (String, &[u32]) = match (&source, &model.groups) {
        (FacetSource::Group(..), Some(g)) => {
            let group = g.groups.group(g.selected);
            (
                format!("facets of {}", group.label(&model.store, g.key)),
                g.groups.members(g.selected),
            )
        }
        _ => ("facets of the shown events".to_string(), &model.shown),
    };
    let facets = insight::facets(&model.store, members, 5);
    model.facet_panel = Some(FacetPanel {
        title,
        facets,
        source,
    });
}
