//! `GET /v2/analytics/events`: a query's parameters, checked as the hosted API checks them (or
//! leniently, for local use), and its pages.

use super::problem::Problem;
use crate::event::{EventType, Field};
use crate::filter::Filter;

pub const EVENTS_PATH: &str = "/v2/analytics/events";

pub const DEFAULT_LIMIT: usize = 10;
pub const MAX_LIMIT: usize = 100;

pub const LIMIT_MESSAGE: &str = "limit must be an integer from 1 to 100";
pub const CURSOR_MESSAGE: &str = "invalid or expired start cursor";
pub const ROOM_MESSAGE: &str = "room_id is required";

/// One request's parameters, checked.
#[derive(Debug)]
pub struct Request {
    pub filter: Filter,
    /// `error=true`: only the client error events.
    pub errors_only: bool,
    /// `beam_id`: only the recording events of this recording.
    pub beam_id: Option<String>,
    pub limit: usize,
    pub start: Option<String>,
    /// The canonical form of the filter, which a cursor is bound to. The page size is not part of
    /// it: a client may change `limit` from one page to the next.
    pub key: String,
}

/// How closely a request is held to the hosted API's rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rules {
    /// As the hosted API: `room_id` required, full type names, one type per `type`.
    Hosted,
    /// For local use: no room needed, aliases (`join`) and comma lists taken.
    Lenient,
}

impl Request {
    /// Reads the query parameters. `type` may repeat; the others may appear once; unknown
    /// parameters are ignored, as the service ignores them; an empty value is the same as no
    /// value.
    pub fn parse(pairs: &[(String, String)], rules: Rules) -> Result<Request, Problem> {
        let mut filter = Filter::default();
        let mut limit = None;
        let mut start = None;
        let mut errors_only = None;
        let mut beam_id = None;
        let mut ids_given: Vec<&str> = Vec::new();
        for (name, value) in pairs {
            match name.as_str() {
                "type" => {
                    if value.is_empty() {
                        continue;
                    }
                    for t in types_of(value, rules)? {
                        if !filter.types.contains(&t) {
                            filter.types.push(t);
                        }
                    }
                }
                "error" => {
                    if errors_only.is_some() {
                        return Err(Problem::bad_request("error may be given only once"));
                    }
                    errors_only = Some(match value.as_str() {
                        "true" => true,
                        "false" | "" => false,
                        _ => return Err(Problem::bad_request("error must be true or false")),
                    });
                }
                "beam_id" => {
                    if beam_id.is_some() {
                        return Err(Problem::bad_request("beam_id may be given only once"));
                    }
                    beam_id = Some(value.clone());
                }
                "room_id" | "session_id" | "peer_id" | "user_id" => {
                    let field = match name.as_str() {
                        "room_id" => Field::Room,
                        "session_id" => Field::Session,
                        "peer_id" => Field::Peer,
                        _ => Field::User,
                    };
                    if ids_given.contains(&name.as_str()) {
                        return Err(Problem::bad_request(format!(
                            "{name} may be given only once"
                        )));
                    }
                    ids_given.push(name);
                    if !value.is_empty() {
                        filter.set(field, Some(value.clone()));
                    }
                }
                "limit" => {
                    if limit.is_some() {
                        return Err(Problem::bad_request(LIMIT_MESSAGE));
                    }
                    limit = Some(
                        parse_limit(value).ok_or_else(|| Problem::bad_request(LIMIT_MESSAGE))?,
                    );
                }
                "start" => {
                    if start.is_some() {
                        return Err(Problem::bad_request(CURSOR_MESSAGE));
                    }
                    start = Some(value.clone());
                }
                _ => {}
            }
        }
        if rules == Rules::Hosted && filter.room().is_none() {
            return Err(Problem::bad_request(ROOM_MESSAGE));
        }
        filter.types.sort();
        let errors_only = errors_only.unwrap_or(false);
        let beam_id = beam_id.filter(|b| !b.is_empty());
        let key = query_key(&filter, errors_only, beam_id.as_deref());
        Ok(Request {
            filter,
            errors_only,
            beam_id,
            limit: limit.unwrap_or(DEFAULT_LIMIT),
            start: start.filter(|s| !s.is_empty()),
            key,
        })
    }
}

fn parse_limit(text: &str) -> Option<usize> {
    if text.is_empty() || text.len() > 3 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: usize = text.parse().ok()?;
    (1..=MAX_LIMIT).contains(&n).then_some(n)
}

/// The types a `type` value names: under the hosted rules one full name (`client.join.failed`,
/// `track.add.success`); leniently also an alias (`join`) or a comma-separated list.
fn types_of(value: &str, rules: Rules) -> Result<Vec<EventType>, Problem> {
    match rules {
        Rules::Lenient => value
            .split(',')
            .filter(|p| !p.trim().is_empty())
            .map(|p| EventType::from_arg(p).map_err(Problem::bad_request))
            .collect(),
        Rules::Hosted => {
            let full = value.contains('.')
                && !value.contains(',')
                && !value.chars().any(char::is_whitespace);
            if !full {
                let hint = match EventType::from_arg(value) {
                    Ok(t) if !value.contains(',') => format!(": the full name is {}", t.name()),
                    _ => ": give one full type name per type parameter, such as client.join.failed"
                        .to_string(),
                };
                return Err(Problem::bad_request(format!(
                    "invalid type {value:?}{hint}"
                )));
            }
            Ok(vec![EventType::from_name(value)])
        }
    }
}

