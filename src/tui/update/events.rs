//! Changes to the events and the selection among them: a batch merged, a new filter, a new
//! order, a new live query, the selection moved, the next page asked for. Whatever changes, the
//! user keeps their place: the selected event stays selected, on the same line of the screen.

use crate::filter::Filter;
use crate::insight::Order;
use crate::source::worker;
use crate::store::{Batch, Merged, Store};
use crate::tui::effect::Effect;
use crate::tui::model::{Fetch, Model, Place, event_id};
use crate::tui::view::layout::list_height;

/// The place in `shown` of the event of this id, if it is shown.
fn find_id(store: &Store, shown: &[u32], id: &str) -> Option<usize> {
    let quoted = serde_json::to_string(id).ok()?;
    shown.iter().position(|&i| {
        let i = i as usize;
        match store.id_written(i) {
            // The id as located when the event was read; one written with an escape is read.
            Some(written) if !written.contains(&b'\\') => written == quoted.as_bytes(),
            _ => event_id(store, i).as_deref() == Some(id),
        }
    })
}

/// Puts the selection back where the user was after the shown events changed (new events, a
/// new store): on the first event when it was there, on the last when it was there and follow
/// mode is on, else on the same event (found by its row in the same store, by its id in a new
/// one) on the same line of the screen. An event no longer shown leaves the selection where it
/// was, within the list. Returns whether the place was found.
pub fn keep_place(model: &mut Model, place: &Place, same_store: bool) -> bool {
    let following = model.session.follow.is_some();
    let events = &mut model.events;
    let len = events.shown.len();
    let sel = &mut events.selection;
    let found = if place.at_top {
        Some(0)
    } else if place.at_bottom && following {
        Some(len.saturating_sub(1))
    } else if same_store {
        place
            .row
            .and_then(|row| events.shown.iter().position(|&i| i == row))
    } else {
        place
            .id
            .as_deref()
            .and_then(|id| find_id(&events.store, &events.shown, id))
    };
    let kept = found.is_some();
    match found {
        Some(k) => {
            if k != sel.selected || !same_store {
                model.panes.detail.scroll = 0;
            }
            sel.selected = k;
            sel.offset = k.saturating_sub(place.line);
        }
        None => sel.selected = sel.selected.min(len.saturating_sub(1)),
    }
    keep_selection_visible(model);
    kept
}

/// Merges a batch of events (a file's, a page's) and shows those that match, in the order in
/// force; returns what the store made of it.
pub fn append(model: &mut Model, batch: Batch) -> Merged {
    let place = Place::of(model);
    let events = &mut model.events;
    let started = std::time::Instant::now();
    let merged = events.store.merge(batch);
    let merged_in = started.elapsed();
    if merged.added > 0 {
        // New events may continue the selected event's chain.
        events.generation.store += 1;
        events.index.extend(&events.store);
        let new = events
            .store
            .matching(&events.filter, merged.first..merged.first + merged.added);
        if !new.is_empty() {
            events.matching.extend_from_slice(&new);
            events.index.add(
                &events.store,
                events.order,
                &mut events.shown,
                &events.matching,
                &new,
            );
            events.generation.shown += 1;
        }
    }
    keep_place(model, &place, true);
    // Beside each frame's `update_ms`: what one batch of a load costs the UI thread.
    tracing::trace!(
        merge_ms = merged_in.as_secs_f64() * 1e3,
        shown_ms = (started.elapsed() - merged_in).as_secs_f64() * 1e3,
        added = merged.added,
        "batch"
    );
    merged
}

/// Changes the filter. For a live source, a change of what the API filters (types and ids) starts a
/// new query; the rest is applied to what is loaded.
pub fn set_filter(model: &mut Model, filter: Filter) -> Vec<Effect> {
    let new_query_needed = model.session.live.is_some()
        && crate::source::api::api_params(&filter)
            != crate::source::api::api_params(&model.events.filter);
    model.events.filter = filter;
    // What is loaded is shown through the new filter at once: for a new query, until its
    // answer replaces it.
    refilter(model);
    if new_query_needed {
        return new_query(model);
    }
    fetch_more_if_near_end(model)
}

