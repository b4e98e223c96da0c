//! The peer quality stats endpoint's answers: one time series per published layer and received
//! track, a sample every 10 s of the peer's stay, from a network model per peer.
//!
//! Most peers' networks are fine, including the disconnect cluster's (its drops come from the SDK,
//! not the network). Priya's loss and round-trip time climb from 45 s before her first failure to
//! her last, with a smaller rise before each; a noise peer's spike in the 40 s before each ICE
//! failure; a storm peer's are high for its first seconds in the call, through the recovering SFU.

use std::io::{self, BufWriter, Write};

use super::catalog::{MS, NOW, SEC};
use super::dice::{Dice, Stream};
use super::json::{
    DAY_EPOCH_SECS, push_escaped, push_field, push_fixed, push_u64, push_uuid, unix_ms,
};
use super::tracks::{Others, StatsPeer, Timeline};
use super::world::{Part, Sdk, World};

const STEP_MS: u64 = 10_000;

/// What goes wrong with a peer's network.
enum Trouble {
    None,
    /// Loss and RTT climb from `from` to the last error, with a smaller rise before each.
    Climb {
        from: u64,
        errors: Vec<u64>,
    },
    /// A spike in the 40 s before each error.
    Spikes(Vec<u64>),
    /// High RTT and some freezes until `until`.
    Settling {
        until: u64,
    },
}

/// The network at one sample.
#[derive(Clone, Copy)]
struct Quality {
    /// Hundredths of a percent.
    loss: u64,
    rtt_ms: u64,
    /// Tenths of a millisecond.
    jitter: u64,
    freezes: u64,
}

impl Trouble {
    fn quality(&self, d: &mut Dice, base: Quality, t: u64) -> Quality {
        let mut q = Quality {
            loss: base.loss * d.range(70, 130) / 100,
            rtt_ms: base.rtt_ms * d.range(90, 115) / 100,
            jitter: base.jitter * d.range(80, 125) / 100,
            freezes: u64::from(d.chance(2)),
        };
        match self {
            Trouble::None => {}
            Trouble::Climb { from, errors } => {
                let last = errors.last().copied().unwrap_or(*from);
                if t >= *from && last > *from {
                    // Per mille of the way from the start of the trouble to the last failure,
                    // and of the way from the previous failure to the next.
                    let overall = (t.min(last) - from) * 1000 / (last - from);
                    let stretch = if t > last {
                        500
                    } else {
                        let prev = errors.iter().rev().find(|&&e| e < t).unwrap_or(from);
                        let next = errors.iter().find(|&&e| e >= t).unwrap_or(&last);
                        (t - prev) * 1000 / (next - prev).max(1)
                    };
                    q.loss += overall * 3000 / 1000 + stretch * 300 / 1000;
                    q.rtt_ms += overall * 420 / 1000 + stretch * 100 / 1000;
                    q.jitter += overall * 300 / 1000;
                    q.freezes += overall / 250;
                }
            }
            Trouble::Spikes(errors) => {
                for &e in errors {
                    if t <= e && e - t < 40 * SEC {
                        let weight = 1000 - (e - t) * 1000 / (40 * SEC);
                        q.loss += weight * 1500 / 1000;
                        q.rtt_ms += weight * 250 / 1000;
                        q.jitter += weight * 150 / 1000;
                        q.freezes += weight / 400;
                    }
                }
            }
            Trouble::Settling { until } => {
                if t < *until {
                    q.rtt_ms += 90;
                    q.freezes += 1 + d.below(2);
                }
            }
        }
        q
    }
}

enum Num {
    Int(u64),
    Fixed(u64, u32),
    Null,
}

fn push_array(buf: &mut Vec<u8>, key: &str, values: &[Num]) {
    buf.extend_from_slice(b",\"");
    buf.extend_from_slice(key.as_bytes());
    buf.extend_from_slice(b"\":[");
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            buf.push(b',');
        }
        match *v {
            Num::Int(n) => push_u64(buf, n),
            Num::Fixed(n, places) => push_fixed(buf, n, places),
            Num::Null => buf.extend_from_slice(b"null"),
        }
    }
    buf.push(b']');
}

/// The samples of one track: indices into the peer's grid while the track was live.
fn live(grid: &[u64], start: u64, stop: u64) -> std::ops::Range<usize> {
    let from = grid.partition_point(|&t| t < start);
    let to = grid.partition_point(|&t| t <= stop);
    from..to.max(from)
}

/// `{"track_id":…[,"type":…][,"rid":…],"time_series":{"timestamps":[…]…}}`, the series given by
/// name in the order the service writes them.
fn push_entry(
    buf: &mut Vec<u8>,
    track: &[u8; 16],
    kind: Option<&str>,
    rid: Option<Option<&str>>,
    timestamps: &[u64],
    series: &[(&str, Vec<Num>)],
) {
    buf.extend_from_slice(b"{\"track_id\":\"");
    push_uuid(buf, track);
    buf.push(b'"');
    if let Some(kind) = kind {
        push_field(buf, "type", kind);
    }
    match rid {
        Some(Some(rid)) => push_field(buf, "rid", rid),
        Some(None) => buf.extend_from_slice(b",\"rid\":null"),
        None => {}
    }
    buf.extend_from_slice(b",\"time_series\":{\"timestamps\":[");
    for (i, ts) in timestamps.iter().enumerate() {
        if i > 0 {
            buf.push(b',');
        }
        push_u64(buf, *ts);
    }
    buf.push(b']');
    for (name, values) in series {
        push_array(buf, name, values);
    }
    buf.extend_from_slice(b"}}");
}

