//! Indexing an event's string values for the text search as its row is made, so that the search
//! can find every one of them without reading the event's JSON.

use super::Uses;
use super::tables::{LONG_VALUE, Tables};
use crate::store::intern::ids::canonical_uuid;
use crate::store::read::probe::Probe;
use crate::store::read::walk::{Field, StrAt};
use crate::store::search::{Bigrams, is_time_char, timestamp_digits};
use crate::store::{Located, NO_TIME, Row, Span};

/// How many bytes of texts of others a builder remembers. Where agents or other values vary
/// from event to event, nearly every text is new and remembering them all would only cost
/// memory; the sets they stand for are interned all the same.
const MAX_TEXTS_OF_OTHERS: usize = 1 << 20;
impl Tables {
    /// Makes sure the text search can find every string value of the event without reading
    /// its JSON: a value is either the one a row field holds for its place, one of the three
    /// varied values the row locates in place, or interned into the row's set of others. The
    /// strings of the remembered values an event holds (`uses`) are the values'.
    pub(super) fn index_strings(
        &mut self,
        raw: &[u8],
        p: &Probe,
        strings: &[StrAt],
        uses: &Uses,
        row: &mut Row,
        located: &mut Located,
    ) {
        // The other values, each followed by 0xFF (a byte UTF-8 never holds).
        let mut text = std::mem::take(&mut self.others_text);
        text.clear();
        let data = p.data.0.as_ref();
        let held_of = held_by_field(p, row);
        for s in strings {
            let (a, z, escaped) = (s.start as usize, s.end as usize, s.escaped);
            if uses.read.iter().any(|span| span.contains(&a)) {
                continue;
            }
            let inner = &raw[a + 1..z - 1];
            // Located in place: searched by reading the quoted string itself.
            let locate = |slot: &mut Span| -> bool {
                if !slot.is_none() {
                    return false;
                }
                match Span::new(a, z) {
                    Some(span) => {
                        *slot = span;
                        true
                    }
                    None => false,
                }
            };
            match s.field {
                Field::Id if locate(&mut row.id_at) => {
                    let uuid = canonical_uuid(inner);
                    row.set_id_is_uuid(uuid.is_some());
                    located.id_uuid = uuid.unwrap_or(0).to_le_bytes();
                    continue;
                }
                Field::Timestamp if locate(&mut row.ts_at) => {
                    row.set_ts_is_plain(inner.iter().all(|&b| is_time_char(b)));
                    row.set_ts_digits(
                        (row.ts != NO_TIME)
                            .then(|| timestamp_digits(inner, row.ts))
                            .flatten(),
                    );
                    continue;
                }
                Field::ErrorDescription if locate(&mut row.description_at) => {
                    row.set_description_escaped(escaped);
                    located.description_bigrams = if escaped {
                        match serde_json::from_slice::<String>(&raw[a..z]) {
                            Ok(text) => description_bigrams(text.as_bytes()),
                            Err(_) => Bigrams::ALL,
                        }
                    } else {
                        description_bigrams(inner)
                    };
                    continue;
                }
                _ => {}
            }
            let held = held_of[s.field as usize];
            let unescaped;
            let value: &[u8] = if escaped {
                match serde_json::from_slice::<String>(&raw[a..z]) {
                    Ok(text) => {
                        unescaped = text;
                        unescaped.as_bytes()
                    }
                    Err(_) => {
                        row.set_search_raw(true);
                        continue;
                    }
                }
            } else {
                inner
            };
            // A field read without escapes is the very bytes of this string.
            let is_held = held.is_some_and(|h| {
                (!escaped && std::ptr::eq(h.as_ptr(), inner.as_ptr()) && h.len() == inner.len())
                    || h == value
            });
            if is_held {
                continue;
            }
            if value.len() >= LONG_VALUE && !self.keeps_long_value(value) {
                // Left in the dump: the search reads this event's JSON.
                row.set_search_raw(true);
                continue;
            }
            text.extend_from_slice(value);
            text.push(0xFF);
        }
        // The remembered values' strings, by their number: 0xFE for the agent, 0xFD for a
        // nested value (other bytes UTF-8 never holds), then four bytes.
        for &k in &uses.values {
            text.push(0xFD);
            text.extend_from_slice(&k.to_le_bytes());
        }
        if let Some(k) = uses.agent {
            text.push(0xFE);
            text.extend_from_slice(&k.to_le_bytes());
            // The agent's domain is an other value when `data` has a domain of its own.
            let own = self.remembered.agents.get(k).domain;
            let agent_domain = self.strings.get(own).as_bytes();
            if let Some(data_domain) = data.and_then(|d| d.domain.get())
                && !own.is_none()
                && agent_domain != data_domain
            {
                text.extend_from_slice(agent_domain);
                text.push(0xFF);
            }
        }
        let known = if self.texts_trial.is_off() {
            None
        } else {
            let known = self.texts_of_others.find(&text);
            self.texts_trial.note(known.is_some());
            known
        };
        row.others = match known {
            // Texts are numbered from 1 (0 is the empty slice, never found).
            Some(n) => self.set_of_text[n as usize - 1],
            None => {
                // Events share their others: each distinct text is interned once.
                let mut others = std::mem::take(&mut self.others);
                others.clear();
                let mut all_text = true;
                let mut rest = text.as_slice();
                while let Some(&first) = rest.first() {
                    if let 0xFD | 0xFE = first {
                        let k = u32::from_le_bytes(rest[1..5].try_into().expect("four bytes"));
                        others.extend_from_slice(match first {
                            0xFE => &self.remembered.agents.get(k).others,
                            _ => self.remembered.values.get(k),
                        });
                        rest = &rest[5..];
                        continue;
                    }
                    let end = memchr::memchr(0xFF, rest).expect("each value ends with 0xFF");
                    match self.strings.intern_bytes(&rest[..end]) {
                        Ok(sym) => others.push(sym),
                        Err(_) => all_text = false,
                    }
                    rest = &rest[end + 1..];
                }
                others.sort_unstable();
                others.dedup();
                let set = self.sets.intern(&others);
                if !all_text {
                    row.set_search_raw(true);
                } else if !self.texts_trial.is_off()
                    && self.texts_of_others.parts().0.len() < MAX_TEXTS_OF_OTHERS
                {
                    // Only a new text comes here: it is numbered one past the last.
                    let n = self.texts_of_others.intern(&text) as usize;
                    debug_assert_eq!(n, self.set_of_text.len() + 1);
                    self.set_of_text.push(set);
                }
                self.others = others;
                set
            }
        };
        self.others_text = text;
    }
}

