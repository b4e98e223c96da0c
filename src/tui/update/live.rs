//! The live source's part of `update`: the fetch task's reports, loading every page, running
//! the query again, and follow mode.

use super::events::{append, fetch_more_if_near_end, keep_place, new_query, replace_store};
use crate::source::worker::{self, Report};
use crate::tui::action::Command;
use crate::tui::effect::Effect;
use crate::tui::keymap::Mode;
use crate::tui::model::{Fetch, Follow, Model};
use crate::tui::panels::{Focus, rooms};
use crate::tui::rooms_used::{self, UsedRoom};

/// A report of the live fetch task; those of an older query are dropped.
pub fn report(model: &mut Model, report: Report) -> Vec<Effect> {
    let query = match &report {
        Report::Fetching { query, .. }
        | Report::Retrying { query, .. }
        | Report::Page { query, .. }
        | Report::Finished { query }
        | Report::Failed { query, .. }
        | Report::Restarted { query, .. }
        | Report::InFlight { query, .. }
        | Report::Tally { query, .. } => *query,
    };
    let Some(live) = model.session.live.as_mut().filter(|l| l.query == query) else {
        // A report of an older query: its results no longer apply.
        return Vec::new();
    };
    match report {
        Report::Fetching { page, .. } => live.fetch = Fetch::Fetching { page },
        Report::Retrying { retry, .. } => {
            live.fetch = Fetch::Retrying {
                attempt: retry.attempt,
                wait_secs: retry.wait.as_secs_f64().ceil() as u64,
                gives_up: retry.gives_up_at,
                reason: retry.reason,
                until: retry.at + retry.wait,
                asked: retry.asked,
            }
        }
        Report::InFlight { requests, .. } => live.requests = requests,
        // The explorer shows how far the load got from its own counts, and keeps the query's
        // cursor for a save of part of the answer; failures that did not matter (every event
        // arrived all the same) are said until the user does something else.
        Report::Tally { tally, .. } => {
            // A refresh that has had no page of its own yet has no cursor to tell (a failure
            // of its first request is tallied so): the one the last load left stays.
            let own = !(live.refresh && live.pages == 0);
            if own || !tally.next.is_empty() {
                live.cursor = tally.next;
            }
            if !tally.redundant.is_empty() {
                model.status = Some(format!(
                    "note: {}",
                    crate::source::live::not_needed_note(&tally.redundant)
                ));
            }
        }
        Report::Page { page, .. } => {
            live.pages += 1;
            live.total = page.total.or(live.total);
            live.next = Some(page.next);
            live.fetch = Fetch::Idle;
            let refresh = live.refresh;
            if live.replacing {
                let place = replace_store(model);
                if let Some(live) = model.session.live.as_mut() {
                    live.pending = Some(place);
                }
                answered(model);
            }
            let merged = append(model, *page.batch);
            find_pending(model);
            if refresh && let Some(live) = model.session.live.as_mut() {
                live.refetched += merged.duplicates;
            }
            let mut effects: Vec<Effect> = remember_room(model).into_iter().collect();
            // A refresh's page, even one on its way when `A` stopped the refresh: its new
            // events counted, and no further page asked for (a refresh brings mostly events
            // loaded already, so the list's end would ask again page after page).
            if refresh {
                follow_page(model, merged.added);
                return effects;
            }
            if model.session.live.as_ref().is_some_and(|l| !l.loading_all) {
                effects.extend(fetch_more_if_near_end(model));
            }
            return effects;
        }
        Report::Finished { .. } => {
            live.fetch = Fetch::Done;
            live.complete = true;
            live.loading_all = false;
            live.pending = None;
            if live.replacing {
                // An answer with no page: nothing matches now.
                replace_store(model);
                answered(model);
            }
            follow_end(model, false);
            return super::related::ask_room(model);
        }
        Report::Restarted { message, .. } => {
            // The loading goes on from the query's first page: said until the user does
            // something else.
            model.status = Some(message);
        }
        Report::Failed { message, .. } => {
            // The old query's events stay, under the failure's message.
            live.fetch = Fetch::Failed(message);
            live.loading_all = false;
            live.replacing = false;
            live.pending = None;
            follow_end(model, true);
            answered(model);
        }
    }
    Vec::new()
}

