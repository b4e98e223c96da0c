//! A peer's network in a session (`Q` in a story or on an event): its quality stats drawn over
//! the session's time, publish and subscribe side by side (packet loss, round-trip time,
//! jitter, bitrate, freezes), each track and simulcast layer a line of its own, the peer's
//! errors marked on the time axis, and the one-line summary around the failure. A series with
//! no points is said to be empty, never drawn as zero. Live, the stats are asked for on the key
//! only; the endpoint answers once the session has ended, and its refusal is shown as it came.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, Borders, Chart, Dataset, GraphType, Paragraph, Wrap};

use super::help::HelpPanel;
use super::{Focus, Handled};
use crate::insight::around;
use crate::related::{Metric, PeerStats};
use crate::store::NO_TIME;
use crate::text::{display_width, for_terminal};
use crate::tui::action::Command;
use crate::tui::keymap::Mode;
use crate::tui::model::{Asked, Model};

/// The metrics drawn, top to bottom.
pub const DRAWN: [Metric; 5] = [
    Metric::PacketLoss,
    Metric::Rtt,
    Metric::Jitter,
    Metric::Bitrate,
    Metric::Freezes,
];

/// The sides drawn, left to right.
const SIDES: [&str; 2] = ["publish", "subscribe"];

/// Colours of a chart's tracks, in turn.
const TRACK_COLOURS: [Color; 5] = [
    Color::Cyan,
    Color::Magenta,
    Color::Yellow,
    Color::Blue,
    Color::Green,
];

/// The quality view: whose network, in which session, and the errors to mark.
#[derive(Debug)]
pub struct QualityPanel {
    pub peer_id: String,
    pub session_id: String,
    /// The time of the failure the summary is told around (the focused error's, else the
    /// peer's last error in the session).
    pub at: Option<i64>,
    /// Whether that failure was a subscribe failure (the summary reads the subscriber's side).
    pub subscribing: bool,
    /// The peer's errors in the session: their times, to mark on the time axis.
    pub errors: Vec<i64>,
    /// Where the keyboard goes back to.
    pub back: Box<Focus>,
}

/// Opens the view for the peer of `event`, in its session (or `session`, the one the chain's
/// verdict found); says why not when the event has no peer or no session is known.
pub fn open(
    model: &mut Model,
    event: Option<usize>,
    session: Option<String>,
    back: Focus,
) -> Handled {
    let Some(i) = event else {
        model.status = Some("no event selected: its peer's network cannot be shown".into());
        return Handled::to(back);
    };
    let store = &model.events.store;
    let row = store.row(i);
    if row.peer_id.is_none() {
        model.status = Some("this event has no peer_id: no peer's network to show".into());
        return Handled::to(back);
    }
    let peer_id = store.str(row.peer_id).to_string();
    let own = row.session_id;
    let session_id = if own.is_none() {
        // The chain's session (the one its verdict found), else the only session the peer has
        // stats in.
        let session = session.or_else(|| {
            super::detail::verdict_of(store, &model.beside, i, model.panes.zone)
                .and_then(|v| v.session_id)
        });
        session.or_else(|| {
            let mut found = model
                .beside
                .data
                .stats
                .iter()
                .filter(|s| s.peer_id == peer_id)
                .map(|s| s.session_id.clone());
            match (found.next(), found.next()) {
                (Some(one), None) => Some(one),
                _ => None,
            }
        })
    } else {
        Some(store.str(own).to_string())
    };
    let Some(session_id) = session_id else {
        model.status = Some(
            "this event names no session_id, and no session of its peer is known: the \
             quality stats are kept per session"
                .into(),
        );
        return Handled::to(back);
    };
    // The peer's errors in the session, to mark; the summary is told around the focused one
    // when it is an error, else around the last.
    let kinds = crate::insight::Kinds::of(store);
    let mut errors: Vec<(i64, usize)> = store
        .rows_of_peer(row.peer_id)
        .into_iter()
        .map(|e| (e as usize, store.row(e as usize)))
        .filter(|(_, r)| kinds.is_error(r.kind) && r.ts != NO_TIME)
        .filter(|(_, r)| r.session_id.is_none() || store.str(r.session_id) == session_id)
        .map(|(e, r)| (r.ts, e))
        .collect();
    errors.sort_unstable();
    let around_event = if kinds.is_error(row.kind) && row.ts != NO_TIME {
        Some(i)
    } else {
        errors.last().map(|&(_, e)| e)
    };
    let at = around_event.map(|e| store.row(e).ts);
    let subscribing =
        around_event.is_some_and(|e| store.str(store.row(e).kind) == "client.subscribe.failed");
    let effects = crate::tui::update::related::ask_stats(model, &peer_id, &session_id);
    Handled::Done(
        Focus::Quality(QualityPanel {
            peer_id,
            session_id,
            at,
            subscribing,
            errors: errors.into_iter().map(|(t, _)| t).collect(),
            back: Box::new(back),
        }),
        effects,
    )
}

