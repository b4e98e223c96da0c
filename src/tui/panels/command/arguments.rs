//! The arguments of the commands that name a room or a time: a room by its id or by a name the
//! loaded events give it, and a time of day or a date and time to go to.

use super::super::editor::with_field;
use crate::event::Field;
use crate::tui::model::Model;

/// The filter with a room: an id as it is; a name the loaded events give a room, that room's id
/// (or its name, when several rooms have it). `!` hides it.
pub(super) fn room_filter(model: &Model, arg: &str) -> Result<crate::filter::Filter, String> {
    let (negate, value) = match arg.strip_prefix('!') {
        Some(rest) => (true, rest.trim()),
        None => (false, arg),
    };
    if value.is_empty() {
        return with_field(&model.events.filter, Field::Room, "");
    }
    let store = &model.events.store;
    let bang = if negate { "!" } else { "" };
    let escaped = value.replace('\\', "\\\\").replace(',', "\\,");
    if store
        .strings()
        .lookup(value)
        .is_some_and(|sym| store.rows().iter().any(|r| r.room_id == sym))
    {
        return with_field(
            &model.events.filter,
            Field::Room,
            &format!("{bang}{escaped}"),
        );
    }
    // A name: the ids of the rooms that have it, in any case.
    let ids = crate::insight::room_ids_named(store, value);
    match ids.as_slice() {
        [id] => with_field(
            &model.events.filter,
            Field::Room,
            &format!("{bang}{}", id.replace('\\', "\\\\").replace(',', "\\,")),
        ),
        // Live, a room's id the query may bring events of.
        [] if model.session.live.is_some()
            && crate::source::api::rooms::looks_like_room_id(value) =>
        {
            with_field(
                &model.events.filter,
                Field::Room,
                &format!("{bang}{escaped}"),
            )
        }
        [] if model.session.live.is_some() => Err(format!(
            "no loaded event names a room {value:?}: give its id"
        )),
        // An id of a room none of the loaded events is in: its events may come.
        [] => with_field(
            &model.events.filter,
            Field::Room,
            &format!("{bang}{escaped}"),
        ),
        _ => with_field(
            &model.events.filter,
            Field::RoomName,
            &format!("{bang}{escaped}"),
        ),
    }
}

/// The time `:goto` names: a time of day (`10:02`, `10:02:30`, in the zone the times are shown
/// in, on the day of the selected event), or a date and time (RFC 3339, or `2026-11-18 10:02`).
pub(super) fn goto_time(model: &Model, arg: &str) -> Result<i64, String> {
    let arg = arg.trim();
    if arg.is_empty() {
        return Err("give a time, such as 10:02 or 2026-11-18T10:02:00Z".into());
    }
    if let Some(ns) = crate::time::parse_rfc3339_nanos(arg) {
        return Ok(ns);
    }
    let zone = model.panes.zone;
    let parse = |s: &str| -> Option<i64> {
        let mut parts = s.split(':');
        let h: i64 = parts.next()?.parse().ok()?;
        let m: i64 = parts.next()?.parse().ok()?;
        let sec: f64 = parts.next().map_or(Some(0.0), |p| p.parse().ok())?;
        (parts.next().is_none() && (0..24).contains(&h) && (0..60).contains(&m) && sec < 61.0)
            .then(|| (h * 3600 + m * 60) * 1_000_000_000 + (sec * 1e9) as i64)
    };
    const DAY: i64 = 86_400_000_000_000;
    // A date and a time of day, or a time of day on the selected event's day.
    let (day, clock) = match arg.split_once([' ', 'T']) {
        Some((date, clock)) => {
            let midnight = crate::time::parse_rfc3339_nanos(&format!("{date}T00:00:00Z"))
                .ok_or_else(|| format!("{date:?} is not a date (YYYY-MM-DD)"))?;
            (midnight, clock)
        }
        None => {
            let at = model
                .selected_event()
                .map(|i| model.events.store.row(i).ts)
                .filter(|&ts| ts != crate::store::NO_TIME)
                .or_else(|| model.events.store.time_range().map(|(a, _)| a))
                .ok_or("no loaded event has a time")?;
            (zone.shift(at).div_euclid(DAY) * DAY, arg)
        }
    };
    let since_midnight = parse(clock)
        .ok_or_else(|| format!("{clock:?} is not a time of day (HH:MM or HH:MM:SS)"))?;
    let wall = day + since_midnight;
    // The wall clock back to UTC, with the zone's offset at about that time.
    Ok(wall - (zone.shift(wall) - wall))
}

/// The shown event at or after `target` in time, the nearest to it (the last before it when
/// none is after).
pub(super) fn nearest_after(model: &Model, target: i64) -> Option<usize> {
    let events = &model.events;
    let ts = |k: usize| events.store.row(events.shown[k] as usize).ts;
    let after = (0..events.shown.len())
        .filter(|&k| ts(k) >= target)
        .min_by_key(|&k| (ts(k), k));
    after.or_else(|| {
        (0..events.shown.len())
            .filter(|&k| ts(k) != crate::store::NO_TIME)
            .max_by_key(|&k| (ts(k), std::cmp::Reverse(k)))
    })
}
