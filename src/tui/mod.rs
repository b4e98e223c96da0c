//! The explorer: a model changed only by `update`, drawn by `view`, driven by `runtime`.

pub mod action;
pub mod clipboard;
pub mod effect;
pub mod folder;
pub mod keymap;
pub mod model;
pub mod panels;
pub mod rooms_used;
pub mod runtime;
pub mod save;
pub mod terminal;
pub mod update;
pub mod view;
mod waiting;

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;

use tokio::sync::mpsc;

use crate::filter::Filter;
use crate::source::Source;
use crate::source::live::Connection;
use action::Action;
use keymap::Keymap;
use model::{Model, SourceLabel};
use view::theme::Theme;

/// What the explorer is started with.
pub struct Explorer {
    /// Where the events come from: read off the UI thread when it is offline.
    pub source: Source,
    /// The live source's client, when the source is live.
    pub live: Option<Connection>,
    pub filter: Filter,
    pub keymap: Keymap,
    pub theme: Theme,
    /// Saved and copied events are redacted.
    pub redact: bool,
    /// Live: start in follow mode.
    pub follow: bool,
    /// Live: how often follow mode runs the query again.
    pub follow_every: std::time::Duration,
    /// Said in the status line of the first screen (why the demo was opened, an empty file).
    pub note: Option<String>,
}

/// How the explorer ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// The user quit.
    Quit,
    /// A signal stopped it: the status shells report for it.
    Signal(u8),
}

/// Why the explorer stopped: the runtime or the terminal failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Error(pub String);

/// Runs the explorer on the terminal until the user quits or a signal stops it. The terminal
/// is given back as it was however it ends.
pub fn run(explorer: Explorer) -> Result<Exit, Error> {
    let Explorer {
        source,
        live,
        filter,
        keymap,
        theme,
        redact,
        follow,
        follow_every,
        note,
    } = explorer;
    let label = match &source {
        Source::Live(live) => SourceLabel::Live {
            url: live.base_url.clone(),
        },
        Source::Demo => SourceLabel::Demo,
        Source::Files(files) => SourceLabel::Files {
            count: files.len(),
            first: files.first().cloned().unwrap_or_default(),
        },
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Error(format!("cannot start: {e}")))?;
    let ended = runtime.block_on(async move {
        let (tx, rx) = mpsc::unbounded_channel();
        let (width, height) = crossterm::terminal::size().unwrap_or((80, 24));
        let mut model = Model::new(label, filter, width, height);
        model.config.keymap = keymap;
        model.config.theme = theme;
        model.config.redact = redact;
        model.status = note;
        tracing::debug!(theme = model.config.theme.name, redact, "explorer settings");
        let mut asks = None;
        let connection = live.clone();
        let mut start = Vec::new();
        let waiting = waiting::Waiting::default();
        let worker = match live {
            Some(Connection { api, tokens, names }) => {
                let url = match &source {
                    Source::Live(live) => live.base_url.clone(),
                    _ => api.base_url().to_string(),
                };
                let (reports_tx, mut reports_rx) = mpsc::unbounded_channel();
                asks = Some(spawn_asker(&api, &tokens, &names, tx.clone()));
                let worker = crate::source::worker::spawn(api, tokens, reports_tx);
                let forward = tx.clone();
                tokio::spawn(async move {
                    while let Some(report) = reports_rx.recv().await {
                        if forward.send(Action::Live(report.renamed(&names))).is_err() {
                            break;
                        }
                    }
                });
                let mut state = model::Live::new(url);
                if let Some(path) = rooms_used::path() {
                    state.rooms_used = rooms_used::read(&path);
                }
                model.session.live = Some(state);
                model.config.follow_every = follow_every;
                if follow {
                    model.session.follow = Some(model::Follow::new(model.config.follow_every));
                }
                model.session.load = model::LoadState::Idle;
                // With no room named, no query is sent: the room prompt asks for one.
                start.extend(update::new_query(&mut model));
                start.extend(update::live::ask_room(&mut model));
                Some(worker)
            }
            None => {
                // rayon's pool, which the keys' work runs on, is made here, at the UI thread's
                // priority: made by the loader's first use, its threads would inherit the
                // loader's lower one.
                let _ = rayon::current_num_threads();
                spawn_loader(source, tx.clone(), waiting.clone());
                None
            }
        };
        let stop = Box::pin(crate::stop::requested(true));
        let mut terminal =
            terminal::enter().map_err(|e| Error(format!("cannot use the terminal: {e}")))?;
        let guard = terminal::RestoreGuard;
        let channels = runtime::Channels {
            actions: rx,
            worker,
            asks,
            stop,
            sender: tx,
            connection,
            start,
            waiting,
        };
        let result = runtime::run(&mut terminal, &mut model, channels).await;
        drop(guard);
        match result {
            Ok(runtime::Ended::Quit) => Ok(Exit::Quit),
            Ok(runtime::Ended::Signal(signal)) => {
                Ok(Exit::Signal(crate::stop::exit_status(signal)))
            }
            Err(e) => Err(Error(format!("terminal error: {e}"))),
        }
    });
    // Without waiting for what still runs on tokio's threads: a loader read there (when it
    // could not have a thread of its own) would keep the shell waiting until its input ends,
    // which for a pipe may be never. Nothing there holds what the user asked to keep: saves
    // and copies are done on the UI thread before the next key is read.
    runtime.shutdown_background();
    ended
}