/// Shows the events in another order, the selected event staying selected on its line.
pub fn set_order(model: &mut Model, order: Order) {
    let place = Place::of(model);
    let events = &mut model.events;
    events.order = order;
    events
        .index
        .arrange_into(&events.store, order, &events.matching, &mut events.shown);
    // At the top of the list the selection stays at the top (`O` shows the newest event
    // there); anywhere else the selected event stays selected.
    keep_place(
        model,
        &Place {
            at_bottom: false,
            ..place
        },
        true,
    );
}

/// Starts a new live query with the current filter. What the old one loaded stays on screen
/// until the new one answers (see [`replace_store`]).
pub fn new_query(model: &mut Model) -> Vec<Effect> {
    let Some(live) = model.session.live.as_mut() else {
        return Vec::new();
    };
    if model.events.filter.room().is_none() {
        // The API refuses a query without a room: none is sent, and the room prompt asks for
        // one. Reports of the older query no longer apply.
        live.query += 1;
        live.requests.clear();
        live.fetch = Fetch::NoRoom;
        live.loading_all = false;
        live.replacing = false;
        live.pending = None;
        live.ask_room = Some(String::new());
        if let Some(follow) = &mut model.session.follow {
            follow.refreshing = false;
        }
        return Vec::new();
    }
    live.query += 1;
    live.requests.clear();
    live.next = None;
    live.cursor.clear();
    live.total = None;
    live.pages = 0;
    live.fetch = Fetch::Fetching { page: 1 };
    live.loading_all = false;
    live.refresh = false;
    live.complete = false;
    live.refetched = 0;
    live.replacing = true;
    let id = live.query;
    if let Some(follow) = &mut model.session.follow {
        // What a new query loads is not "new" against the old query's events.
        follow.new_from = None;
        follow.new_events = 0;
        follow.refreshing = false;
    }
    let mut effects = vec![Effect::Worker(worker::Command::Query {
        id,
        filter: model.events.filter.clone(),
    })];
    effects.extend(super::related::ask_sessions(model));
    effects
}

/// The first answer of a new live query arrived: the old query's events make way for the new
/// store, and the selection finds its event again there (by id).
pub fn replace_store(model: &mut Model) -> Place {
    let place = Place::of(model);
    let events = &mut model.events;
    events.store = Store::new();
    events.index.clear();
    // The text found is looked for again in the new store's events.
    events.find = events
        .find
        .take()
        .map(|f| crate::tui::panels::find::Find::lazy(&f.text));
    if let crate::tui::panels::Focus::Find(prompt) = &mut model.focus {
        prompt.events_replaced();
    }
    events.matching.clear();
    events.shown.clear();
    events.generation.store += 1;
    events.generation.shown += 1;
    if let Some(live) = model.session.live.as_mut() {
        live.replacing = false;
    }
    place
}

/// Recomputes the shown events after a filter change, keeping the selected event selected when it
/// is still shown (or the next one in the order), on its line of the screen.
pub fn refilter(model: &mut Model) {
    let mut lap = crate::time::Lap::new(std::time::Instant::now());
    let place = Place::of(model);
    let events = &mut model.events;
    events.matching = events.store.filter(&events.filter);
    let filter_ms = lap.split();
    let at = events.index.arrange_around(
        &events.store,
        events.order,
        &events.matching,
        place.row,
        &mut events.shown,
    );
    let arrange_ms = lap.split();
    events.generation.shown += 1;
    let last = events.shown.len().saturating_sub(1);
    let selected = at.unwrap_or(last).min(last);
    let sel = &mut events.selection;
    sel.selected = selected;
    sel.offset = selected.saturating_sub(place.line);
    model.panes.detail.scroll = 0;
    keep_selection_visible(model);
    tracing::trace!(filter_ms, arrange_ms, rest_ms = lap.split(), "refiltered");
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
    select(model, next as usize);
}

/// Selects the shown event at `k`, scrolling the list to it. The user chose a place: an event
/// selected before a new query is no longer looked for.
pub fn select(model: &mut Model, k: usize) {
    if let Some(live) = model.session.live.as_mut() {
        live.pending = None;
    }
    let sel = &mut model.events.selection;
    if k != sel.selected {
        sel.selected = k;
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