/// What the status line says while a query run again with `R` waits for its answer.
const RERUNNING: &str = "running the query again: these rows stay until its answer arrives";

/// The query run again was answered, or failed: the message that the old rows wait for its
/// answer goes (one written since stays).
fn answered(model: &mut Model) {
    if model.status.as_deref() == Some(RERUNNING) {
        model.status = None;
    }
}

/// The room of the query, to be remembered for the room prompt of later runs, once events of
/// it were loaded (once a run): with the name its events give it, else the name it was chosen
/// by.
fn remember_room(model: &mut Model) -> Option<Effect> {
    let id = model.events.filter.room()?.to_string();
    let store = &model.events.store;
    if store.is_empty() {
        return None;
    }
    let live = model.session.live.as_mut()?;
    if live.remembered.as_deref() == Some(id.as_str()) {
        return None;
    }
    let named = store.rows().iter().find_map(|row| {
        let name = row.room_name;
        (!name.is_none() && store.str(row.room_id) == id).then(|| store.str(name).to_string())
    });
    let chosen = live
        .chosen
        .as_ref()
        .filter(|(chosen, _)| *chosen == id)
        .and_then(|(_, name)| name.clone());
    let room = UsedRoom {
        id: id.clone(),
        name: named.or(chosen),
        base_url: live.url.clone(),
        used_at: live.clock.unix,
    };
    live.remembered = Some(id);
    rooms_used::add(&mut live.rooms_used, room.clone());
    Some(Effect::RememberRoom(room))
}

/// After an update: opens the room prompt when a query without a room was asked for (or a
/// room's name no loaded event gives was named), unless it is open.
pub fn ask_room(model: &mut Model) -> Vec<Effect> {
    let Some(typed) = model.session.live.as_mut().and_then(|l| l.ask_room.take()) else {
        return Vec::new();
    };
    if matches!(model.focus, Focus::Rooms(_)) {
        return Vec::new();
    }
    rooms::open(model, &typed)
}

/// The runtime's clock ticked: the header's waits and countdowns count from the new time.
pub fn tick(model: &mut Model, clock: crate::tui::model::Clock) {
    if let Some(live) = model.session.live.as_mut() {
        live.clock = clock;
    }
}

/// Whether the header shows something that counts with the clock: a request on its way or a
/// wait before a retry.
pub fn counting(model: &Model) -> bool {
    model.session.live.as_ref().is_some_and(|l| {
        !l.requests.is_empty() || matches!(l.fetch, Fetch::Fetching { .. } | Fetch::Retrying { .. })
    })
}

/// Looks for the event selected before a new query's answer replaced the old events among
/// what has come of the new one; found, it is selected on the line it was on.
fn find_pending(model: &mut Model) {
    let Some(place) = model.session.live.as_mut().and_then(|l| l.pending.take()) else {
        return;
    };
    if !keep_place(model, &place, false)
        && let Some(live) = model.session.live.as_mut()
    {
        live.pending = Some(place);
    }
}

/// `R`: runs the live query again (the API snapshots results at the first query); from files,
/// says that there is nothing to run. `mode` is where the key was pressed, to name it.
pub fn rerun(model: &mut Model, mode: Mode) -> Vec<Effect> {
    if model.session.live.is_some() {
        model.status = Some(RERUNNING.into());
        return new_query(model);
    }
    model.status = Some(format!(
        "{} re-runs live queries; these events come from files",
        model.config.keymap.key(mode, Command::Rerun)
    ));
    Vec::new()
}