/// A command with the keyboard on the quality view: back, the help, or asking again (live,
/// after a refusal: the session may have ended since).
pub fn handle(q: QualityPanel, model: &mut Model, c: Command) -> Handled {
    match c {
        Command::Cancel | Command::ShowQuality => Handled::to(*q.back),
        Command::Rerun => {
            let effects = crate::tui::update::related::ask_stats(model, &q.peer_id, &q.session_id);
            if effects.is_empty() {
                model.status = Some(if model.session.live.is_some() {
                    "the quality stats are at hand, or already asked for".into()
                } else {
                    "these stats come from files: there is no service to ask".into()
                });
            }
            Handled::Done(Focus::Quality(q), effects)
        }
        Command::ToggleHelp => Handled::to(Focus::Help(HelpPanel::over(Focus::Quality(q)))),
        Command::ToggleLocalTime => {
            super::list::toggle_zone(model);
            Handled::to(Focus::Quality(q))
        }
        _ => Handled::Unused(Focus::Quality(q)),
    }
}

/// The view, over the list's and the detail pane's places.
pub fn draw(model: &Model, q: &QualityPanel, frame: &mut Frame, area: Rect) {
    let theme = &model.config.theme;
    let key = |c| model.config.keymap.key(Mode::Quality, c);
    let title = format!(
        " network of peer {} in session {} · {}: back ",
        for_terminal(&q.peer_id),
        for_terminal(&q.session_id),
        key(Command::Cancel)
    );
    let block = Block::new()
        .borders(Borders::TOP)
        .border_style(theme.focused_border())
        .title(crate::text::cut(&title, area.width.into()));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let Some(stats) = model.beside.data.stats_of(&q.peer_id, &q.session_id) else {
        // The data in it is made safe piece by piece: its own line breaks stay breaks.
        let text = missing(model, q);
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: false }), inner);
        return;
    };
    let [top, charts] = Layout::vertical([Constraint::Length(2), Constraint::Fill(1)]).areas(inner);
    let summary = match q.at {
        Some(at) => around(stats, at, q.subscribing, model.panes.zone).sentence,
        None => "no error of the peer in this session to tell the network around".into(),
    };
    let zone = model.panes.zone;
    let span = span_of(stats);
    let range = span.map_or_else(String::new, |(a, b)| {
        format!(
            "{} to {}, {} error(s) marked",
            crate::time::format_short(zone.shift(a)),
            crate::time::format_short(zone.shift(b)),
            q.errors.len()
        )
    });
    let lines = [
        Line::from(vec![
            Span::styled("summary: ", theme.label()),
            Span::styled(for_terminal(&summary).into_owned(), theme.title()),
        ]),
        Line::styled(range, theme.label()),
    ];
    let lines: Vec<Line> = lines
        .into_iter()
        .map(|l| crate::tui::view::fit::line(l, top.width.into()))
        .collect();
    frame.render_widget(Paragraph::new(lines), top);
    let rows = Layout::vertical(DRAWN.iter().map(|_| Constraint::Fill(1))).split(charts);
    for (metric, row) in DRAWN.iter().zip(rows.iter()) {
        let cells = Layout::horizontal([Constraint::Fill(1), Constraint::Fill(1)])
            .spacing(2)
            .split(*row);
        for (side, cell) in SIDES.iter().zip(cells.iter()) {
            draw_chart(model, stats, q, *metric, side, span, frame, *cell);
        }
    }
}

