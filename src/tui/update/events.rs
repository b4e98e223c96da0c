//! Changes to the events and the selection among them: a batch merged, a new filter, a new live
//! query, the selection moved, the next page asked for.

use crate::filter::Filter;
use crate::source::worker;
use crate::store::{Batch, Merged, Store};
use crate::tui::effect::Effect;
use crate::tui::model::{Fetch, Model};
use crate::tui::view::layout::list_height;

/// Merges a batch of events (a file's, a page's) and shows those that match; returns what the
/// store made of it.
pub fn append(model: &mut Model, batch: Batch) -> Merged {
    let events = &mut model.events;
    let merged = events.store.merge(batch);
    if merged.added > 0 {
        // New events may continue the selected event's chain.
        events.generation.store += 1;
        let new = events
            .store
            .matching(&events.filter, merged.first..merged.first + merged.added);
        if !new.is_empty() {
            events.shown.extend(new);
            events.generation.shown += 1;
        }
    }
    keep_selection_visible(model);
    merged
}

/// Changes the filter. For a live source, a change of what the API filters (types and ids) starts a
/// new query; the rest is applied to what is loaded.
pub fn set_filter(model: &mut Model, filter: Filter) -> Vec<Effect> {
    let new_query_needed = model.session.live.is_some()
        && crate::source::api::api_params(&filter)
            != crate::source::api::api_params(&model.events.filter);
    model.events.filter = filter;
    if new_query_needed {
        return new_query(model);
    }
    refilter(model);
    fetch_more_if_near_end(model)
}

/// Starts a new live query with the current filter, dropping what the old one loaded.
pub fn new_query(model: &mut Model) -> Vec<Effect> {
    let Some(live) = model.session.live.as_mut() else {
        return Vec::new();
    };
    live.query += 1;
    live.next = None;
    live.total = None;
    live.pages = 0;
    live.fetch = Fetch::Fetching { page: 1 };
    live.loading_all = false;
    live.refresh = false;
    live.complete = false;
    live.refetched = 0;
    let id = live.query;
    let events = &mut model.events;
    events.store = Store::new();
    events.shown.clear();
    events.selection = Default::default();
    events.generation.store += 1;
    events.generation.shown += 1;
    model.panes.detail.scroll = 0;
    if let Some(follow) = &mut model.session.follow {
        // What a new query loads is not "new" against the old query's events.
        follow.new_from = None;
        follow.new_events = 0;
        follow.refreshing = false;
    }
    vec![Effect::Worker(worker::Command::Query {
        id,
        filter: model.events.filter.clone(),
    })]
}

/// Recomputes the shown events after a filter change, keeping the selected event selected when it
/// is still shown (or the nearest one after it).
pub fn refilter(model: &mut Model) {
    let events = &mut model.events;
    let previous = events.selected();
    events.shown = events.store.filter(&events.filter);
    events.generation.shown += 1;
    events.selection.selected = match previous {
        Some(i) => match events.shown.binary_search(&(i as u32)) {
            Ok(k) | Err(k) => k.min(events.shown.len().saturating_sub(1)),
        },
        None => 0,
    };
    model.panes.detail.scroll = 0;
    keep_selection_visible(model);
}

/// Asks for the next page when the selection is within one screen of the end of what is loaded.
pub fn fetch_more_if_near_end(model: &mut Model) -> Vec<Effect> {
    let height = list_height(model).max(1);
    let near_end = model.events.selection.selected + height >= model.events.shown.len();
    match model.session.live.as_mut() {
        Some(live) if near_end && live.can_fetch_more() => {
            live.fetch = Fetch::Fetching {
                page: live.pages + 1,
            };
            vec![Effect::Worker(worker::Command::NextPage { id: live.query })]
        }
        _ => Vec::new(),
    }
}

/// Moves the list's selection by `delta` events (within the shown ones); a new selection starts
/// the detail pane at its top.
pub fn move_selection(model: &mut Model, delta: i64) {
    let events = &mut model.events;
    if events.shown.is_empty() {
        return;
    }
    let last = events.shown.len() as i64 - 1;
    let next = (events.selection.selected as i64)
        .saturating_add(delta)
        .clamp(0, last);
    if next as usize != events.selection.selected {
        events.selection.selected = next as usize;
        model.panes.detail.scroll = 0;
    }
    keep_selection_visible(model);
}

/// Scrolls the list so that the selected event is on screen, and no rows are left empty below
/// the last event when there are events above the first row.
pub fn keep_selection_visible(model: &mut Model) {
    let height = list_height(model).max(1);
    let events = &mut model.events;
    let sel = &mut events.selection;
    if sel.selected < sel.offset {
        sel.offset = sel.selected;
    } else if sel.selected >= sel.offset + height {
        sel.offset = sel.selected + 1 - height;
    }
    let max_offset = events.shown.len().saturating_sub(height);
    sel.offset = sel.offset.min(max_offset);
}
