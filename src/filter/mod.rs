//! The filter as data: which events to show, with one meaning for every source. For the live API
//! the types and the wanted room, session, peer and user travel as query parameters; all of it is
//! also applied to what is loaded, through the one predicate of [`Plan`].

mod plan;

pub use plan::{Cond, Plan, Record, Want};

use crate::event::{EventType, Field};

/// A time bound as the user wrote it, and what it resolved to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeBound {
    pub text: String,
    pub nanos: i64,
}

#[cfg(test)]
impl TimeBound {
    /// The bound an RFC 3339 time written as `text` resolves to (for tests).
    pub fn rfc3339(text: &str) -> TimeBound {
        TimeBound {
            text: text.into(),
            nanos: crate::time::parse_rfc3339_nanos(text).expect("an RFC 3339 time"),
        }
    }
}

/// One field's value that an event must have, or, negated, must not have.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Condition {
    pub field: Field,
    /// The value as text (a number's digits for `error_code`); `None` stands for an event
    /// without the field.
    pub value: Option<String>,
    /// Keep the events that do not have the value (hide those that do).
    pub negate: bool,
}

impl Condition {
    /// The field must have `value`.
    pub fn is(field: Field, value: impl Into<String>) -> Condition {
        Condition {
            field,
            value: Some(value.into()),
            negate: false,
        }
    }

    /// The field must not have `value` (`None`: must be present).
    pub fn not(field: Field, value: Option<String>) -> Condition {
        Condition {
            field,
            value,
            negate: true,
        }
    }

    /// `room=R`, `sdk!=web`, `role=(none)`.
    pub fn describe(&self) -> String {
        let value = self.value.as_deref().unwrap_or(crate::text::NONE);
        let op = if self.negate { "!=" } else { "=" };
        format!("{}{op}{value}", self.field.name())
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// Any of these types; empty means every type.
    pub types: Vec<EventType>,
    /// Every one of these holds, in [`Condition`]'s order (by field, then value), each once.
    pub conditions: Vec<Condition>,
    /// `Some(true)`: only final errors (`--terminal`); `Some(false)`: only retried ones (`--retried`).
    pub terminal: Option<bool>,
    pub search: Option<String>,
    pub since: Option<TimeBound>,
    pub until: Option<TimeBound>,
    /// Values hidden whole: an event for which every condition of one of these holds is left
    /// out. A value of two fields (an SDK and its version, an error's type, name and code) is
    /// hidden this way, where negating each of its conditions would hide more.
    pub hidden: Vec<Vec<Condition>>,
}

impl Filter {
    pub fn is_empty(&self) -> bool {
        *self == Filter::default()
    }

    /// The filter with `field` required to be `value` (see [`Filter::set`]).
    pub fn with(mut self, field: Field, value: impl Into<String>) -> Filter {
        self.set(field, Some(value.into()));
        self
    }

    /// Requires `field` to be `value`, in place of any value required of it before; `None`
    /// removes the requirement. Values hidden stay hidden.
    pub fn set(&mut self, field: Field, value: Option<String>) {
        self.conditions.retain(|c| c.field != field || c.negate);
        if let Some(value) = value {
            self.add(Condition::is(field, value));
        }
    }

    /// Adds a condition that a field has a value (or none), in place of the value required of
    /// it before.
    pub fn require(&mut self, condition: Condition) {
        self.conditions
            .retain(|c| c.field != condition.field || c.negate);
        self.add(condition);
    }

    /// Adds a condition where it belongs in the order, unless it is there already.
    pub fn add(&mut self, condition: Condition) {
        if let Err(at) = self.conditions.binary_search(&condition) {
            self.conditions.insert(at, condition);
        }
    }

    /// Hides the events that have every one of these values (see [`Filter::hidden`]): one
    /// condition is added negated; several are hidden together. Each value is hidden once.
    pub fn hide(&mut self, conditions: Vec<Condition>) {
        match conditions.as_slice() {
            [] => {}
            [one] => self.add(Condition {
                negate: !one.negate,
                ..one.clone()
            }),
            _ => {
                let mut conditions = conditions;
                conditions.sort();
                conditions.dedup();
                if !self.hidden.contains(&conditions) {
                    self.hidden.push(conditions);
                }
            }
        }
    }

    /// The value `field` is required to have, when one is (not a hidden one).
    pub fn wanted(&self, field: Field) -> Option<&str> {
        self.conditions
            .iter()
            .find(|c| c.field == field && !c.negate)
            .and_then(|c| c.value.as_deref())
    }

    /// The required room id (`--room`).
    pub fn room(&self) -> Option<&str> {
        self.wanted(Field::Room)
    }