/// What is said where the stats are not at hand, what came from the service or the data made
/// safe for the terminal.
fn missing(model: &Model, q: &QualityPanel) -> String {
    let key = model.config.keymap.key(Mode::Quality, Command::Rerun);
    let (peer, session) = (for_terminal(&q.peer_id), for_terminal(&q.session_id));
    match model.beside.stats_asked(&q.peer_id, &q.session_id) {
        Some(Asked::Asking) => {
            "asking the service for the peer's quality stats in this session…".into()
        }
        Some(Asked::Failed(why)) if ended(model, &q.session_id) => {
            if why.starts_with("HTTP 404") {
                format!(
                    "the service gave no quality stats: {}\n\nThe session has ended: the service \
                     holds no quality stats for the peer in it.",
                    for_terminal(why)
                )
            } else {
                format!(
                    "the service gave no quality stats: {}\n\n{key} asks again.",
                    for_terminal(why)
                )
            }
        }
        Some(Asked::Failed(why)) => format!(
            "the service gave no quality stats: {}\n\nThe peer quality stats endpoint answers \
             only once the session has ended; {key} asks again.",
            for_terminal(why)
        ),
        _ if model.session.live.is_some() => {
            format!("the quality stats were not asked for yet: {key} asks the service")
        }
        _ => format!(
            "no quality stats of peer {} in session {} among the loaded data: add the peer quality \
             stats response (GET /v2/analytics/peer-stats?peer_id={}&session_id={}) to the folder \
             beside the events, or open the room live and press {} here",
            peer,
            session,
            peer,
            session,
            model.config.keymap.key(Mode::Story, Command::ShowQuality)
        ),
    }
}

/// Whether the sessions at hand say the session has ended (`active: false`); not when they
/// say it is active, or do not hold it.
fn ended(model: &Model, session_id: &str) -> bool {
    model
        .beside
        .data
        .sessions
        .iter()
        .any(|s| s.id == session_id && s.active == Some(false))
}

/// The time the charts span: from the first to the last time of any series (the errors
/// outside it are counted in the range line, not marked).
fn span_of(stats: &PeerStats) -> Option<(i64, i64)> {
    let times = || {
        stats
            .tracks()
            .flat_map(|(_, _, t)| t.time_series.timestamps.iter().copied())
            .map(|ms| ms.saturating_mul(1_000_000))
    };
    let (from, to) = (times().min()?, times().max()?);
    (to > from).then_some((from, to))
}

/// One side's tracks of a metric: each track's name (its kind, source and simulcast layer;
/// with its id's start where two would read the same) and its points, in seconds and the
/// label's unit (the endpoint sends bitrate in bit/s; the chart says kbit/s).
fn series_of(stats: &PeerStats, side: &str, metric: Metric) -> Vec<(String, Vec<(f64, f64)>)> {
    let scale = if metric == Metric::Bitrate { 1e-3 } else { 1.0 };
    let mut series: Vec<(String, Vec<(f64, f64)>)> = stats
        .tracks()
        .filter(|(s, _, _)| *s == side)
        .map(|(_, kind, t)| {
            let points = t
                .time_series
                .points(metric)
                .into_iter()
                .map(|(ms, v)| (ms as f64 / 1000.0, v * scale))
                .collect();
            let mut name = t.name(kind);
            let twins = stats
                .tracks()
                .filter(|(s, k, o)| *s == side && o.name(k) == name)
                .count();
            if twins > 1
                && let Some(id) = &t.track_id
            {
                name.push_str(&format!(" {}", id.chars().take(6).collect::<String>()));
            }
            (name, points)
        })
        .collect();
    series.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
    series
}

