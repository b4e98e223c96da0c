//! Filter changes as steps the user can take back. Every change of the filter, from any view,
//! goes on the back stack with where the user was; `u` (or Backspace) takes the last one back
//! and returns there: to the groups view on the group that was selected, or to the list on the
//! event that was selected. `x` clears the filters set in the explorer, and again those of the
//! command line and profile.

use crate::filter::{Condition, Filter};
use crate::insight::{GroupKey, GroupSort};
use crate::tui::effect::Effect;
use crate::tui::model::{Model, Place};
use crate::tui::panels::Focus;
use crate::tui::panels::groups::GroupsPanel;

use super::events::{keep_place, set_filter};

/// How many filter changes can be taken back.
const DEPTH: usize = 200;

/// A filter change, to take back: the filter before it, and where the user was.
#[derive(Debug, Clone)]
pub struct Step {
    pub filter: Filter,
    pub from: Return,
    /// The store's generation when the change was made: the selected event is found by its
    /// row in the same store, by its id in another.
    pub store: u64,
}

/// Where the user goes back to.
#[derive(Debug, Clone)]
pub enum Return {
    /// The list, on this event.
    List(Place),
    /// The groups view, by this key and order, on this group (found again by its conditions,
    /// else by its place).
    Groups {
        key: GroupKey,
        sort: GroupSort,
        selected: usize,
        offset: usize,
        group: Vec<Condition>,
    },
}

impl Return {
    /// The list, where the user is now.
    pub fn list(model: &Model) -> Return {
        Return::List(Place::of(model))
    }

    /// The groups view as it is now.
    pub fn groups(model: &Model, g: &GroupsPanel) -> Return {
        let group = g
            .groups
            .get(g.selected)
            .map(|group| g.key.conditions(&model.events.store, &group.value))
            .unwrap_or_default();
        Return::Groups {
            key: g.key,
            sort: g.sort,
            selected: g.selected,
            offset: g.offset,
            group,
        }
    }
}

/// Changes the filter, as a step that can be taken back to `from`. A filter equal to the one in
/// force changes nothing and is no step.
pub fn change(model: &mut Model, filter: Filter, from: Return) -> Vec<Effect> {
    if filter == model.events.filter {
        return Vec::new();
    }
    let step = Step {
        filter: model.events.filter.clone(),
        from,
        store: model.events.generation.store,
    };
    let back = &mut model.events.back;
    if back.len() == DEPTH {
        back.remove(0);
    }
    back.push(step);
    set_filter(model, filter)
}

/// `u`: takes the last filter change back, and goes back to where it was made. Returns the
/// focus that follows (`here` when there is nothing to take back).
pub fn undo(model: &mut Model, here: Focus) -> (Focus, Vec<Effect>) {
    let Some(step) = model.events.back.pop() else {
        model.status = Some("no filter change to take back".into());
        return (here, Vec::new());
    };
    let undone = describe_change(&step.filter, &model.events.filter);
    let same_store = step.store == model.events.generation.store;
    let effects = set_filter(model, step.filter);
    model.status = Some(format!("took back: {undone}"));
    let focus = match step.from {
        Return::List(place) => {
            keep_place(
                model,
                &Place {
                    at_top: false,
                    at_bottom: false,
                    ..place
                },
                same_store,
            );
            match here {
                // The keyboard stays where it is in the list's panes.
                Focus::Detail | Focus::Timeline | Focus::Facets(_) => here,
                _ => Focus::List,
            }
        }
        Return::Groups {
            key,
            sort,
            selected,
            offset,
            group,
        } => Focus::Groups(GroupsPanel::reopen(
            model, key, sort, selected, offset, &group,
        )),
    };
    (focus, effects)
}

/// `x`: clears the filters set in the explorer, back to those of the command line and the
/// profile, and says which those are; when only those are left, clears them too (a live query
/// keeps its room: the service answers a room's events only), and with none left does nothing.
/// A step that can be taken back.
pub fn clear(model: &mut Model, from: Return) -> Vec<Effect> {
    let start = model.config.start_filter.clone();
    let current = model.events.filter.clone();
    let mut none = Filter::default();
    let live_room = model
        .session
        .live
        .as_ref()
        .and(current.room())
        .map(str::to_string);
    if let Some(room) = &live_room {
        none.set(crate::event::Field::Room, Some(room.clone()));
    }
    // Cleared already: x never puts back the command line's filters it cleared.
    if none == current {
        model.status = Some(match live_room {
            Some(room) => format!("only the room is left, which a live query needs: room={room}"),
            None => "no filter to clear".to_string(),
        });
        return Vec::new();
    }
    if current != start {
        let effects = change(model, start.clone(), from);
        model.status = Some(if start.is_empty() {
            "cleared every filter".to_string()
        } else {
            format!(
                "cleared the filters set here; kept those of the command line and profile: {} \
                 ({} again clears them)",
                start.describe(),
                model.config.keymap.key(
                    crate::tui::keymap::Mode::List,
                    crate::tui::action::Command::ClearFilters
                )
            )
        });
        return effects;
    }
    let effects = change(model, none, from);
    model.status = Some(match live_room {
        Some(room) => format!(
            "cleared the command line's filters too, but for the room a live query needs: room={room}"
        ),
        None => "cleared every filter, the command line's too".to_string(),
    });
    effects
}

/// What a change from `before` to `after` undid, in words: the parts that differ.
fn describe_change(before: &Filter, after: &Filter) -> String {
    let parts = |f: &Filter| -> Vec<String> {
        let text = f.describe();
        if text == "none" {
            Vec::new()
        } else {
            text.split("  ").map(str::to_string).collect()
        }
    };
    let (was, is) = (parts(before), parts(after));
    let removed: Vec<&String> = is.iter().filter(|p| !was.contains(p)).collect();
    let restored: Vec<&String> = was.iter().filter(|p| !is.contains(p)).collect();
    let mut words = Vec::new();
    if !removed.is_empty() {
        words.push(
            removed
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(" "),
        );
    }
    if !restored.is_empty() {
        words.push(format!(
            "back to {}",
            restored
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }
    if words.is_empty() {
        "the last filter change".to_string()
    } else {
        words.join("; ")
    }
}
