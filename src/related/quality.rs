//! A peer's quality stats in a session, as the peer quality stats endpoint gives them: for each
//! published and subscribed track, time series of bitrate, frame rate, packet loss, round-trip
//! time, jitter, freezes and concealed samples. Empty series stay empty (never read as zero), and
//! a `null` in a series stays a gap.

use std::collections::BTreeMap;

use serde::Deserialize;

/// One peer's stats in one session.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct PeerStats {
    pub peer_id: String,
    pub session_id: String,
    #[serde(default)]
    pub room_id: Option<String>,
    #[serde(default)]
    pub publisher: Side,
    #[serde(default)]
    pub subscriber: Side,
    /// The object as it arrived.
    #[serde(skip)]
    pub raw: String,
}

/// What the peer published, or what it received.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Side {
    #[serde(default, deserialize_with = "list_or_null")]
    pub video: Vec<TrackSeries>,
    #[serde(default, deserialize_with = "list_or_null")]
    pub audio: Vec<TrackSeries>,
}

/// One track's series (for published video, one per simulcast layer).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct TrackSeries {
    #[serde(default)]
    pub track_id: Option<String>,
    /// `regular` or `screen`, for video.
    #[serde(default, rename = "type")]
    pub source: Option<String>,
    /// The simulcast layer of published video: `h`, `m`, `l`, or none.
    #[serde(default)]
    pub rid: Option<String>,
    #[serde(default)]
    pub time_series: Series,
}

/// Parallel arrays: `timestamps` (unix milliseconds) and one array per metric.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Series {
    #[serde(default)]
    pub timestamps: Vec<i64>,
    /// Every other array, by name: read as numbers when asked for ([`Series::points`]), so that
    /// a field the reader does not know cannot make the whole response unreadable.
    #[serde(flatten)]
    pub metrics: BTreeMap<String, serde_json::Value>,
}

/// The metrics a series may hold, by their names in the response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Metric {
    PacketLoss,
    Rtt,
    Jitter,
    Bitrate,
    Fps,
    Freezes,
    Concealed,
}

impl Metric {
    pub const ALL: [Metric; 7] = [
        Metric::PacketLoss,
        Metric::Rtt,
        Metric::Jitter,
        Metric::Bitrate,
        Metric::Fps,
        Metric::Freezes,
        Metric::Concealed,
    ];

    /// The array's name in a time series.
    pub fn key(self) -> &'static str {
        match self {
            Metric::PacketLoss => "packet_loss_percent",
            Metric::Rtt => "rtt_ms",
            Metric::Jitter => "jitter_ms",
            Metric::Bitrate => "bitrate",
            Metric::Fps => "fps",
            Metric::Freezes => "freeze_count",
            Metric::Concealed => "concealed_samples",
        }
    }

    /// How people name it, with its unit.
    pub fn label(self) -> &'static str {
        match self {
            Metric::PacketLoss => "packet loss %",
            Metric::Rtt => "RTT ms",
            Metric::Jitter => "jitter ms",
            Metric::Bitrate => "bitrate kbit/s",
            Metric::Fps => "fps",
            Metric::Freezes => "freezes",
            Metric::Concealed => "concealed samples",
        }
    }
}

impl Series {
    /// The points of a metric as (unix ms, value), gaps (`null`) left out; empty when the series
    /// has no such metric or no data.
    pub fn points(&self, metric: Metric) -> Vec<(i64, f64)> {
        let Some(serde_json::Value::Array(values)) = self.metrics.get(metric.key()) else {
            return Vec::new();
        };
        self.timestamps
            .iter()
            .zip(values)
            .filter_map(|(&t, v)| v.as_f64().map(|v| (t, v)))
            .collect()
    }
}

impl TrackSeries {
    /// How the track is named on a chart: `video h`, `screen`, `audio`.
    pub fn name(&self, kind: &str) -> String {
        let mut name = match self.source.as_deref() {
            Some("screen") => "screen".to_string(),
            _ => kind.to_string(),
        };
        if let Some(rid) = &self.rid {
            name.push(' ');
            name.push_str(rid);
        }
        name
    }
}

impl PeerStats {
    pub fn parse(raw: &str) -> Result<PeerStats, String> {
        let mut stats: PeerStats = serde_json::from_str(raw).map_err(|e| e.to_string())?;
        stats.raw = raw.to_string();
        Ok(stats)
    }

    /// Every track's series, with the side and kind it is on: (`publish`|`subscribe`,
    /// `video`|`audio`, series).
    pub fn tracks(&self) -> impl Iterator<Item = (&'static str, &'static str, &TrackSeries)> {
        fn side<'a>(
            name: &'static str,
            s: &'a Side,
        ) -> impl Iterator<Item = (&'static str, &'static str, &'a TrackSeries)> {
            s.video
                .iter()
                .map(move |t| (name, "video", t))
                .chain(s.audio.iter().map(move |t| (name, "audio", t)))
        }
        side("publish", &self.publisher).chain(side("subscribe", &self.subscriber))
    }
}

fn list_or_null<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Vec<T>, D::Error> {
    Ok(Option::<Vec<T>>::deserialize(d)?.unwrap_or_default())
}
