//! The peers that get quality stats, with the tracks they publish and receive, chosen so that
//! stats and track events name the same tracks.

use std::collections::HashMap;

use super::{Errors, Others, StatsPeer, timeline};
use crate::generator::catalog::{NOW, SEC};
use crate::generator::dice::Dice;
use crate::generator::schedule::{Code, Kind, Plan, Story};
use crate::generator::world::{NO_SESSION, Outcome, Part, World};

/// Peers whose stories need their network: Priya; storm peers that got in (one of them for a few
/// seconds only, so its series are empty; most of them only watch, so their publisher lists are
/// empty); disconnect-cluster peers of each outcome; noise peers with ICE failures.
pub(super) fn choose_stats(
    side: &mut Dice,
    world: &World,
    plans: &[Plan],
    others: &mut Others,
    errors: &HashMap<u32, Errors>,
    events: usize,
) {
    let ended = |p: u32| {
        let peer = &world.peers[p as usize];
        peer.joined.is_some()
            && peer.session != NO_SESSION
            && world.sessions[peer.session as usize].end.is_some()
    };
    let mut ice: HashMap<u32, Vec<u64>> = HashMap::new();
    for p in plans.iter().filter(|p| {
        matches!(p.kind, Kind::Publish | Kind::Subscribe)
            && matches!(p.code, Code::IceDisconnected | Code::IceFailure)
            && matches!(p.story, Story::Noise | Story::Priya)
    }) {
        ice.entry(p.who).or_default().push(p.t);
    }
    let of = |part: fn(Part) -> bool| -> Vec<u32> {
        (0..world.peers.len() as u32)
            .filter(|&p| part(world.peers[p as usize].part) && ended(p))
            .collect()
    };

    let mut peers: Vec<u32> = of(|p| p == Part::Priya);
    let storm = of(|p| p == Part::Storm);
    let k_storm = (events / 400).clamp(1, 60);
    let brief = storm.iter().copied().find(|&p| {
        let peer = &world.peers[p as usize];
        peer.left
            .zip(peer.joined)
            .is_some_and(|(l, j)| l - j < 10 * SEC)
    });
    let publisher = storm
        .iter()
        .copied()
        .find(|&p| world.video_of(&world.peers[p as usize]).is_some());
    let mut picked: Vec<u32> = brief.into_iter().chain(publisher).collect();
    picked.extend(
        storm
            .iter()
            .copied()
            .filter(|p| Some(*p) != brief && Some(*p) != publisher)
            .take(k_storm.saturating_sub(picked.len())),
    );
    peers.extend(picked);

    let k_disconnect = (events / 300).clamp(1, 80);
    let by_outcome: Vec<Vec<u32>> = [Outcome::Stayed, Outcome::Rejoined, Outcome::Left]
        .into_iter()
        .map(|o| {
            of(|p| matches!(p, Part::DisconnectCluster(_)))
                .into_iter()
                .filter(|&p| world.peers[p as usize].part == Part::DisconnectCluster(o))
                .collect()
        })
        .collect();
    let mut taken = 0;
    for round in 0.. {
        let mut any = false;
        for list in &by_outcome {
            if let Some(&p) = list.get(round) {
                if taken < k_disconnect {
                    peers.push(p);
                    taken += 1;
                }
                any = true;
            }
        }
        if !any || taken >= k_disconnect {
            break;
        }
    }

    let k_noise = (events / 600).clamp(1, 40);
    peers.extend(
        of(|p| p == Part::Noise)
            .into_iter()
            .filter(|p| ice.contains_key(p))
            .take(k_noise),
    );

    for peer in peers {
        let p = &world.peers[peer as usize];
        let session = &world.sessions[p.session as usize];
        let (joined, left) = (p.joined.unwrap_or(0), p.left.unwrap_or(NOW));
        let mut candidates: Vec<u32> = session
            .peers
            .iter()
            .copied()
            .filter(|&q| {
                let other = &world.peers[q as usize];
                q != peer
                    && world.video_of(other).is_some()
                    && other.joined.is_some_and(|j| j < left)
                    && other.left.is_none_or(|l| l > joined)
            })
            .collect();
        // The host first: it is the one everybody watches.
        candidates.sort_by_key(|&q| (world.peers[q as usize].role != 0, q));
        candidates.truncate(2);
        for &q in std::iter::once(&peer).chain(&candidates) {
            others
                .timelines
                .entry(q)
                .or_insert_with(|| timeline(side, world, q, errors.get(&q).copied()));
        }
        let mut troubles = ice.get(&peer).cloned().unwrap_or_default();
        troubles.sort_unstable();
        others.stats.push(StatsPeer {
            peer,
            remotes: candidates,
            troubles,
        });
    }
}
