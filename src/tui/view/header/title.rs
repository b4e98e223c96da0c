//! The header's first line: where the events come from, how many are shown of how many are
//! loaded, the load's state and follow mode's. Where the terminal is too narrow for the whole
//! line, its parts give way in a fixed order, the least telling first ([`LEVELS`]); a count is
//! whole or left out, and a cut ends in `…`.

use ratatui::text::{Line, Span};

use crate::text::{cut_at_space, cut_left, display_width, for_terminal, thousands};
use crate::tui::action::Command;
use crate::tui::keymap::Mode;
use crate::tui::model::{Fetch, Live, LoadState, Model, SourceLabel};
use crate::tui::view::coverage;

/// The name at the line's start, and the bar after it.
const NAME: &str = " callscope ";
const NAME_BAR: &str = "│ ";
/// The bar between two parts.
const BAR: &str = " │ ";
/// The fewest columns a path is cut to while the counts can give way instead.
const PATH_FLOOR: usize = 16;
/// The fewest columns a cut path is shown in: in fewer, a piece of it would say little.
const PATH_SHORTEST: usize = 10;
/// The fewest columns the state is cut to while something else can give way.
const STATE_FLOOR: usize = 16;

/// How much of each part a line is drawn with.
#[derive(Debug, Clone, Copy)]
struct Level {
    /// The ` callscope ` name at the start.
    name: bool,
    source: Form,
    /// The counts in their shorter wording.
    short_counts: bool,
    /// Follow mode without its wait and its failures.
    short_follow: bool,
    /// The fewest columns the state is cut to, at a space.
    state_floor: usize,
}

/// How much of the source a line says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    Whole,
    /// The path cut from its start, down to this many columns (`…` alone at 1); the demo
    /// says its short label.
    Cut(usize),
}

/// The line's forms, the first that fits taken: the name goes first, then the path is cut
/// from its start and the state's hints at a space, then follow mode's wait and the counts'
/// wording are shortened, then the path may go to `…`, then the state.
const LEVELS: [Level; 7] = {
    let whole = Level {
        name: true,
        source: Form::Whole,
        short_counts: false,
        short_follow: false,
        state_floor: usize::MAX,
    };
    let cut = Level {
        name: false,
        source: Form::Cut(PATH_FLOOR),
        state_floor: STATE_FLOOR,
        ..whole
    };
    let short_follow = Level {
        short_follow: true,
        ..cut
    };
    let short_counts = Level {
        short_counts: true,
        ..short_follow
    };
    let no_path = Level {
        source: Form::Cut(1),
        ..short_counts
    };
    [
        whole,
        Level {
            name: false,
            ..whole
        },
        cut,
        short_follow,
        short_counts,
        no_path,
        Level {
            state_floor: 1,
            ..no_path
        },
    ]
};

/// Where the events come from, in the forms the line can say it.
enum Source {
    /// A label with a short form and no path: the demo's.
    Fixed {
        whole: &'static str,
        short: &'static str,
    },
    /// A path or URL with the text around it: `FILE  ` before a file's path.
    Path {
        before: String,
        path: String,
        after: String,
        /// The label where the path is cut to nothing: `FILES  3 files (…)`.
        without: String,
    },
}

impl Source {
    fn of(label: &SourceLabel) -> Source {
        let path = |before: String, path: &str, after: &str| Source::Path {
            without: format!("{before}…{}", after.trim_start_matches(" …")),
            before,
            path: for_terminal(path).into_owned(),
            after: after.to_string(),
        };
        match label {
            SourceLabel::Demo => Source::Fixed {
                whole: "DEMO  bundled demo dataset",
                short: "DEMO",
            },
            SourceLabel::Files { count: 1, first } => path("FILE  ".into(), first, ""),
            SourceLabel::Files { count, first } => {
                path(format!("FILES  {count} files ("), first, " …)")
            }
            SourceLabel::Live { url } => path("LIVE  ".into(), url, ""),
        }
    }

    /// The text in this form, the path cut to `room` columns.
    fn text(&self, form: Form, room: usize) -> String {
        match self {
            Source::Fixed { whole, short } => match form {
                Form::Whole => whole.to_string(),
                Form::Cut(_) => short.to_string(),
            },
            Source::Path {
                before,
                path,
                after,
                without,
            } => match form {
                Form::Whole => format!("{before}{path}{after}"),
                Form::Cut(_) => match cut_path(path, room) {
                    cut if cut == "…" => without.clone(),
                    cut => format!("{before}{cut}{after}"),
                },
            },
        }
    }