/// The value the row field of event `p` holds, for each field that is one (`None` for the
/// others): a value read there needs no place among the event's other values. The row may have
/// left out a long message (see `Tables::row_of`): it is an other value then. Looked up by
/// field rather than matched, as keys may come in any order and a branch per value would be
/// mispredicted.
fn held_by_field<'p>(p: &'p Probe, row: &Row) -> [Option<&'p [u8]>; Field::COUNT] {
    let mut held = [None; Field::COUNT];
    held[Field::Type as usize] = p.kind.get();
    let Some(d) = p.data.0.as_ref() else {
        return held;
    };
    let agent = d.agent.0.as_ref();
    // The row's domain is the data's, else the agent's.
    let domain = d.domain.get().or(agent.and_then(|a| a.domain.get()));
    for (field, value) in [
        (Field::UserId, d.user_id.get()),
        (Field::UserName, d.user_name.get()),
        (Field::PeerId, d.peer_id.get()),
        (Field::RoomId, d.room_id.get()),
        (Field::RoomName, d.room_name.get()),
        (Field::SessionId, d.session_id.get()),
        (Field::Role, d.role.get()),
        (Field::ErrorName, d.error_name.get()),
        (
            Field::ErrorMessage,
            d.error_message
                .get()
                .filter(|_| !row.error_message.is_none()),
        ),
        (Field::Action, d.action.get()),
        (Field::Domain, domain),
    ] {
        held[field as usize] = value;
    }
    let Some(a) = agent else {
        return held;
    };
    for (field, value) in [
        (Field::AgentDomain, domain),
        (Field::Sdk, a.sdk.get()),
        (Field::SdkVersion, a.sdk_version.get()),
        (Field::DeviceModel, a.device_model.get()),
        (Field::Os, a.os.get()),
        (Field::OsVersion, a.os_version.get()),
        (Field::AgentString, a.string.get()),
    ] {
        held[field as usize] = value;
    }
    held
}

/// The pairs of characters of a description, as the text search reads it. The two characters
/// whose lowercase is ASCII (İ, KELVIN SIGN) start with one of two bytes: a description holding
/// one of those could hold pairs that are not its own, so nothing is ruled out for it.
fn description_bigrams(text: &[u8]) -> Bigrams {
    if memchr::memchr2(0xC4, 0xE2, text).is_some() {
        Bigrams::ALL
    } else {
        Bigrams::of(text)
    }
}