/// `A`: loads every page of the query, or stops doing so.
pub fn load_all(model: &mut Model) -> Vec<Effect> {
    let Some(live) = model.session.live.as_mut() else {
        model.status = Some("every event of these files is already loaded".into());
        return Vec::new();
    };
    let id = live.query;
    if live.fetch == Fetch::NoRoom {
        model.status = Some(format!("no room chosen: {}", rooms::HOW_TO_CHOOSE));
        return Vec::new();
    }
    if live.loading_all {
        live.loading_all = false;
        model.status = Some("stopped loading every page".into());
        // A follow mode refresh stopped ends there (no last page will say it ended): the next
        // one runs in its time.
        if model.session.follow.as_ref().is_some_and(|f| f.refreshing) {
            follow_end(model, false);
            model.status =
                Some("stopped this refresh; follow mode runs the next in its time".into());
        }
        return vec![Effect::Worker(worker::Command::Stop { id })];
    }
    if live.next.as_deref() == Some("") {
        model.status = Some("every matching event is loaded".into());
        return Vec::new();
    }
    live.loading_all = true;
    if matches!(live.fetch, Fetch::Failed(_) | Fetch::Done) {
        live.fetch = Fetch::Idle;
    }
    vec![Effect::Worker(worker::Command::LoadAll { id })]
}

/// `W`: follow mode on or off.
pub fn toggle_follow(model: &mut Model) -> Vec<Effect> {
    if model.session.live.is_none() {
        model.status = Some("follow mode needs a live source (--live)".into());
        return Vec::new();
    }
    let session = &mut model.session;
    session.follow = match session.follow {
        Some(_) => None,
        None => Some(Follow::new(model.config.follow_every)),
    };
    if session.follow.is_none() {
        model.status = Some("follow mode off".into());
    }
    Vec::new()
}

/// Follow mode's timer fired: run the query again, keeping what is loaded; the pages that bring
/// new events are merged by id and marked new.
pub fn follow_tick(model: &mut Model) -> Vec<Effect> {
    let session = &mut model.session;
    let (Some(follow), Some(live)) = (session.follow.as_mut(), session.live.as_mut()) else {
        return Vec::new();
    };
    if follow.refreshing
        || matches!(
            live.fetch,
            Fetch::Fetching { .. } | Fetch::Retrying { .. } | Fetch::NoRoom
        )
    {
        return Vec::new();
    }
    follow.refreshing = true;
    // Until the query was loaded whole once, a refresh also brings old events never loaded:
    // it completes what is loaded, and marks and counts nothing.
    if live.complete && follow.new_from.is_none() {
        follow.new_from = Some(model.events.store.len());
    }
    live.query += 1;
    // A refresh of a query loaded whole misses nothing. Of one never loaded whole, what is
    // missing (and the cursor of the rest, which a save writes) stays as the last load left it
    // until the refresh's own pages tell.
    if live.complete {
        live.next = None;
        live.cursor.clear();
    }
    live.pages = 0;
    live.requests.clear();
    live.fetch = Fetch::Fetching { page: 1 };
    live.loading_all = true;
    live.refresh = true;
    let id = live.query;
    let mut effects = vec![
        Effect::Worker(worker::Command::Query {
            id,
            filter: model.events.filter.clone(),
        }),
        Effect::Worker(worker::Command::LoadAll { id }),
    ];
    // The room's sessions with each run: who joined since is what tells a new failure's verdict.
    effects.extend(super::related::ask_sessions(model));
    effects
}

/// After a refresh's page: count what is new. The refresh runs to the query's end: the service
/// promises no order, so new events may be on any page, and a page of known ones proves nothing
/// (with one cursor per type, it may be the one type that had nothing new).
fn follow_page(model: &mut Model, added: usize) {
    let Some(follow) = model.session.follow.as_mut() else {
        return;
    };
    if follow.new_from.is_some() {
        follow.new_events += added;
    }
    follow.failures = 0;
}

/// A refresh ended (the last page, or a failure that makes the next wait longer).
fn follow_end(model: &mut Model, failed: bool) {
    if let Some(follow) = model.session.follow.as_mut().filter(|f| f.refreshing) {
        follow.refreshing = false;
        if failed {
            follow.failures += 1;
        }
    }
}