    /// The columns the form takes besides its path, and the fewest its path is cut to (the
    /// label without its path takes no more).
    fn widths(&self, form: Form) -> (usize, usize) {
        match (self, form) {
            (
                Source::Path {
                    before,
                    path,
                    after,
                    ..
                },
                Form::Cut(floor),
            ) => (
                display_width(before) + display_width(after),
                display_width(path).min(floor),
            ),
            _ => (display_width(&self.text(form, usize::MAX)), 0),
        }
    }
}

/// A path or URL cut to `room` columns from its start, a URL's scheme first; `…` alone where
/// the room is under [`PATH_SHORTEST`].
fn cut_path(path: &str, room: usize) -> String {
    if display_width(path) <= room {
        return path.to_string();
    }
    if room < PATH_SHORTEST {
        return cut_left(path, room.min(1));
    }
    match path.split_once("://") {
        Some((_, rest)) if display_width(rest) < room => format!("…{rest}"),
        _ => cut_left(path, room),
    }
}

/// The line's parts in every form they take.
struct Parts {
    source: Source,
    /// The shown count, whole in every form: `2,400 shown`.
    shown: String,
    /// The counts after it, long and short: ` / 2,400 loaded`, ` of 2,400`.
    counts: (String, String),
    state: String,
    /// Follow mode, long and short, each with its bar; empty when it is off.
    follow: (String, String),
}

/// The parts as a line draws them.
struct Drawn {
    name: bool,
    source: String,
    counts: String,
    state: String,
    follow: String,
}

pub(super) fn line(model: &Model, width: usize) -> Line<'static> {
    let parts = parts(model);
    let theme = &model.config.theme;
    let Some(drawn) = fit(&parts, width) else {
        return Line::raw(narrowest(&parts, width));
    };
    let mut spans = if drawn.name {
        vec![
            Span::styled(NAME, theme.title()),
            Span::styled(NAME_BAR, theme.label()),
        ]
    } else {
        vec![Span::raw(" ")]
    };
    spans.extend([
        Span::styled(drawn.source, theme.title()),
        Span::styled(BAR, theme.label()),
        Span::raw(format!("{}{}", parts.shown, drawn.counts)),
        Span::styled(BAR, theme.label()),
        Span::raw(drawn.state),
        Span::styled(drawn.follow, theme.new_event()),
    ]);
    Line::from(spans)
}

/// The parts in the first of [`LEVELS`] that fits `width`, the room left given to the state,
/// then to the path; `None` when none fits.
fn fit(parts: &Parts, width: usize) -> Option<Drawn> {
    let w = display_width;
    for level in LEVELS {
        let counts = if level.short_counts {
            &parts.counts.1
        } else {
            &parts.counts.0
        };
        let follow = if level.short_follow {
            &parts.follow.1
        } else {
            &parts.follow.0
        };
        let lead = if level.name { w(NAME) + w(NAME_BAR) } else { 1 };
        let (source, path_floor) = parts.source.widths(level.source);
        let fixed = lead + source + 2 * w(BAR) + w(&parts.shown) + w(counts) + w(follow);
        let state_floor = w(&parts.state).min(level.state_floor);
        if fixed + path_floor + state_floor > width {
            continue;
        }
        let room = width - fixed;
        let state = cut_at_space(&parts.state, room - path_floor);
        let source = parts.source.text(level.source, room - w(&state));
        return Some(Drawn {
            name: level.name,
            source,
            counts: counts.clone(),
            state,
            follow: follow.clone(),
        });
    }
    None
}

/// Where no form fits: the source without its path, the shown count and what follows, cut at
/// a space; without the source where the count would not be whole; `…` where the count has no
/// room.
fn narrowest(parts: &Parts, width: usize) -> String {
    let rest = format!(
        "{}{}{BAR}{}{}",
        parts.shown, parts.counts.1, parts.state, parts.follow.1
    );
    let source = parts.source.text(Form::Cut(1), 1);
    [format!(" {source}{BAR}{rest}"), format!(" {rest}")]
        .iter()
        .map(|text| cut_at_space(text, width))
        .find(|cut| cut.contains(&parts.shown))
        .unwrap_or_else(|| cut_at_space("…", width))
}

