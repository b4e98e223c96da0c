//! `callscope story PEER_ID`: a peer's retry chains with their outcomes (did it get through, on
//! what evidence), its track events, and its network around each failure, for scripts and
//! postmortems.

use std::io::Write;

use serde_json::json;

use super::fetch::{Stopped, fetch};
use super::{Ended, Failure};
use crate::event::{EventType, Field};
use crate::filter::Filter;
use crate::insight::{Fetched, Told, duration_words, tell_with};
use crate::source::Source;
use crate::source::related_live::TRACK_TYPES;
use crate::store::Store;
use crate::time::Zone;

/// How the story is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoryFormat {
    Text,
    Json,
}

/// What `story` is asked to tell.
#[derive(Debug, Clone)]
pub struct StoryOf {
    pub peer_id: String,
    pub source: Source,
    /// Live: the peer's room (the API answers one room's queries only).
    pub room: Option<String>,
    pub format: StoryFormat,
    /// Live: also fetch the peer's quality stats in each of its sessions.
    pub quality: bool,
}

pub fn run(of: StoryOf) -> Result<Ended, Failure> {
    if of.peer_id.is_empty() {
        // Events of different people can carry an empty peer_id: it links none of them.
        return Err(Failure::usage(
            "an empty peer id names no peer: give the peer_id of the events to tell",
        ));
    }
    let now = chrono::Utc::now().timestamp_nanos_opt().unwrap_or(i64::MAX);
    // Live, every track event of the peer in the room is fetched with its errors: where none
    // comes, the service holds none.
    let mut fetched = Fetched::default();
    // Offline, the input's damaged places: the story is told from the rest.
    let mut damaged = Vec::new();
    let (store, related) = match &of.source {
        Source::Live(live) => {
            let Some(room) = &of.room else {
                return Err(Failure::usage(crate::source::live::NO_ROOM));
            };
            let mut filter = Filter::default()
                .with(Field::Room, room.clone())
                .with(Field::Peer, of.peer_id.clone());
            filter.types = EventType::KNOWN
                .iter()
                .cloned()
                .chain(TRACK_TYPES.iter().map(|t| EventType::from_name(t)))
                .collect();
            filter.types.sort();
            let (store, filter) = match fetch(live, &filter, None) {
                Ok(fetched) => fetched,
                Err(Stopped::Before(f)) => return Err(f),
                Err(Stopped::PartWay(_, _, e, _)) => return Err(Failure::Runtime(e)),
            };
            let connection = live.connect().map_err(Failure::Usage)?;
            let room_id = filter.room().unwrap_or_default().to_string();
            let peer = of.quality.then_some(of.peer_id.as_str());
            let related = super::fetch::related(&connection, &store, &room_id, peer)?;
            fetched.whole.push(of.peer_id.clone());
            fetched.sessions.push(room_id.clone());
            (store, related)
        }
        offline => {
            // A damaged dump is told from what of it was read, as `list` prints it, and its
            // problems are said after the story.
            let (store, problems) = offline.load_offline();
            damaged = problems;
            let mut related = offline.related();
            // Saved sessions are known up to the latest time each names, not up to now.
            related
                .sessions
                .iter_mut()
                .for_each(crate::related::Session::as_saved);
            (store, related)
        }
    };
    let missing = || {
        let words = format!("no event of peer {} in the source", of.peer_id);
        match damaged.is_empty() {
            true => Failure::usage(words),
            false => damaged_failure(&damaged, format!("{words}'s readable part")),
        }
    };
    let Some(peer) = store.strings().lookup(&of.peer_id) else {
        return Err(missing());
    };
    // In UTC, as the events write their times.
    let told = tell_with(&store, &related, &fetched, peer, now, Zone::Utc);
    if told.story.events.is_empty() {
        return Err(missing());
    }
    let text = match of.format {
        StoryFormat::Text => text_of(&store, &told),
        StoryFormat::Json => format!("{}\n", json_of(&store, &told)),
    };
    let stdout = std::io::stdout();
    // On a terminal, text from the data must not drive it; a pipe gets the bytes as they are.
    let mut out: Box<dyn Write> = if std::io::IsTerminal::is_terminal(&stdout) {
        Box::new(crate::text::ForTerminal::new(stdout.lock()))
    } else {
        Box::new(stdout.lock())
    };
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Failure::runtime(format!("cannot write to stdout: {e}")))
        }
        _ if !damaged.is_empty() => Err(damaged_failure(
            &damaged,
            format!(
                "the story is told from the {} readable {}: an event or session in the damaged \
                 part is not in it, and could change a verdict",
                crate::text::thousands(store.events_read()),
                if store.events_read() == 1 {
                    "event"
                } else {
                    "events"
                }
            ),
        )),
        _ => Ok(Ended::Done),
    }
}

