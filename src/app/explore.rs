//! The explorer as a front end: what must hold before the terminal is taken over, then the
//! explorer itself ([`crate::tui`]).

use std::io::IsTerminal;

use super::{Ended, Failure};
use crate::filter::Filter;
use crate::source::Source;
use crate::source::live::{Connection, RoomError};
use crate::tui::{Exit, Explorer, Settings};

/// What the explorer is asked to show.
#[derive(Debug, Clone)]
pub struct Explore {
    pub source: Source,
    pub filter: Filter,
    pub settings: Settings,
    /// Live: start in follow mode.
    pub follow: bool,
    /// Live: seconds between two runs of the query in follow mode.
    pub follow_every: std::time::Duration,
    /// What the explorer says on its first screen, if anything (why it opened the demo).
    pub note: Option<String>,
}

/// The filter with its room's name looked up, before the screen is taken.
fn room_id(
    live: &crate::source::LiveSource,
    connection: &Connection,
    filter: &Filter,
) -> Result<Filter, Failure> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::runtime(format!("cannot start: {e}")))?;
    runtime
        .block_on(crate::source::live::with_room_id(
            connection,
            filter,
            &|r: &crate::source::worker::Retry| super::fetch::say_room_retry(live, filter, r),
        ))
        .map_err(|e| match e {
            RoomError::Unknown(e) => Failure::Usage(e),
            RoomError::Lookup(e) => Failure::Runtime(e),
        })
}

pub fn run(explore: Explore) -> Result<Ended, Failure> {
    let Explore {
        source,
        filter,
        settings,
        follow,
        follow_every,
        note,
    } = explore;
    let no_color =
        crate::tui::view::theme::Theme::no_color_requested(std::env::var_os("NO_COLOR").as_deref());
    let (keymap, theme) =
        crate::tui::keys_and_theme(&settings, no_color).map_err(Failure::Problems)?;
    if follow && !matches!(source, Source::Live(_)) {
        return Err(Failure::usage(
            "--follow needs a live source (--live, or a configured token)",
        ));
    }
    let mut filter = filter;
    let live = match &source {
        Source::Live(live) => Some(live.connect().map_err(Failure::Usage)?),
        _ => None,
    };
    if let Source::Files(files) = &source {
        // The loader would read the keys typed as if they were the dump, and the explorer would
        // never see them.
        if let Some(tty) = files.iter().find(|f| crate::tui::is_a_terminal(f)) {
            let what = if tty == "-" {
                "`-` reads a dump from standard input, which is this terminal".to_string()
            } else {
                format!("{tty} is this terminal, not a dump")
            };
            return Err(Failure::usage(format!(
                "{what}: pipe one in (`zcat dump.gz | callscope -`) or name its file"
            )));
        }
        // A path that is not there (a typo at 3 a.m.) is said before the screen is taken, as
        // `list` says it, rather than opening on nothing; a damaged dump still opens, its
        // problems shown.
        for arg in files.iter().filter(|f| *f != "-") {
            crate::source::dump::expand(arg).map_err(|p| Failure::usage(p.to_string()))?;
        }
    }
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() && !source.reads_stdin()
    {
        return Err(Failure::usage(
            "the explorer needs a terminal; use `callscope list` to print events",
        ));
    }
    // With no room, the explorer asks for one: the live API answers queries of one room only.
    if let (Some(connection), Source::Live(source)) = (&live, &source)
        && filter.room().is_some()
    {
        filter = room_id(source, connection, &filter)?;
    }
    // An empty file is no problem, but the empty screen it opens on is said.
    let empty: Vec<String> = source
        .empty_files()
        .iter()
        .map(|path| format!("note: {path} is empty: it holds no events"))
        .collect();
    let note = note.or((!empty.is_empty()).then(|| empty.join("; ")));
    let explorer = Explorer {
        note,
        source,
        live,
        filter,
        keymap,
        theme,
        redact: settings.redact,
        follow,
        follow_every,
    };
    match crate::tui::run(explorer) {
        Ok(Exit::Quit) => Ok(Ended::Done),
        Ok(Exit::Signal(status)) => Ok(Ended::Signal(status)),
        Err(crate::tui::Error(e)) => Err(Failure::Runtime(e)),
    }
}