fn parts(model: &Model) -> Parts {
    // Loaded, against what the query matches when that is more.
    let (loaded, loaded_short) = match coverage::notes(model) {
        Some((long, short)) => (format!(" / {long}"), format!(" / {short}")),
        None => {
            let loaded = thousands(model.events.store.len());
            (format!(" / {loaded} loaded"), format!(" of {loaded}"))
        }
    };
    let mut after = String::new();
    if let Some(total) = model.session.live.as_ref().and_then(|l| l.total)
        && total != model.events.store.len() as u64
        && coverage::note(model).is_none()
    {
        after.push_str(&format!(" / {} total", thousands(total as usize)));
    }
    // Follow mode's refreshes fetch what is loaded again: those are no duplicates of the data.
    let refetched = model.session.live.as_ref().map_or(0, |l| l.refetched);
    let duplicates = model.events.store.duplicates().saturating_sub(refetched);
    let (mut counts, mut counts_short) = (loaded + &after, loaded_short + &after);
    if duplicates > 0 {
        counts.push_str(&format!(
            " ({} dropped)",
            crate::text::plural(duplicates, "duplicate", "duplicates")
        ));
        counts_short.push_str(&format!(" ({} dup. dropped)", thousands(duplicates)));
    }
    let state = match (&model.session.live, &model.session.load) {
        (Some(live), _) => live_state(model, live),
        (None, LoadState::Loading) => "loading…".to_string(),
        (None, LoadState::Idle) => "idle".to_string(),
    };
    Parts {
        source: Source::of(&model.session.source),
        shown: format!("{} shown", thousands(model.events.shown.len())),
        counts: (counts, counts_short),
        state,
        follow: follow_state(model),
    }
}

/// Follow mode, long and short: ` │ following every 5 s, after failures · +12 new`,
/// ` │ following · +12 new`.
fn follow_state(model: &Model) -> (String, String) {
    match &model.session.follow {
        None => (String::new(), String::new()),
        Some(f) => {
            let every = f.wait().as_secs();
            let retry = if f.failures > 0 {
                ", after failures"
            } else {
                ""
            };
            let new = thousands(f.new_events);
            (
                format!("{BAR}following every {every} s{retry} · +{new} new"),
                format!("{BAR}following · +{new} new"),
            )
        }
    }
}

fn live_state(model: &Model, live: &Live) -> String {
    let key = |c| model.config.keymap.key(Mode::List, c);
    let all = if live.loading_all {
        format!(" (loading all: {} stops)", key(Command::LoadAll))
    } else {
        String::new()
    };
    match &live.fetch {
        Fetch::Idle if live.next.as_deref() == Some("") => "all pages loaded".into(),
        // The counts say how much is loaded and the key that loads all.
        Fetch::Idle if coverage::note(model).is_some() => "idle; more as you scroll".to_string(),
        Fetch::Idle => format!(
            "idle, {} page(s); more as you scroll, {} loads all",
            live.pages,
            key(Command::LoadAll)
        ),
        // A new query while the old one's events stay on screen (none at the start).
        Fetch::Fetching { .. } | Fetch::Retrying { .. }
            if live.replacing && !model.events.store.is_empty() =>
        {
            match &live.fetch {
                Fetch::Retrying { until, reason, .. } => {
                    format!(
                        "running again, retrying in {} s: {}",
                        super::seconds_left(live, *until),
                        for_terminal(reason)
                    )
                }
                _ => "running again…".to_string(),
            }
        }
        // The counts say how far the load is when the server gave a total.
        Fetch::Fetching { .. } if coverage::note(model).is_some() => {
            format!("fetching…{all}")
        }
        Fetch::Fetching { .. } => format!("fetching… {}{all}", so_far(model, live)),
        Fetch::Retrying {
            attempt,
            gives_up,
            reason,
            until,
            ..
        } => {
            let left = super::seconds_left(live, *until);
            let when = if left == 0 {
                "retrying now".to_string()
            } else {
                format!("retrying in {left} s")
            };
            format!(
                "{when} (attempt {attempt}, {}): {}{all}",
                crate::source::worker::giving_up_words(live.clock.at, *until, *gives_up),
                for_terminal(reason)
            )
        }
        Fetch::Done => "all pages loaded".into(),
        Fetch::Failed(message) => format!("error: {}", super::failure_text(model, message)),
        Fetch::NoRoom => format!(
            "no room chosen: {}",
            crate::tui::panels::rooms::HOW_TO_CHOOSE
        ),
    }
}

/// The events loaded so far, against the query's total when the server gave one:
/// `1,200 of 2,400 events`.
fn so_far(model: &Model, live: &Live) -> String {
    let loaded = thousands(model.events.store.len());
    match live.total {
        Some(total) => format!("{loaded} of {} events", thousands(total as usize)),
        None => format!("{loaded} events so far"),
    }
}