    /// The required error code (`--code`).
    pub fn code(&self) -> Option<i64> {
        self.wanted(Field::Code).and_then(|c| c.parse().ok())
    }

    /// Whether events of the type are shown: it is selected (an empty selection selects every
    /// type), and no condition on the type rules it out (`type=client.join.failed` from a group
    /// of errors, `!join` from the filter editor).
    pub fn has_type(&self, t: &EventType) -> bool {
        let selected = self.types.is_empty() || self.types.contains(t);
        selected
            && self
                .conditions
                .iter()
                .filter(|c| c.field == Field::Type)
                .all(|c| (c.value.as_deref() == Some(t.name())) != c.negate)
    }

    /// Whether the shown types are narrowed to some (by the selection or by a condition that
    /// requires one type): the families no key names are then left out unless chosen.
    pub fn narrows_types(&self) -> bool {
        !self.types.is_empty()
            || self
                .conditions
                .iter()
                .any(|c| c.field == Field::Type && !c.negate)
    }

    /// The types shown when they are narrowed (see [`Filter::narrows_types`]), in order: the
    /// selected ones, or the one a condition requires.
    pub fn shown_types(&self) -> Vec<EventType> {
        let required = self
            .conditions
            .iter()
            .find(|c| c.field == Field::Type && !c.negate)
            .map(|c| c.value.as_deref().map(EventType::from_name));
        let candidates = match required {
            Some(one) => one.into_iter().collect(),
            None => self.types.clone(),
        };
        candidates
            .into_iter()
            .filter(|t| self.has_type(t))
            .collect()
    }

    /// Turns one type on or off, from the types shown ([`Filter::has_type`]): a condition that
    /// requires one type becomes the selection of that type, and one that rules this type out
    /// is dropped to turn it on. Turning off the last selected type selects every type again
    /// rather than showing nothing.
    pub fn toggle_type(&mut self, t: EventType) {
        let ruled_out = |c: &Condition| {
            c.field == Field::Type && c.negate && c.value.as_deref() == Some(t.name())
        };
        if let Some(at) = self
            .conditions
            .iter()
            .position(|c| c.field == Field::Type && !c.negate)
        {
            let on = self.has_type(&t);
            self.types = self.shown_types();
            self.conditions.remove(at);
            if on {
                self.types.retain(|x| *x != t);
            } else {
                self.conditions.retain(|c| !ruled_out(c));
                self.types.push(t);
                self.types.sort();
            }
            return;
        }
        if self.conditions.iter().any(ruled_out) {
            self.conditions.retain(|c| !ruled_out(c));
            if !self.types.is_empty() && !self.types.contains(&t) {
                self.types.push(t);
                self.types.sort();
            }
            return;
        }
        if let Some(pos) = self.types.iter().position(|x| *x == t) {
            self.types.remove(pos);
        } else {
            self.types.push(t);
            self.types.sort();
        }
    }

