//! Track and recording events, planned once the sessions are laid out: what peers published
//! while they were in a session, and the recordings of sessions. A track event is only ever
//! emitted inside its peer's stay, so it is evidence that the peer was in the call.
//!
//! The events endpoint's other families take a fixed share of the dataset. They go first to the
//! recordings, then, one peer's whole timeline at a time and taking turns, to the peers whose
//! stories they tell: Priya, the disconnect cluster and those of its users who came back, the
//! storm's peers that got in, the connect cluster's, the noise's, and the quiet ones.
//!
//! This is also where the peers that get quality stats are chosen, with the tracks they publish
//! and receive, so that stats and track events name the same tracks.
//!
//! - `recordings`: the recorder peers and their `beam.recording.success` events.
//! - `stats_peers`: which peers get quality stats, and the tracks those name.

mod recordings;
mod stats_peers;

use std::collections::HashMap;

use super::catalog::{DAY_END, DAY_START, MIN, MS, NOW, SEC};
use super::dice::Dice;
use super::schedule::{Code, Kind, Plan, Story};
use super::world::{Outcome, Part, World};

pub(super) struct Track {
    pub id: [u8; 16],
    pub stream: [u8; 16],
    pub video: bool,
    pub screen: bool,
    pub start: u64,
    /// When it stopped; `None` if it was still published at `NOW`.
    pub stop: Option<u64>,
    /// Whether it was muted when it started.
    pub muted: bool,
}

/// One change to a track, as a track event tells it.
#[derive(Clone, Copy)]
pub(super) struct Change {
    /// The event's timestamp.
    pub t: u64,
    /// `TrackAdd`, `TrackUpdate` or `TrackRemove`.
    pub kind: Kind,
    /// Index into the timeline's tracks.
    pub track: u32,
    /// Whether the track is muted after the change.
    pub mute: bool,
}

/// A peer's tracks and every change to them while it was in the session.
#[derive(Default)]
pub(super) struct Timeline {
    pub tracks: Vec<Track>,
    /// By time. Only the changes inside the day of events are kept.
    pub changes: Vec<Change>,
}

impl Timeline {
    /// Whether `track` was muted at `t` (given it was published then).
    pub(super) fn muted_at(&self, track: u32, t: u64) -> bool {
        let mut muted = self.tracks[track as usize].muted;
        for c in self.changes.iter().filter(|c| c.track == track) {
            if c.t > t {
                break;
            }
            muted = c.mute;
        }
        muted
    }
}

pub(super) struct Recording {
    pub session: u32,
    /// The recorder's peer.
    pub peer: u32,
    pub beam_id: Box<str>,
    pub started: u64,
    pub stopped: u64,
    pub created: u64,
    /// The event's timestamp.
    pub t: u64,
    pub size: u64,
    /// The presigned link's signature.
    pub signature: [u8; 16],
}

/// One event of the other families.
#[derive(Clone, Copy)]
pub(super) enum Other {
    Track { peer: u32, change: Change },
    Recording(u32),
}

/// A peer whose quality stats are in the dataset.
pub(super) struct StatsPeer {
    pub peer: u32,
    /// Peers of the same session whose tracks it receives.
    pub remotes: Vec<u32>,
    /// Times of the errors its network explains (ICE failures), by time.
    pub troubles: Vec<u64>,
}

#[derive(Default)]
pub(super) struct Others {
    pub timelines: HashMap<u32, Timeline>,
    pub recordings: Vec<Recording>,
    pub events: Vec<Other>,
    pub stats: Vec<StatsPeer>,
}

/// What the error events say about a peer that its timeline follows.
#[derive(Clone, Copy)]
struct Errors {
    last: u64,
    /// The first event of the chain that ends last.
    last_chain_first: u64,
    last_chain_end: u64,
}

fn errors_by_peer(world: &World, plans: &[Plan]) -> HashMap<u32, Errors> {
    let mut out: HashMap<u32, Errors> = HashMap::new();
    let mut chain: Option<(u32, u64, u64)> = None;
    let close = |out: &mut HashMap<u32, Errors>, (peer, first, end): (u32, u64, u64)| {
        let e = out.entry(peer).or_insert(Errors {
            last: 0,
            last_chain_first: first,
            last_chain_end: end,
        });
        e.last = e.last.max(end);
        if end >= e.last_chain_end {
            e.last_chain_first = first;
            e.last_chain_end = end;
        }
    };
    for p in plans.iter().filter(|p| p.kind.is_error()) {
        if !matches!(
            world.peers[p.who as usize].part,
            Part::Priya | Part::DisconnectCluster(_)
        ) {
            continue;
        }
        match chain {
            Some((peer, first, end)) if peer == p.who && p.attempt > 1 => {
                chain = Some((peer, first, end.max(p.t)));
            }
            _ => {
                if let Some(done) = chain.take() {
                    close(&mut out, done);
                }
                chain = Some((p.who, p.t, p.t));
            }
        }
    }
    if let Some(done) = chain {
        close(&mut out, done);
    }
    out
}

