//! A peer's network around a failure, from its quality stats: what the packet loss, round-trip
//! time and jitter did in the minute before the failure, against the peer's own level earlier in
//! the session. Told in one line ("packet loss rose to 31% in the 40 s before the failure at
//! 10:02:00, from 0.4% before"), with the figures beside it for scripts. A series with no data
//! is said to be empty, never read as zero.

use crate::related::{Metric, PeerStats};
use crate::time::Zone;

const S: i64 = 1_000_000_000;

/// How far before a failure its network is looked at.
pub const BEFORE: i64 = 60 * S;

/// The metrics that tell a network going bad, in the order a summary looks at them.
const TELLING: [Metric; 3] = [Metric::PacketLoss, Metric::Rtt, Metric::Jitter];

/// One metric around a failure.
#[derive(Debug, Clone, PartialEq)]
pub struct Around {
    pub metric: Metric,
    /// The track it was read on: `publish video h`, `subscribe audio`.
    pub track: String,
    /// The highest value in the minute before the failure, and when it was seen.
    pub peak: f64,
    pub peak_at: i64,
    /// The median of the session's values before that minute, when there were any.
    pub before: Option<f64>,
    /// How many points the minute held.
    pub points: usize,
}

/// The network around one failure.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Each telling metric that had data in the minute before, on the track where it peaked.
    pub metrics: Vec<Around>,
    /// The metrics whose series were empty on every track.
    pub empty: Vec<Metric>,
    pub sentence: String,
}

/// The network of `stats` around a failure at `at` (nanoseconds). The publisher's tracks come
/// first for a publish failure or a disconnect, the subscriber's for a subscribe failure. The
/// sentence names the failure's time of day in `zone`.
pub fn around(stats: &PeerStats, at: i64, subscribing: bool, zone: Zone) -> Summary {
    let from = at - BEFORE;
    let mut metrics = Vec::new();
    let mut empty = Vec::new();
    let preferred = if subscribing { "subscribe" } else { "publish" };
    for metric in TELLING {
        let has_data = |side: &str| {
            stats
                .tracks()
                .any(|(s, _, t)| s == side && !t.time_series.points(metric).is_empty())
        };
        // The other side's tracks are read only when this side has no data of the metric.
        let side = if has_data(preferred) {
            preferred
        } else if preferred == "publish" {
            "subscribe"
        } else {
            "publish"
        };
        if !has_data(side) {
            empty.push(metric);
            continue;
        }
        let mut best: Option<Around> = None;
        for (_, kind, track) in stats.tracks().filter(|(s, ..)| *s == side) {
            let points = track.time_series.points(metric);
            let in_minute: Vec<(i64, f64)> = points
                .iter()
                .map(|&(ms, v)| (ms.saturating_mul(1_000_000), v))
                .filter(|&(t, _)| t >= from && t <= at)
                .collect();
            let Some(&(peak_at, peak)) = in_minute
                .iter()
                .max_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(std::cmp::Ordering::Equal))
            else {
                continue;
            };
            let mut earlier: Vec<f64> = points
                .iter()
                .filter(|&&(ms, _)| ms.saturating_mul(1_000_000) < from)
                .map(|&(_, v)| v)
                .collect();
            earlier.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
            let before = (!earlier.is_empty()).then(|| earlier[earlier.len() / 2]);
            let candidate = Around {
                metric,
                track: format!("{side} {}", track.name(kind)),
                peak,
                peak_at,
                before,
                points: in_minute.len(),
            };
            if best.as_ref().is_none_or(|b| candidate.peak > b.peak) {
                best = Some(candidate);
            }
        }
        metrics.extend(best);
    }
    let sentence = sentence(&metrics, &empty, at, zone);
    Summary {
        metrics,
        empty,
        sentence,
    }
}