fn push_list(buf: &mut Vec<u8>, key: &str, entries: Vec<Vec<u8>>, first: bool) {
    if !first {
        buf.push(b',');
    }
    push_escaped(buf, key.as_bytes());
    buf.extend_from_slice(b":[");
    for (i, e) in entries.iter().enumerate() {
        if i > 0 {
            buf.push(b',');
        }
        buf.extend_from_slice(e);
    }
    buf.push(b']');
}

pub(super) fn write<W: Write>(out: W, world: &World, others: &Others, seed: u64) -> io::Result<()> {
    let mut d = Dice::stream(seed, Stream::Stats);
    let mut out = BufWriter::with_capacity(1 << 16, out);
    let mut buf = Vec::with_capacity(1 << 16);
    for peer in &others.stats {
        buf.clear();
        response(&mut buf, &mut d, world, others, peer);
        out.write_all(&buf)?;
    }
    out.flush()
}

fn response(buf: &mut Vec<u8>, d: &mut Dice, world: &World, others: &Others, sp: &StatsPeer) {
    let peer = &world.peers[sp.peer as usize];
    let session = &world.sessions[peer.session as usize];
    let room = &world.rooms[peer.room as usize];
    let joined = peer.joined.expect("stats are for peers that got in");
    let left = peer.left.unwrap_or(NOW);
    let web = world.agents[world.users[peer.user as usize].agent as usize].sdk == Sdk::Web;

    // The grid: every 10 s of Unix time within the stay, as nanoseconds of the day and as Unix ms.
    let first_ms = unix_ms(joined).div_ceil(STEP_MS) * STEP_MS;
    let grid_ms: Vec<u64> = (first_ms..=unix_ms(left))
        .step_by(STEP_MS as usize)
        .collect();
    let grid: Vec<u64> = grid_ms
        .iter()
        .map(|&ms| (ms - DAY_EPOCH_SECS * 1000) * MS)
        .collect();

    let trouble = match peer.part {
        Part::Priya if !sp.troubles.is_empty() => Trouble::Climb {
            from: sp.troubles[0] - 45 * SEC,
            errors: sp.troubles.clone(),
        },
        Part::Noise if !sp.troubles.is_empty() => Trouble::Spikes(sp.troubles.clone()),
        Part::Storm => Trouble::Settling {
            until: joined + 40 * SEC,
        },
        _ => Trouble::None,
    };
    let base = Quality {
        loss: d.range(5, 80),
        rtt_ms: d.range(25, 140),
        jitter: d.range(8, 60),
        freezes: 0,
    };
    let net: Vec<Quality> = grid.iter().map(|&t| trouble.quality(d, base, t)).collect();
    // Loss beyond a few percent costs bitrate and frames.
    let kept = |q: &Quality| 1000 - (q.loss / 5).min(800);

    buf.extend_from_slice(b"{\"peer_id\":\"");
    push_uuid(buf, &peer.id);
    buf.push(b'"');
    push_field(buf, "session_id", &session.id);
    push_field(buf, "room_id", &room.id);

    let empty = Timeline::default();
    let own = others.timelines.get(&sp.peer).unwrap_or(&empty);
    let kbps = world.video_of(peer).map_or(500, |v| u64::from(v.kbps));
    let fps = world.video_of(peer).map_or(30, |v| u64::from(v.fps));
    let mut video = Vec::new();
    let mut audio = Vec::new();
    for (i, track) in own.tracks.iter().enumerate() {
        let range = live(&grid, track.start, track.stop.unwrap_or(left));
        let ts = &grid_ms[range.clone()];
        let samples = || range.clone().map(|k| (grid[k], net[k]));
        if !track.video {
            let bitrate = samples()
                .map(|(t, q)| {
                    if own.muted_at(i as u32, t) {
                        Num::Int(d.range(800, 1600))
                    } else {
                        Num::Int(d.range(30_000, 40_000) * kept(&q) / 1000)
                    }
                })
                .collect();
            let mut entry = Vec::new();
            push_entry(
                &mut entry,
                &track.id,
                None,
                None,
                ts,
                &[
                    ("bitrate", bitrate),
                    (
                        "packet_loss_percent",
                        samples().map(|(_, q)| Num::Fixed(q.loss, 2)).collect(),
                    ),
                    (
                        "rtt_ms",
                        samples().map(|(_, q)| Num::Int(q.rtt_ms)).collect(),
                    ),
                    (
                        "jitter_ms",
                        samples().map(|(_, q)| Num::Fixed(q.jitter, 1)).collect(),
                    ),
                ],
            );
            audio.push(entry);
            continue;
        }
        let layers: &[(Option<&str>, u64, u64)] = if track.screen {
            &[(None, 900, 2)]
        } else if web {
            &[
                (Some("h"), 1000, 1),
                (Some("m"), 450, 1),
                (Some("l"), 150, 2),
            ]
        } else {
            &[(None, 1000, 1)]
        };
        for &(rid, share, fps_divisor) in layers {
            let (target, frames) = if track.screen {
                (d.range(600, 1100) * 1000, d.range(5, 15))
            } else {
                (kbps * share, fps / fps_divisor)
            };
            let mut bitrate = Vec::new();
            let mut frame_rate = Vec::new();
            for (t, q) in samples() {
                if own.muted_at(i as u32, t) {
                    bitrate.push(Num::Int(0));
                    frame_rate.push(Num::Int(0));
                } else {
                    bitrate.push(Num::Int(target * d.range(88, 102) / 100 * kept(&q) / 1000));
                    frame_rate.push(Num::Int(frames * kept(&q) / 1000));
                }
            }
            let mut entry = Vec::new();
            push_entry(
                &mut entry,
                &track.id,
                Some(if track.screen { "screen" } else { "regular" }),
                Some(rid),
                ts,
                &[
                    ("bitrate", bitrate),
                    ("fps", frame_rate),
                    (
                        "packet_loss_percent",
                        samples().map(|(_, q)| Num::Fixed(q.loss, 2)).collect(),
                    ),
                    (
                        "rtt_ms",
                        samples().map(|(_, q)| Num::Int(q.rtt_ms)).collect(),
                    ),
                ],
            );
            video.push(entry);
        }
    }
    buf.extend_from_slice(b",\"publisher\":{");
    push_list(buf, "video", video, true);
    push_list(buf, "audio", audio, false);
    buf.push(b'}');

    let mut video = Vec::new();
    let mut audio = Vec::new();
    for &remote in &sp.remotes {
        let Some(line) = others.timelines.get(&remote) else {
            continue;
        };
        let other = &world.peers[remote as usize];
        let remote_kbps = world.video_of(other).map_or(500, |v| u64::from(v.kbps));
        let remote_fps = world.video_of(other).map_or(30, |v| u64::from(v.fps));
        for (i, track) in line.tracks.iter().enumerate() {
            let stop = track.stop.unwrap_or(other.left.unwrap_or(NOW));
            // Only what was published while the peer was there to receive it.
            if track.start >= left || stop <= joined {
                continue;
            }
            let range = live(&grid, track.start, stop);
            let ts = &grid_ms[range.clone()];
            let samples = || range.clone().map(|k| (grid[k], net[k]));
            let mut entry = Vec::new();
            if track.video {
                let mut bitrate = Vec::new();
                let mut frame_rate = Vec::new();
                let mut freezes = Vec::new();
                for (t, q) in samples() {
                    let muted = line.muted_at(i as u32, t);
                    bitrate.push(if d.chance(4) {
                        Num::Null
                    } else if muted {
                        Num::Int(0)
                    } else if track.screen {
                        Num::Int(d.range(500, 1000) * kept(&q))
                    } else {
                        Num::Int(remote_kbps * d.range(85, 102) * kept(&q) / 100)
                    });
                    frame_rate.push(Num::Int(if muted {
                        0
                    } else if track.screen {
                        d.range(5, 12)
                    } else {
                        remote_fps * kept(&q) / 1000
                    }));
                    freezes.push(Num::Int(if muted { 0 } else { q.freezes }));
                }
                push_entry(
                    &mut entry,
                    &track.id,
                    Some(if track.screen { "screen" } else { "regular" }),
                    None,
                    ts,
                    &[
                        ("bitrate", bitrate),
                        ("fps", frame_rate),
                        ("freeze_count", freezes),
                    ],
                );
                video.push(entry);
            } else {
                let mut bitrate = Vec::new();
                let mut concealed = Vec::new();
                for (t, q) in samples() {
                    let muted = line.muted_at(i as u32, t);
                    bitrate.push(if d.chance(4) {
                        Num::Null
                    } else if muted {
                        Num::Int(d.range(800, 1600))
                    } else {
                        Num::Int(d.range(30_000, 40_000) * kept(&q) / 1000)
                    });
                    // 48 kHz for 10 s: one sample in a hundred per percent of loss.
                    concealed.push(Num::Int(q.loss * 48 + d.below(200)));
                }
                push_entry(
                    &mut entry,
                    &track.id,
                    None,
                    None,
                    ts,
                    &[
                        ("bitrate", bitrate),
                        ("concealed_samples", concealed),
                        (
                            "packet_loss_percent",
                            samples().map(|(_, q)| Num::Fixed(q.loss, 2)).collect(),
                        ),
                    ],
                );
                audio.push(entry);
            }
        }
    }
    buf.extend_from_slice(b",\"subscriber\":{");
    push_list(buf, "video", video, true);
    push_list(buf, "audio", audio, false);
    buf.extend_from_slice(b"}}\n");
}