#[allow(clippy::too_many_arguments)]
fn draw_chart(
    model: &Model,
    stats: &PeerStats,
    q: &QualityPanel,
    metric: Metric,
    side: &str,
    span: Option<(i64, i64)>,
    frame: &mut Frame,
    area: Rect,
) {
    let theme = &model.config.theme;
    let name = format!("{side} · {}", metric.label());
    let series = series_of(stats, side, metric);
    let with_points: Vec<&(String, Vec<(f64, f64)>)> =
        series.iter().filter(|(_, p)| !p.is_empty()).collect();
    let Some((from, to)) = span.filter(|_| !with_points.is_empty()) else {
        let tracks: Vec<&str> = series.iter().map(|(n, _)| n.as_str()).collect();
        let what = if tracks.is_empty() {
            "no track on this side".to_string()
        } else {
            format!("empty, no points on {}", tracks.join(", "))
        };
        frame.render_widget(
            Paragraph::new(Line::styled(format!("{name}: {what}"), theme.label()))
                .wrap(Wrap { trim: false }),
            area,
        );
        return;
    };
    let (x0, x1) = (from as f64 / 1e9, to as f64 / 1e9);
    let top = with_points
        .iter()
        .flat_map(|(_, p)| p.iter().map(|&(_, v)| v))
        .fold(0.0f64, f64::max);
    let y1 = if top > 0.0 { top * 1.1 } else { 1.0 };
    // The errors, along the top edge.
    let marks: Vec<(f64, f64)> = q
        .errors
        .iter()
        .map(|&t| t as f64 / 1e9)
        .filter(|&t| t >= x0 && t <= x1)
        .map(|t| (t, y1))
        .collect();
    let colour = |k: usize| Style::new().fg(TRACK_COLOURS[k % TRACK_COLOURS.len()]);
    let mut datasets: Vec<Dataset> = with_points
        .iter()
        .enumerate()
        .map(|(k, (_, p))| {
            Dataset::default()
                .marker(Marker::Braille)
                .graph_type(GraphType::Line)
                .style(colour(k))
                .data(p)
        })
        .collect();
    if !marks.is_empty() {
        datasets.push(
            Dataset::default()
                .marker(Marker::Block)
                .graph_type(GraphType::Scatter)
                .style(theme.terminal(Some(true)))
                .data(&marks),
        );
    }
    // The title names each line in its colour, and the tracks without points.
    let mut title = vec![Span::styled(name, theme.heading())];
    for (k, (n, _)) in with_points.iter().enumerate() {
        title.push(Span::styled(format!(" ━ {n}"), colour(k)));
    }
    let empty: Vec<&str> = series
        .iter()
        .filter(|(_, p)| p.is_empty())
        .map(|(n, _)| n.as_str())
        .collect();
    if !empty.is_empty() {
        title.push(Span::styled(
            format!(" · empty: {}", empty.join(", ")),
            theme.label(),
        ));
    }
    if !marks.is_empty() {
        title.push(Span::styled(" █ errors", theme.terminal(Some(true))));
    }
    let zone = model.panes.zone;
    let at = |s: f64| zone.clock((s * 1e9) as i64);
    let values = ["0".to_string(), number(top)];
    let values_width = values.iter().map(|v| display_width(v)).max().unwrap_or(0);
    let times = fitting_times(
        area.width.into(),
        values_width,
        [at(x0), at((x0 + x1) / 2.0), at(x1)],
    );
    let chart = Chart::new(datasets)
        .block(Block::new().title(crate::tui::view::fit::line(
            Line::from(title),
            area.width.into(),
        )))
        .x_axis(Axis::default().bounds([x0, x1]).labels(times))
        .y_axis(Axis::default().bounds([0.0, y1]).labels(values))
        .legend_position(None);
    frame.render_widget(chart, area);
}

/// The times under a chart `width` columns wide whose values are written `values_width` wide:
/// its start, middle and end where each fits whole in the share of the width the chart gives it
/// (the middle is left out first, then every time), so that no two are drawn over each other and
/// none is cut. The chart puts the first left of its value axis, and splits the rest of its width
/// evenly among the labels, each drawn within its share, a space before a middle one.
fn fitting_times(width: usize, values_width: usize, times: [String; 3]) -> Vec<String> {
    let widest = times.iter().map(|t| display_width(t)).max().unwrap_or(0);
    let left = values_width.max(widest.saturating_sub(1)).min(width / 3);
    if left + 1 < widest {
        return Vec::new();
    }
    let graph = width.saturating_sub(left + 1);
    let [first, middle, last] = times;
    if graph / 3 > widest {
        vec![first, middle, last]
    } else if graph / 2 >= widest {
        vec![first, last]
    } else {
        Vec::new()
    }
}

/// A chart's top value, short: `32.9`, `815`, `1.2k`.
fn number(v: f64) -> String {
    if v >= 10_000.0 {
        format!("{:.0}k", v / 1000.0)
    } else if v >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}