/// The line: the metric that rose most against its own earlier level, or what was flat, or
/// what is missing.
fn sentence(metrics: &[Around], empty: &[Metric], at: i64, zone: Zone) -> String {
    let rise = |a: &Around| match a.before {
        Some(b) if b > 0.0 => a.peak / b,
        Some(_) if a.peak > 0.0 => f64::INFINITY,
        _ => 1.0,
    };
    let notable = metrics
        .iter()
        .filter(|a| rise(a) >= 2.0 && significant(a))
        .max_by(|a, b| {
            rise(a)
                .partial_cmp(&rise(b))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
    let when = zone.clock(at);
    match notable {
        Some(a) => {
            let lead = (at - a.peak_at).max(0) / S;
            let lead = if lead == 0 {
                "by the failure".to_string()
            } else {
                format!("in the {lead} s before the failure")
            };
            format!(
                "{} rose to {} {lead} at {when}, from {} before ({})",
                name(a.metric),
                value(a.metric, a.peak),
                a.before.map_or("-".into(), |b| value(a.metric, b)),
                a.track
            )
        }
        None if metrics.is_empty() && empty.len() == TELLING.len() => {
            "the quality series are empty: no packet loss, RTT or jitter data".to_string()
        }
        None if metrics.is_empty() => format!("no quality data in the minute before {when}"),
        None => {
            let flat: Vec<String> = metrics
                .iter()
                .map(|a| format!("{} at most {}", name(a.metric), value(a.metric, a.peak)))
                .collect();
            format!("no rise in the minute before {when}: {}", flat.join(", "))
        }
    }
}

/// Whether a peak is worth telling: a loss of a percent or more, a round trip of 150 ms or
/// more, a jitter of 30 ms or more (below those, calls go on unharmed).
fn significant(a: &Around) -> bool {
    match a.metric {
        Metric::PacketLoss => a.peak >= 1.0,
        Metric::Rtt => a.peak >= 150.0,
        Metric::Jitter => a.peak >= 30.0,
        _ => true,
    }
}

fn name(metric: Metric) -> &'static str {
    match metric {
        Metric::PacketLoss => "packet loss",
        Metric::Rtt => "round-trip time",
        Metric::Jitter => "jitter",
        Metric::Bitrate => "bitrate",
        Metric::Fps => "frame rate",
        Metric::Freezes => "freezes",
        Metric::Concealed => "concealed samples",
    }
}

fn value(metric: Metric, v: f64) -> String {
    match metric {
        Metric::PacketLoss => format!("{}%", trim(v)),
        Metric::Rtt | Metric::Jitter => format!("{} ms", trim(v)),
        _ => trim(v),
    }
}

/// A number with at most one decimal, none when whole.
fn trim(v: f64) -> String {
    if (v - v.round()).abs() < 0.05 {
        format!("{}", v.round() as i64)
    } else {
        format!("{v:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::parse_rfc3339_nanos;

    fn t(text: &str) -> i64 {
        parse_rfc3339_nanos(&format!("2026-11-18T{text}Z")).unwrap()
    }

    fn ms(text: &str) -> i64 {
        t(text) / 1_000_000
    }

    fn stats(loss: &[(&str, Option<f64>)], rtt: &[(&str, f64)]) -> PeerStats {
        let times: Vec<i64> = loss.iter().map(|(at, _)| ms(at)).collect();
        let losses: Vec<Option<f64>> = loss.iter().map(|(_, v)| *v).collect();
        let rtts: Vec<f64> = rtt.iter().map(|(_, v)| *v).collect();
        let json = serde_json::json!({
            "peer_id": "p", "session_id": "s", "room_id": "r",
            "publisher": {
                "video": [{"track_id": "v", "type": "regular", "rid": "h",
                           "time_series": {"timestamps": times, "packet_loss_percent": losses, "rtt_ms": rtts, "bitrate": []}}],
                "audio": []
            },
            "subscriber": {"video": [], "audio": []}
        });
        PeerStats::parse(&json.to_string()).unwrap()
    }

    #[test]
    fn a_loss_that_climbs_before_the_failure_is_told_against_its_earlier_level() {
        let s = stats(
            &[
                ("10:00:00", Some(0.4)),
                ("10:00:30", Some(0.5)),
                ("10:01:10", Some(3.0)),
                ("10:01:20", Some(31.0)),
                ("10:01:50", Some(12.0)),
                ("10:02:10", Some(1.0)),
            ],
            &[
                ("10:00:00", 40.0),
                ("10:00:30", 45.0),
                ("10:01:10", 60.0),
                ("10:01:20", 80.0),
                ("10:01:50", 90.0),
                ("10:02:10", 40.0),
            ],
        );
        let summary = around(&s, t("10:02:00"), false, Zone::Utc);
        assert_eq!(
            summary.sentence,
            "packet loss rose to 31% in the 40 s before the failure at 10:02:00, from 0.5% before (publish video h)"
        );
        let loss = &summary.metrics[0];
        assert_eq!((loss.peak, loss.points), (31.0, 3));
        assert!(
            summary.empty.contains(&Metric::Jitter),
            "{:?}",
            summary.empty
        );
    }

    #[test]
    fn a_quiet_network_and_an_empty_one_are_said_so_not_drawn_as_zero() {
        let calm = stats(
            &[("10:01:10", Some(0.2)), ("10:01:40", Some(0.3))],
            &[("10:01:10", 40.0), ("10:01:40", 41.0)],
        );
        let summary = around(&calm, t("10:02:00"), false, Zone::Utc);
        assert!(
            summary
                .sentence
                .starts_with("no rise in the minute before 10:02:00"),
            "{}",
            summary.sentence
        );
        let empty = stats(&[], &[]);
        assert_eq!(
            around(&empty, t("10:02:00"), false, Zone::Utc).sentence,
            "the quality series are empty: no packet loss, RTT or jitter data"
        );
        // Gaps (null) are no points.
        let gaps = stats(&[("10:01:10", None)], &[("10:01:10", 40.0)]);
        let s = around(&gaps, t("10:02:00"), false, Zone::Utc);
        assert!(s.metrics.iter().all(|a| a.metric != Metric::PacketLoss));
        // Data elsewhere in the session but not in the minute before.
        let earlier = stats(&[("09:30:00", Some(5.0))], &[("09:30:00", 40.0)]);
        assert_eq!(
            around(&earlier, t("10:02:00"), false, Zone::Utc).sentence,
            "no quality data in the minute before 10:02:00"
        );
    }
}