/// The tracks a peer publishes from its join: audio and camera on one stream, now and then a mute
/// or unmute, for some hosts a screen share, and every track removed when it leaves.
fn timeline(side: &mut Dice, world: &World, peer: u32, errors: Option<Errors>) -> Timeline {
    let p = &world.peers[peer as usize];
    let (Some(joined), Some(_)) = (p.joined, world.video_of(p)) else {
        return Timeline::default();
    };
    let end = p.left.unwrap_or(NOW);
    let stream = side.uuid();
    let audio_start = joined + side.range(300, 2500) * MS + side.below(MS);
    let video_start = audio_start + side.range(5, 400) * MS + side.below(MS);
    let mut tracks = vec![
        Track {
            id: side.uuid(),
            stream,
            video: false,
            screen: false,
            start: audio_start,
            stop: None,
            muted: side.chance(25),
        },
        Track {
            id: side.uuid(),
            stream,
            video: true,
            screen: false,
            start: video_start,
            stop: None,
            muted: side.chance(12),
        },
    ];
    // When publishing ends: for Priya, as soon as the SDK gives up; otherwise on leaving.
    let stop_all = match (p.part, errors) {
        (Part::Priya, Some(e)) => Some(e.last + side.range(1, 3) * SEC + side.below(SEC)),
        _ => p.left.map(|left| left - side.range(50, 800) * MS),
    };
    let until = stop_all.unwrap_or(end);
    if p.part == Part::Priya || (p.role == 0 && side.chance(35)) {
        let start = match (p.part, errors) {
            // She was sharing her design when the trouble began.
            (Part::Priya, Some(e)) => e.last_chain_first.saturating_sub(side.range(60, 100) * SEC),
            _ => video_start + side.below((until - video_start) / 2),
        };
        let stop = (start + side.range(2, 15) * MIN + side.below(MIN)).min(until);
        if stop > start + 5 * SEC {
            tracks.push(Track {
                id: side.uuid(),
                stream: side.uuid(),
                video: true,
                screen: true,
                start,
                stop: (stop < until).then_some(stop),
                muted: false,
            });
        }
    }

    let mut changes: Vec<Change> = Vec::new();
    let mut state: Vec<bool> = tracks.iter().map(|t| t.muted).collect();
    for (i, track) in tracks.iter().enumerate() {
        changes.push(Change {
            t: track.start + side.range(1, 4) * MS + side.below(MS),
            kind: Kind::TrackAdd,
            track: i as u32,
            mute: track.muted,
        });
    }
    let mut toggles: Vec<u64> = Vec::new();
    if until > video_start + 20 * SEC {
        for _ in 0..side.below(4) {
            toggles.push(video_start + 5 * SEC + side.below(until - video_start - 10 * SEC));
        }
    }
    if let (Part::DisconnectCluster(Outcome::Stayed), Some(e)) = (p.part, errors) {
        // Back after the last drop: the peer unmutes or mutes again.
        let at = e.last + side.range(10, 120) * SEC + side.below(SEC);
        if at + 5 * SEC < until {
            toggles.push(at);
        }
    }
    toggles.sort_unstable();
    for at in toggles {
        let track = usize::from(!side.chance(70));
        state[track] = !state[track];
        changes.push(Change {
            t: at,
            kind: Kind::TrackUpdate,
            track: track as u32,
            mute: state[track],
        });
    }
    // Toggles ran in time order; the screen share's end and the final removal come after them
    // in the sort below, with the state each track has then.
    changes.sort_by_key(|c| c.t);
    let mut state: Vec<bool> = tracks.iter().map(|t| t.muted).collect();
    for c in &changes {
        state[c.track as usize] = c.mute;
    }
    let mut ends = Vec::new();
    for (i, track) in tracks.iter_mut().enumerate() {
        let stop = match (track.stop, stop_all) {
            (Some(stop), _) => Some(stop),
            (None, Some(all)) => Some(all + i as u64 * side.below(3 * MS)),
            (None, None) => None,
        };
        track.stop = stop;
        if let Some(stop) = stop {
            ends.push(Change {
                t: stop + side.range(1, 4) * MS + side.below(MS),
                kind: Kind::TrackRemove,
                track: i as u32,
                mute: state[i],
            });
        }
    }
    changes.extend(ends);
    changes.sort_by_key(|c| c.t);
    // Of a peer that did not come back from its last drop, nothing is seen after it (a user that
    // came back did so as a new peer).
    if let (Part::DisconnectCluster(Outcome::Left | Outcome::Rejoined), Some(e)) = (p.part, errors)
    {
        changes.retain(|c| c.t < e.last_chain_first);
    }
    changes.retain(|c| (DAY_START..DAY_END).contains(&c.t));
    Timeline { tracks, changes }
}