    /// A short description for headers and messages, e.g. `type=join  room=65af…  final only`.
    pub fn describe(&self) -> String {
        let Filter {
            types,
            conditions,
            terminal,
            search,
            since,
            until,
            hidden,
        } = self;
        let mut parts: Vec<String> = Vec::new();
        if !types.is_empty() {
            let names: Vec<&str> = types.iter().map(|t| t.alias()).collect();
            parts.push(format!("type={}", names.join(",")));
        }
        parts.extend(conditions.iter().map(Condition::describe));
        match terminal {
            Some(true) => parts.push("final only".into()),
            Some(false) => parts.push("retried only".into()),
            None => {}
        }
        if let Some(s) = search {
            parts.push(format!("search=\"{s}\""));
        }
        if let Some(t) = since {
            parts.push(format!("since={}", t.text));
        }
        if let Some(t) = until {
            parts.push(format!("until={}", t.text));
        }
        parts.extend(hidden.iter().map(|group| hidden_text(group)));
        if parts.is_empty() {
            "none".to_string()
        } else {
            parts.join("  ")
        }
    }
}

/// A value hidden whole, as the header and messages write it: `!(sdk=web sdk_version=0.12.3)`.
pub fn hidden_text(group: &[Condition]) -> String {
    let parts: Vec<String> = group.iter().map(Condition::describe).collect();
    format!("!({})", parts.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hiding_one_value_negates_it_and_hiding_a_value_of_two_fields_hides_them_together() {
        let mut f = Filter::default();
        f.hide(vec![Condition::is(Field::Sdk, "web")]);
        assert_eq!(
            f.conditions,
            [Condition::not(Field::Sdk, Some("web".into()))]
        );
        let pair = vec![
            Condition::is(Field::SdkVersion, "0.12.3"),
            Condition::is(Field::Sdk, "ios"),
        ];
        f.hide(pair.clone());
        f.hide(pair);
        assert_eq!(f.hidden.len(), 1, "hidden once");
        assert_eq!(f.describe(), "sdk!=web  !(sdk=ios sdk_version=0.12.3)");
    }

    #[test]
    fn setting_a_field_replaces_its_wanted_value_and_keeps_what_is_hidden() {
        let mut f = Filter::default().with(Field::Sdk, "web");
        f.add(Condition::not(Field::Sdk, Some("flutter".into())));
        f.set(Field::Sdk, Some("android".into()));
        assert_eq!(f.wanted(Field::Sdk), Some("android"));
        assert_eq!(
            f.conditions,
            vec![
                Condition::is(Field::Sdk, "android"),
                Condition::not(Field::Sdk, Some("flutter".into())),
            ]
        );
        f.set(Field::Sdk, None);
        assert_eq!(f.wanted(Field::Sdk), None);
        assert_eq!(f.conditions.len(), 1);
        // Added twice, kept once.
        f.add(Condition::not(Field::Sdk, Some("flutter".into())));
        assert_eq!(f.conditions.len(), 1);
    }

    #[test]
    fn conditions_keep_one_order_whatever_order_they_are_added_in() {
        let a = Filter::default()
            .with(Field::Os, "ios")
            .with(Field::Room, "r")
            .with(Field::Code, "4006");
        let b = Filter::default()
            .with(Field::Code, "4006")
            .with(Field::Os, "ios")
            .with(Field::Room, "r");
        assert_eq!(a, b);
        assert_eq!(a.describe(), "room=r  code=4006  os=ios");
        assert_eq!(a.code(), Some(4006));
        assert_eq!(a.room(), Some("r"));
    }

    #[test]
    fn a_description_names_every_part() {
        let mut f = Filter {
            types: vec![EventType::Publish, EventType::Join],
            terminal: Some(false),
            search: Some("x".into()),
            since: Some(TimeBound {
                text: "2h".into(),
                nanos: 0,
            }),
            ..Filter::default()
        };
        f.add(Condition::not(Field::Role, None));
        assert_eq!(
            f.describe(),
            "type=publish,join  role!=(none)  retried only  search=\"x\"  since=2h"
        );
        assert_eq!(Filter::default().describe(), "none");
    }

    #[test]
    fn a_condition_on_the_type_is_what_the_toggles_start_from() {
        let join = || Condition::is(Field::Type, EventType::Join.name());
        // Required by a condition: only that type is shown, and the toggles go on from it.
        let mut f = Filter::default();
        f.require(join());
        assert!(f.narrows_types());
        assert_eq!(f.shown_types(), [EventType::Join]);
        assert!(!f.has_type(&EventType::Publish));
        f.toggle_type(EventType::Publish);
        assert!(f.conditions.is_empty());
        assert_eq!(f.types, [EventType::Publish, EventType::Join]);
        // Turning the required type off shows every type.
        let mut f = Filter::default();
        f.require(join());
        f.toggle_type(EventType::Join);
        assert!(!f.narrows_types());
        assert!(f.has_type(&EventType::Join));
        // Required but not selected: nothing is shown; a toggle shows its type alone.
        let mut f = Filter {
            types: vec![EventType::Publish],
            ..Filter::default()
        };
        f.require(join());
        assert!(f.shown_types().is_empty());
        assert!(!f.has_type(&EventType::Join) && !f.has_type(&EventType::Publish));
        f.toggle_type(EventType::Connect);
        assert_eq!(f.types, [EventType::Connect]);
        assert!(f.conditions.is_empty());
        // Ruled out by a condition (`!join`): off, and its toggle turns it on again.
        let mut f = Filter::default();
        f.hide(vec![join()]);
        assert!(!f.has_type(&EventType::Join) && f.has_type(&EventType::Publish));
        assert!(!f.narrows_types());
        f.toggle_type(EventType::Join);
        assert!(f.is_empty());
        let mut f = Filter {
            types: vec![EventType::Publish],
            ..Filter::default()
        };
        f.hide(vec![join()]);
        f.toggle_type(EventType::Join);
        assert_eq!(f.types, [EventType::Publish, EventType::Join]);
        assert!(f.conditions.is_empty());
    }

    #[test]
    fn toggling_types_adds_removes_and_empties_to_every_type() {
        let mut f = Filter::default();
        f.toggle_type(EventType::Join);
        f.toggle_type(EventType::Publish);
        assert_eq!(f.types, vec![EventType::Publish, EventType::Join]);
        assert!(!f.has_type(&EventType::Connect));
        f.toggle_type(EventType::Join);
        f.toggle_type(EventType::Publish);
        assert!(f.types.is_empty());
        assert!(f.has_type(&EventType::Connect));
    }
}