/// The problems of a damaged input, one line each, and a last line saying how many there are
/// and what the story made of the rest.
fn damaged_failure(problems: &[crate::source::DumpProblem], then: String) -> Failure {
    let mut lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
    lines.push(format!(
        "{} in the input; {then}",
        crate::text::plural(problems.len(), "problem", "problems")
    ));
    Failure::Problems(lines)
}

fn text_of(store: &Store, told: &Told) -> String {
    let story = &told.story;
    let first = store.row(story.events[0] as usize);
    let name = |f: Field| {
        let s = store.text(first, f);
        (!s.is_none()).then(|| store.str(s).to_string())
    };
    let mut out = String::new();
    out.push_str(&format!(
        "{} (peer {}), room {}\n",
        name(Field::UserName).unwrap_or_else(|| "unnamed".into()),
        store.str(story.peer),
        name(Field::RoomName)
            .or_else(|| name(Field::Room))
            .unwrap_or_else(|| "-".into())
    ));
    if story.chains.is_empty() {
        out.push_str("no retry chain: the peer's events hold no error with a time\n");
    }
    for (k, chain) in story.chains.iter().enumerate() {
        out.push_str(&format!(
            "\n{}, {} to {}\n",
            chain.summary(store, Zone::Utc),
            Zone::Utc.clock(chain.first),
            Zone::Utc.clock(chain.last)
        ));
        let v = &told.verdicts[k];
        let last = store.event(*chain.events.last().unwrap_or(&chain.events[0]) as usize);
        out.push_str(&format!(
            "  error: {}\n",
            crate::event::codes::explain_event(&last).line()
        ));
        out.push_str(&format!(
            "  outcome: {}: {}\n",
            v.outcome.words(),
            v.evidence
        ));
        if let Some(q) = &told.quality[k] {
            out.push_str(&format!("  network: {}\n", q.sentence));
        }
    }
    if !told.tracks.is_empty() {
        out.push_str("\ntracks:\n");
        for t in &told.tracks {
            out.push_str(&format!("  {} {}\n", Zone::Utc.clock(t.at), t.words()));
        }
    }
    out
}

fn json_of(store: &Store, told: &Told) -> serde_json::Value {
    let story = &told.story;
    let first = store.row(story.events[0] as usize);
    let text = |s: crate::store::Sym| (!s.is_none()).then(|| store.str(s).to_string());
    let time = |ns: i64| crate::time::format_nanos(ns);
    let chains: Vec<serde_json::Value> = story
        .chains
        .iter()
        .enumerate()
        .map(|(k, chain)| {
            let v = &told.verdicts[k];
            let quality = told.quality[k].as_ref().map(|q| {
                let metrics: Vec<serde_json::Value> = q
                    .metrics
                    .iter()
                    .map(|a| {
                        json!({
                            "metric": a.metric.key(),
                            "track": a.track,
                            "peak": a.peak,
                            "peak_at": time(a.peak_at),
                            "before": a.before,
                            "points": a.points,
                        })
                    })
                    .collect();
                let empty: Vec<&str> = q.empty.iter().map(|m| m.key()).collect();
                json!({"summary": q.sentence, "metrics": metrics, "empty": empty})
            });
            let last = store.event(*chain.events.last().unwrap_or(&chain.events[0]) as usize);
            json!({
                "action": chain.action_name(store),
                "error": crate::event::codes::explain_event(&last).line(),
                "attempts": chain.attempts(),
                "first": time(chain.first),
                "last": time(chain.last),
                "duration": duration_words(chain.duration()),
                "final": chain.ending.gave_up(),
                "outcome": v.outcome.name(),
                "evidence": v.evidence,
                "session_id": v.session_id,
                "joined_at": v.joined_at.map(time),
                "left_at": v.left_at.map(time),
                "quality": quality,
            })
        })
        .collect();
    let tracks: Vec<serde_json::Value> = told
        .tracks
        .iter()
        .map(|t| {
            json!({
                "at": time(t.at),
                "type": t.kind,
                "peer_id": t.peer_id,
                "media": t.media,
                "source": t.source,
            })
        })
        .collect();
    json!({
        "peer_id": store.str(story.peer),
        "user_name": text(first.user_name),
        "user_id": text(first.user_id),
        "room_id": text(first.room_id),
        "chains": chains,
        "tracks": tracks,
    })
}
