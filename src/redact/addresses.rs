//! IP addresses in text, and the pseudonyms that stand for them: a pseudonym keeps the kind of
//! address (IPv4 or IPv6, private or public) so that patterns read the same.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use super::{Pool, after_version_key};

pub(super) fn pool_of(ip: IpAddr) -> Pool {
    match ip {
        IpAddr::V4(v4) => {
            if is_local_v4(v4) {
                Pool::LocalV4
            } else {
                Pool::PublicV4
            }
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return if is_local_v4(v4) {
                    Pool::LocalV6
                } else {
                    Pool::PublicV6
                };
            }
            let first = v6.segments()[0];
            let local = v6.is_loopback()
                || v6.is_unspecified()
                || first & 0xffc0 == 0xfe80
                || first & 0xfe00 == 0xfc00;
            if local { Pool::LocalV6 } else { Pool::PublicV6 }
        }
    }
}

pub(super) fn is_local_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    ip.is_private()
        || ip.is_loopback()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || (a == 100 && (64..128).contains(&b))
}

/// The n-th pseudonym of a pool (n from 1).
pub(super) fn pseudonym_address(pool: Pool, n: u64) -> IpAddr {
    match pool {
        Pool::PublicV4 | Pool::LocalV4 => {
            let base: u32 = if matches!(pool, Pool::PublicV4) {
                u32::from(Ipv4Addr::new(198, 18, 0, 0))
            } else {
                u32::from(Ipv4Addr::new(198, 19, 0, 0))
            };
            if n < 1 << 16 {
                IpAddr::V4(Ipv4Addr::from(base + n as u32))
            } else {
                // Past 65535 addresses of one kind: the reserved 240.0.0.0/4, which no host uses.
                let spill = u32::from(Ipv4Addr::new(240, 0, 0, 0)) + (n as u32 & 0x0fff_ffff);
                IpAddr::V4(Ipv4Addr::from(
                    spill
                        + if matches!(pool, Pool::LocalV4) {
                            1 << 27
                        } else {
                            0
                        },
                ))
            }
        }
        Pool::PublicV6 | Pool::LocalV6 => {
            let group = if matches!(pool, Pool::PublicV6) { 1 } else { 2 };
            IpAddr::V6(Ipv6Addr::new(
                0x2001,
                0xdb8,
                group,
                0,
                (n >> 48) as u16,
                (n >> 32) as u16,
                (n >> 16) as u16,
                n as u16,
            ))
        }
    }
}

pub(super) fn is_address_byte(b: u8) -> bool {
    b.is_ascii_hexdigit() || b == b'.' || b == b':'
}

pub(super) fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The IPv4 and IPv6 addresses in a text, as (start, end, address), in order. An address stands
/// on its own: not glued to letters or digits (`10.0.0.5:61213`, `[2001:db8::1]:443` and
/// `fe80::1%eth0` are found; `v1.2.3.4x` is not), and not as the value of a version in an agent
/// string (`os_version:10.0.1.2`).
pub fn find_addresses(s: &str) -> Vec<(usize, usize, IpAddr)> {
    let b = s.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !is_address_byte(b[i]) || (i > 0 && is_word_byte(b[i - 1])) {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < b.len() && is_address_byte(b[j]) {
            j += 1;
        }
        if j < b.len() && is_word_byte(b[j]) {
            i += 1;
            continue;
        }
        match address_at(&s[i..j]) {
            Some((len, _)) if after_version_key(b, i) => i += len,
            Some((len, ip)) => {
                found.push((i, i + len, ip));
                i += len;
            }
            None => i += 1,
        }
    }
    found
}

/// The address a run of address characters starts with: all of it, or all of it but trailing
/// dots and colons (the end of a sentence), or an IPv4 address before a `:port`.
pub(super) fn address_at(run: &str) -> Option<(usize, IpAddr)> {
    if !run.bytes().any(|c| c.is_ascii_digit()) {
        return None;
    }
    if let Ok(ip) = run.parse::<IpAddr>() {
        return Some((run.len(), ip));
    }
    let trimmed = run.trim_end_matches(['.', ':']);
    if let Ok(ip) = trimmed.parse::<IpAddr>() {
        return Some((trimmed.len(), ip));
    }
    let (host, port) = trimmed.rsplit_once(':')?;
    if host.contains(':') || port.is_empty() || !port.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    host.parse::<Ipv4Addr>()
        .ok()
        .map(|ip| (host.len(), IpAddr::V4(ip)))
}