/// Plans the `count` events of the other families, adds the recorders to their sessions, and
/// chooses the peers with quality stats.
pub(super) fn plan(
    side: &mut Dice,
    world: &mut World,
    plans: &mut Vec<Plan>,
    count: usize,
    events: usize,
) -> Others {
    let mut others = Others::default();
    let errors = errors_by_peer(world, plans);
    let mut budget = count;

    recordings::recordings(side, world, &mut others, count / 5);
    for i in 0..others.recordings.len() {
        others.events.push(Other::Recording(i as u32));
    }
    budget -= others.recordings.len();

    let publishing = |world: &World, part: fn(Part) -> bool| -> Vec<u32> {
        world
            .peers
            .iter()
            .enumerate()
            .filter(|(_, p)| part(p.part) && p.joined.is_some() && world.video_of(p).is_some())
            .map(|(i, _)| i as u32)
            .collect()
    };
    // The disconnect cluster takes three turns a round, and its outcomes take turns too, so that
    // each is told: stayed, came back as a new peer, stayed, gone for good.
    let cluster = publishing(world, |p| matches!(p, Part::DisconnectCluster(_)));
    let outcome = |o: Outcome| -> Vec<u32> {
        cluster
            .iter()
            .copied()
            .filter(|&p| world.peers[p as usize].part == Part::DisconnectCluster(o))
            .collect()
    };
    let by_outcome = [
        outcome(Outcome::Stayed),
        outcome(Outcome::Rejoined),
        outcome(Outcome::Left),
    ];
    let mut cursors = [0usize; 3];
    let mut interleaved = Vec::with_capacity(cluster.len());
    while interleaved.len() < cluster.len() {
        for which in [0, 1, 0, 2] {
            if let Some(&p) = by_outcome[which].get(cursors[which]) {
                interleaved.push(p);
                cursors[which] += 1;
            }
        }
    }
    let mut turns: Vec<(std::vec::IntoIter<u32>, usize)> = vec![
        (publishing(world, |p| p == Part::Priya).into_iter(), 1),
        (interleaved.into_iter(), 3),
        (publishing(world, |p| p == Part::Rejoin).into_iter(), 1),
        (publishing(world, |p| p == Part::Storm).into_iter(), 1),
        (
            publishing(world, |p| p == Part::ConnectCluster).into_iter(),
            1,
        ),
        (publishing(world, |p| p == Part::Noise).into_iter(), 1),
        (publishing(world, |p| p == Part::Quiet).into_iter(), 1),
    ];
    let mut chosen: Vec<u32> = Vec::new();
    'turns: while budget > 0 {
        let mut any = false;
        for (turn, weight) in &mut turns {
            for _ in 0..*weight {
                let Some(peer) = turn.next() else { break };
                any = true;
                let line = timeline(side, world, peer, errors.get(&peer).copied());
                for change in line.changes.iter().take(budget) {
                    others.events.push(Other::Track {
                        peer,
                        change: *change,
                    });
                }
                budget -= line.changes.len().min(budget);
                if !line.changes.is_empty() {
                    chosen.push(peer);
                }
                others.timelines.insert(peer, line);
                if budget == 0 {
                    break 'turns;
                }
            }
        }
        if !any {
            break;
        }
    }
    // Should every timeline be spent, updates that change nothing but the track's settings fill
    // the share (the service sends one when a track's layers or resolution change).
    let windows: Vec<(u32, u32, u64, u64)> = chosen
        .iter()
        .filter(|&&p| world.peers[p as usize].part != Part::DisconnectCluster(Outcome::Left))
        .filter_map(|&p| {
            let line = &others.timelines[&p];
            let track = line.changes.first()?.track;
            let tr = &line.tracks[track as usize];
            let lo = tr.start.max(DAY_START) + MS;
            let hi = tr.stop.unwrap_or(NOW).min(DAY_END);
            (hi > lo + 2 * MS).then_some((p, track, lo, hi))
        })
        .collect();
    for n in 0..if windows.is_empty() { 0 } else { budget } {
        let (peer, track, lo, hi) = windows[n % windows.len()];
        let t = lo + side.below(hi - lo - MS);
        let mute = others.timelines[&peer].muted_at(track, t);
        others.events.push(Other::Track {
            peer,
            change: Change {
                t,
                kind: Kind::TrackUpdate,
                track,
                mute,
            },
        });
    }

    debug_assert_eq!(
        others.events.len(),
        count,
        "the hosts' tracks always leave room"
    );

    stats_peers::choose_stats(side, world, plans, &mut others, &errors, events);

    for (i, other) in others.events.iter().enumerate() {
        let (t, kind) = match *other {
            Other::Track { change, .. } => (change.t, change.kind),
            Other::Recording(r) => (others.recordings[r as usize].t, Kind::BeamRecording),
        };
        plans.push(Plan {
            t,
            who: i as u32,
            kind,
            code: Code::None,
            terminal: false,
            attempt: 1,
            story: Story::Noise,
        });
    }
    others
}