/// Whether a file named on the command line is a terminal: `-` when standard input is one, or a
/// path such as `/dev/stdin` or `/dev/tty`. Only character devices are opened to ask: opening a
/// named pipe would wait for its writer.
pub fn is_a_terminal(path: &str) -> bool {
    if path == "-" {
        return std::io::stdin().is_terminal();
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        std::fs::metadata(path).is_ok_and(|m| m.file_type().is_char_device())
            && std::fs::File::open(path).is_ok_and(|f| f.is_terminal())
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// The key bindings and the theme the settings ask for, or every problem with them, each
/// naming the config file and the key to fix.
pub fn keys_and_theme(settings: &Settings, no_color: bool) -> Result<(Keymap, Theme), Vec<String>> {
    let file = match &settings.path {
        Some(path) => format!("config file {}", path.display()),
        None => "config".to_string(),
    };
    let mut problems = Vec::new();
    let keymap = Keymap::with_overrides(&settings.keys, &settings.key_origins)
        .map_err(|e| problems.extend(e.into_iter().map(|p| format!("{file}: {p}"))))
        .ok();
    let theme = Theme::named(settings.theme.as_deref(), no_color)
        .map_err(|e| problems.push(format!("{file}: {e}")))
        .ok();
    match (keymap, theme) {
        (Some(keymap), Some(theme)) => Ok((keymap, theme)),
        _ => Err(problems),
    }
}

/// The moment it is, in nanoseconds since the epoch.
fn now() -> i64 {
    chrono::Utc::now().timestamp_nanos_opt().unwrap_or(i64::MAX)
}

/// Starts the task that answers the live questions about the platform's data beside the events
/// (sessions, track events, quality stats); its answers come back as actions.
fn spawn_asker(
    api: &crate::source::api::Api,
    tokens: &crate::source::token::TokenSource,
    names: &crate::source::token::TokenEnv,
    tx: mpsc::UnboundedSender<Action>,
) -> mpsc::UnboundedSender<crate::source::related_live::Ask> {
    let (answers_tx, mut answers_rx) = mpsc::unbounded_channel();
    let asks =
        crate::source::related_live::spawn(api.clone(), tokens.clone(), names.clone(), answers_tx);
    tokio::spawn(async move {
        while let Some(answer) = answers_rx.recv().await {
            if tx.send(Action::Answered { answer, now: now() }).is_err() {
                break;
            }
        }
    });
    asks
}

/// The niceness of the threads that read an offline source: on a machine of two cores, its
/// readers (one a core) and the UI thread that merges what they read share the cores, and at an
/// equal priority a frame waited for a core as long as it worked. At this one, the UI thread
/// gets nine tenths of a core it shares with a reader. Only the loader's own threads run at it:
/// rayon's pool is made before the loader starts (see `run`). (Where the system groups the threads of
/// a terminal session, as Linux does by default, niceness weighs only within the group: the
/// readers take no less of the machine against other programs.)
const READERS_NICENESS: i32 = 10;

/// Reads the offline source off the UI thread, sending each file's events as soon as they are
/// read, and the related data (rooms, sessions, quality stats) the files or the demo hold. The
/// reading is done by a thread of its own (not one of tokio's blocking pool, which would keep
/// the priority for later work) at a lower priority than the UI thread's, which the threads it
/// starts inherit: [`READERS_NICENESS`]. rayon's pool must have been made before (see `run`).
fn spawn_loader(source: Source, tx: mpsc::UnboundedSender<Action>, waiting: waiting::Waiting) {
    let (own_source, own_tx, own_waiting) = (source.clone(), tx.clone(), waiting.clone());
    let started = std::thread::Builder::new()
        .name("loader".to_string())
        .spawn(move || {
            runtime::lower_priority_of_this_thread(READERS_NICENESS);
            load(&own_source, &own_tx, &own_waiting);
        });
    if let Err(e) = started {
        // Without a thread of its own, it is read on tokio's, at the UI thread's priority.
        tracing::warn!(error = %e, "cannot start the loader's thread");
        tokio::task::spawn_blocking(move || load(&source, &tx, &waiting));
    }
}

/// Reads the offline source, sending what it reads and then that it is done.
fn load(source: &Source, tx: &mpsc::UnboundedSender<Action>, waiting: &waiting::Waiting) {
    let problems = match source {
        Source::Files(files) => crate::source::load_with_related(
            files,
            // What the explorer reads it holds while it runs: a piped or gzip'd dump goes
            // to a temporary file rather than stay in its memory.
            crate::source::dump::Holding::FirstPiece,
            |_, batch| {
                // Reading waits here (workers a piece ahead at most) while the explorer
                // has batches enough to merge.
                waiting.before_send(|| tx.is_closed());
                let _ = tx.send(Action::BatchLoaded(batch));
            },
            |mut objects| {
                crate::related::as_saved(&mut objects);
                let _ = tx.send(Action::RelatedLoaded {
                    objects,
                    now: now(),
                });
            },
        ),
        Source::Demo | Source::Live(_) => {
            let _ = tx.send(Action::BatchLoaded(crate::source::demo::load()));
            let mut objects: Vec<_> = crate::source::demo::related().into_objects().collect();
            crate::related::as_saved(&mut objects);
            let _ = tx.send(Action::RelatedLoaded {
                objects,
                now: now(),
            });
            Vec::new()
        }
    };
    let _ = tx.send(Action::LoadFinished { problems });
    // Saved API pages say whether their query had more than they hold: read once the
    // events are shown, so that it does not hold them back.
    if let Source::Files(files) = source {
        let pages = crate::source::pages::of_args(files);
        if pages.pages > 0 {
            let _ = tx.send(Action::SavedPages(pages));
        }
    }
}

/// What the explorer takes from the config: the theme's name, the key table and the choice to
/// redact, as written there; the explorer checks them against its own themes and actions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Settings {
    /// The profile in force, if any.
    pub profile: Option<String>,
    /// A theme name, as written.
    pub theme: Option<String>,
    /// Action name -> keys, as written (`"j"`, `"ctrl-c"`...); the profile's entries replace the
    /// top-level ones of the same action.
    pub keys: BTreeMap<String, Vec<String>>,
    /// Whether saved events are redacted (see `crate::redact`).
    pub redact: bool,
    /// The table each entry of `keys` was written in (`keys`, `profiles.prod.keys`), so that a
    /// binding the explorer refuses is named where it can be fixed.
    pub key_origins: BTreeMap<String, String>,
    /// The config file the settings came from, if one was read.
    pub path: Option<PathBuf>,
}
