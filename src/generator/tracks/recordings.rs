//! The recordings of the dataset: a recorder peer in each long enough session of a room whose
//! template records, and the `beam.recording.success` event it leaves.

use super::{Others, Recording};
use crate::generator::catalog::{DAY_END, DAY_START, MIN, MS, SEC, TEMPLATES};
use crate::generator::dice::Dice;
use crate::generator::json::{DAY_EPOCH_SECS, NS, object_id};
use crate::generator::world::{Part, RECORDER_ROLE, World};

/// The recordings of ended sessions, in rooms whose template records, up to `count`: the recorder
/// joins a minute or two after the session starts and stops shortly before it ends.
pub(super) fn recordings(side: &mut Dice, world: &mut World, others: &mut Others, count: usize) {
    let mut recorder_users: [Option<u32>; 2] = [None, None];
    for s in 0..world.sessions.len() {
        if others.recordings.len() >= count {
            break;
        }
        let session = &world.sessions[s];
        let room = &world.rooms[session.room as usize];
        let Some(end) = session.end else { continue };
        if !TEMPLATES[room.template].records || end - session.start < 10 * MIN {
            continue;
        }
        let started = session.start + side.range(60, 180) * SEC + side.below(SEC);
        let stopped = end - side.range(5, 60) * SEC - side.below(SEC);
        let created = stopped + side.range(3, 6) * SEC + side.below(SEC);
        let t = created + side.range(300, 800) * MS + side.below(MS);
        if stopped < started + MIN || !(DAY_START..DAY_END).contains(&t) {
            continue;
        }
        let (account, room_index) = (room.account, session.room as usize);
        let user = *recorder_users[account].get_or_insert_with(|| {
            world.add_user(side, account, 0, Some(("beam", "Beam Recorder")))
        });
        let peer = world.add_peer(side, user, room_index, RECORDER_ROLE, Part::Recorder);
        let joined = started - side.range(2, 5) * SEC;
        world.set_presence(peer, joined, stopped + side.range(1, 3) * SEC);
        world.peers[peer as usize].session = s as u32;
        let peers = &world.peers;
        let list = &mut world.sessions[s].peers;
        let at = list.partition_point(|&q| peers[q as usize].joined <= Some(joined));
        list.insert(at, peer);
        let duration = (stopped - started) / NS;
        others.recordings.push(Recording {
            session: s as u32,
            peer,
            beam_id: object_id(DAY_EPOCH_SECS + started / NS, side.bytes()).into_boxed_str(),
            started,
            stopped,
            created,
            t,
            size: duration * side.range(90_000, 260_000),
            signature: side.bytes(),
        });
    }
}
