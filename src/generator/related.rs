//! The rooms and sessions endpoints' answers about the generated world, in the field order of the
//! service's samples, times with milliseconds as those endpoints write them. Each is one list
//! response holding everything, its `limit` the number of items (as `list --output DIR/` writes
//! them).

use std::io::{self, BufWriter, Write};

use super::catalog::{ACCOUNTS, REGIONS, ROOM_DESCRIPTIONS, ROOMS, STORM_ROOM, TEMPLATES};
use super::json::{push_escaped, push_field, push_time_ms, push_u64, push_uuid};
use super::world::World;

/// Unix milliseconds as RFC 3339 with milliseconds, for times outside the fixed day.
fn push_date_ms(buf: &mut Vec<u8>, unix_ms: i64) {
    let at = chrono::DateTime::from_timestamp_millis(unix_ms).unwrap_or_default();
    buf.extend_from_slice(at.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string().as_bytes());
}

/// `GET /v2/rooms`: every room, newest first. A room's creation time is the one its id carries.
pub(super) fn write_rooms<W: Write>(out: W, world: &World) -> io::Result<()> {
    let mut out = BufWriter::new(out);
    let created = |id: &str| -> i64 {
        let secs = i64::from_str_radix(&id[..8], 16).unwrap_or(0);
        let millis = i64::from_str_radix(&id[21..], 16).unwrap_or(0) % 1000;
        secs * 1000 + millis
    };
    let mut order: Vec<usize> = (0..world.rooms.len()).collect();
    order.sort_by_key(|&r| (std::cmp::Reverse(created(&world.rooms[r].id)), r));
    let mut buf = Vec::with_capacity(1024);
    buf.extend_from_slice(b"{\"limit\":");
    push_u64(&mut buf, order.len() as u64);
    buf.extend_from_slice(b",\"data\":[");
    for (n, &r) in order.iter().enumerate() {
        let room = &world.rooms[r];
        let template = &TEMPLATES[room.template];
        if n > 0 {
            buf.push(b',');
        }
        buf.extend_from_slice(b"{\"id\":");
        push_escaped(&mut buf, room.id.as_bytes());
        push_field(&mut buf, "name", &room.name);
        buf.extend_from_slice(b",\"enabled\":true");
        push_field(&mut buf, "description", ROOM_DESCRIPTIONS[r % ROOMS.len()]);
        push_field(&mut buf, "customer_id", ACCOUNTS[room.account]);
        buf.extend_from_slice(
            b",\"recording_source_template\":false,\"recording_info\":{\"enabled\":",
        );
        buf.extend_from_slice(if template.records { b"true" } else { b"false" });
        buf.push(b'}');
        push_field(&mut buf, "template_id", template.id);
        push_field(&mut buf, "template", template.name);
        push_field(&mut buf, "region", REGIONS[room.account]);
        let at = created(&room.id);
        buf.extend_from_slice(b",\"created_at\":\"");
        push_date_ms(&mut buf, at);
        buf.push(b'"');
        push_field(
            &mut buf,
            "key",
            &format!("{}:{}", ACCOUNTS[room.account], room.name),
        );
        // Last edited some days after it was made.
        let edited = at + (at.rem_euclid(17) + 1) * 86_400_000 + at.rem_euclid(86_399_000);
        buf.extend_from_slice(b",\"updated_at\":\"");
        push_date_ms(&mut buf, edited);
        buf.push(b'"');
        if r == STORM_ROOM {
            buf.extend_from_slice(b",\"large_room\":true,\"size\":2500");
        } else {
            buf.extend_from_slice(b",\"large_room\":false");
        }
        buf.extend_from_slice(b",\"max_duration_seconds\":");
        push_u64(&mut buf, if template.records { 14_400 } else { 7_200 });
        buf.push(b'}');
        out.write_all(&buf)?;
        buf.clear();
    }
    buf.extend_from_slice(b"],\"last\":");
    let last = order.last().map_or("", |&r| &*world.rooms[r].id);
    push_escaped(&mut buf, last.as_bytes());
    buf.extend_from_slice(b"}\n");
    out.write_all(&buf)?;
    out.flush()
}

/// `GET /v2/sessions`: every session of every room, newest first; each lists its peers by join
/// time, without `left_at` for those still in.
pub(super) fn write_sessions<W: Write>(out: W, world: &World) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(1 << 16, out);
    let mut order: Vec<usize> = (0..world.sessions.len()).collect();
    order.sort_by_key(|&s| (std::cmp::Reverse(world.sessions[s].start), s));
    let mut buf = Vec::with_capacity(1 << 12);
    buf.extend_from_slice(b"{\"limit\":");
    push_u64(&mut buf, order.len() as u64);
    buf.extend_from_slice(b",\"data\":[");
    for (n, &s) in order.iter().enumerate() {
        let session = &world.sessions[s];
        let room = &world.rooms[session.room as usize];
        if n > 0 {
            buf.push(b',');
        }
        buf.extend_from_slice(b"{\"id\":");
        push_escaped(&mut buf, session.id.as_bytes());
        push_field(&mut buf, "room_id", &room.id);
        push_field(&mut buf, "customer_id", ACCOUNTS[room.account]);
        buf.extend_from_slice(if session.end.is_none() {
            b",\"active\":true,\"peers\":{"
        } else {
            b",\"active\":false,\"peers\":{"
        });
        for (i, &p) in session.peers.iter().enumerate() {
            let peer = &world.peers[p as usize];
            let user = &world.users[peer.user as usize];
            if i > 0 {
                buf.push(b',');
            }
            buf.push(b'"');
            push_uuid(&mut buf, &peer.id);
            buf.extend_from_slice(b"\":{\"id\":\"");
            push_uuid(&mut buf, &peer.id);
            buf.push(b'"');
            push_field(&mut buf, "session_id", &session.id);
            buf.extend_from_slice(b",\"name\":");
            buf.extend_from_slice(&user.name);
            push_field(&mut buf, "role", world.role_name(peer));
            buf.extend_from_slice(b",\"user_id\":");
            buf.extend_from_slice(&user.id);
            buf.extend_from_slice(b",\"joined_at\":\"");
            push_time_ms(&mut buf, peer.joined.expect("a session's peers joined it"));
            buf.push(b'"');
            if let Some(left) = peer.left {
                buf.extend_from_slice(b",\"left_at\":\"");
                push_time_ms(&mut buf, left);
                buf.push(b'"');
            }
            buf.push(b'}');
        }
        buf.extend_from_slice(b"},\"created_at\":\"");
        push_time_ms(&mut buf, session.start);
        buf.extend_from_slice(b"\",\"updated_at\":\"");
        push_time_ms(&mut buf, session.updated);
        buf.extend_from_slice(b"\"}");
        out.write_all(&buf)?;
        buf.clear();
    }
    buf.extend_from_slice(b"],\"last\":");
    let last = order.last().map_or("", |&s| &*world.sessions[s].id);
    push_escaped(&mut buf, last.as_bytes());
    buf.extend_from_slice(b"}\n");
    out.write_all(&buf)?;
    out.flush()
}