/// The query in one unambiguous spelling: the same query written with aliases, in another
/// parameter order or with a repeated type has the same key.
fn query_key(filter: &Filter, errors_only: bool, beam_id: Option<&str>) -> String {
    let types: Vec<&str> = filter.types.iter().map(EventType::name).collect();
    let id = |field| filter.wanted(field);
    serde_json::json!([
        types,
        id(Field::Room),
        id(Field::Session),
        id(Field::Peer),
        id(Field::User),
        errors_only,
        beam_id
    ])
    .to_string()
}

#[cfg(test)]
mod tests {
    use axum::http::StatusCode;

    use super::*;

    fn lenient(pairs: &[(String, String)]) -> Result<Request, Problem> {
        Request::parse(pairs, Rules::Lenient)
    }

    fn hosted(list: &[(&str, &str)]) -> Result<Request, Problem> {
        Request::parse(&pairs(list), Rules::Hosted)
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn aliases_order_and_repeats_give_one_key() {
        let a = lenient(&pairs(&[
            ("type", "join"),
            ("room_id", "r"),
            ("type", "client.publish.failed"),
        ]))
        .unwrap();
        let b = lenient(&pairs(&[
            ("room_id", "r"),
            ("type", "publish"),
            ("type", "client.join.failed"),
            ("type", "join"),
            ("limit", "7"),
        ]))
        .unwrap();
        assert_eq!(a.key, b.key);
        assert_eq!(a.filter, b.filter);
        assert_eq!((a.limit, b.limit), (DEFAULT_LIMIT, 7));
    }

    #[test]
    fn limits_outside_one_to_a_hundred_are_refused() {
        for bad in [
            "0",
            "101",
            "abc",
            "",
            "-1",
            "+5",
            "1e1",
            " 5",
            "1000",
            "99999999999999999999",
        ] {
            let p = lenient(&pairs(&[("limit", bad)])).unwrap_err();
            assert_eq!(
                (p.status, p.what()),
                (StatusCode::BAD_REQUEST, LIMIT_MESSAGE),
                "{bad:?}"
            );
        }
        for (good, n) in [("1", 1), ("100", 100), ("007", 7)] {
            assert_eq!(lenient(&pairs(&[("limit", good)])).unwrap().limit, n);
        }
    }

    #[test]
    fn single_valued_parameters_may_not_repeat() {
        assert!(lenient(&pairs(&[("room_id", "a"), ("room_id", "b")])).is_err());
        assert!(lenient(&pairs(&[("limit", "5"), ("limit", "5")])).is_err());
        assert!(lenient(&pairs(&[("start", "x"), ("start", "x")])).is_err());
    }

    #[test]
    fn unknown_parameters_and_empty_values_are_ignored() {
        let r = lenient(&pairs(&[
            ("colour", "blue"),
            ("room_id", ""),
            ("type", ""),
            ("start", ""),
        ]))
        .unwrap();
        assert!(r.filter.is_empty());
        assert_eq!(r.start, None);
    }

    #[test]
    fn an_unknown_type_word_is_a_bad_request() {
        let p = lenient(&pairs(&[("type", "nonsense")])).unwrap_err();
        assert_eq!(p.status, StatusCode::BAD_REQUEST);
        assert!(p.what().contains("nonsense"), "{}", p.what());
        let other = lenient(&pairs(&[("type", "track.add.success")])).unwrap();
        assert_eq!(
            other.filter.types,
            vec![EventType::Other("track.add.success".into())]
        );
    }

    #[test]
    fn the_hosted_rules_require_a_room_and_full_type_names() {
        let p = hosted(&[("type", "client.join.failed")]).unwrap_err();
        assert_eq!(
            (p.status, p.what()),
            (StatusCode::BAD_REQUEST, ROOM_MESSAGE)
        );
        assert_eq!(p.message, "Bad Request");
        let p = hosted(&[("room_id", "r"), ("type", "join")]).unwrap_err();
        assert!(p.what().contains("client.join.failed"), "{}", p.what());
        let p = hosted(&[
            ("room_id", "r"),
            ("type", "client.join.failed,client.publish.failed"),
        ])
        .unwrap_err();
        assert!(p.what().contains("one full type name"), "{}", p.what());
        let ok = hosted(&[
            ("room_id", "r"),
            ("type", "client.join.failed"),
            ("type", "beam.recording.success"),
        ])
        .unwrap();
        assert_eq!(ok.filter.types.len(), 2);
        // Leniently, what a person types locally is taken.
        assert!(lenient(&pairs(&[("type", "join,publish")])).is_ok());
    }

    #[test]
    fn error_and_beam_id_are_read_and_bind_cursors() {
        let errors = hosted(&[("room_id", "r"), ("error", "true")]).unwrap();
        let all = hosted(&[("room_id", "r"), ("error", "false")]).unwrap();
        assert!(errors.errors_only && !all.errors_only);
        assert_ne!(errors.key, all.key, "a cursor of one is not the other's");
        assert!(hosted(&[("room_id", "r"), ("error", "yes")]).is_err());
        let beam = hosted(&[
            ("room_id", "r"),
            ("type", "beam.recording.success"),
            ("beam_id", "b1"),
        ])
        .unwrap();
        assert_eq!(beam.beam_id.as_deref(), Some("b1"));
    }
}
