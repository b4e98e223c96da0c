//! The explorer: a model changed only by `update`, drawn by `view`, driven by `runtime`.

pub mod action;
pub mod clipboard;
pub mod effect;
pub mod keymap;
pub mod model;
pub mod panels;
pub mod runtime;
pub mod terminal;
pub mod update;
pub mod view;

use std::io::IsTerminal;
use std::process::ExitCode;

use tokio::sync::mpsc;

use crate::cli::{FilterArgs, SourceArgs};
use crate::commands::{EXIT_RUNTIME, EXIT_USAGE};
use action::Action;
use keymap::Keymap;
use model::{Model, SourceLabel};
use view::theme::Theme;

/// Runs the explorer. `settings` carries the config's theme name, key table and redaction choice
/// for the views and the save to apply.
pub fn run(
    source: SourceArgs,
    filters: FilterArgs,
    settings: crate::config::Settings,
    follow: crate::cli::FollowArgs,
) -> ExitCode {
    let filter = match filters.to_filter() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("callscope: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let no_color = Theme::no_color_requested(std::env::var_os("NO_COLOR").as_deref());
    let (keymap, theme) = match keys_and_theme(&settings, no_color) {
        Ok(chosen) => chosen,
        Err(problems) => {
            for problem in problems {
                eprintln!("callscope: {problem}");
            }
            return ExitCode::from(EXIT_USAGE);
        }
    };
    // With no source named, the explorer goes live when a token is configured.
    let live = source.live
        || (!source.demo
            && source.files.is_empty()
            && crate::source::live::discover(&source)
                .ok()
                .flatten()
                .is_some());
    if follow.follow && !live {
        eprintln!("callscope: --follow needs a live source (--live, or a configured token)");
        return ExitCode::from(EXIT_USAGE);
    }
    let connection = if live {
        match crate::source::live::connect(&source) {
            Ok(c) => Some(c),
            Err(e) => {
                eprintln!("callscope: {e}");
                return ExitCode::from(EXIT_USAGE);
            }
        }
    } else {
        None
    };
    let files: &[String] = if live || source.demo {
        &[]
    } else {
        &source.files
    };
    let reads_stdin = files.iter().any(|f| f == "-");
    // The loader would read the keys typed as if they were the dump, and the explorer would
    // never see them.
    if let Some(tty) = files.iter().find(|f| is_a_terminal(f)) {
        let what = if tty == "-" {
            "`-` reads a dump from standard input, which is this terminal".to_string()
        } else {
            format!("{tty} is this terminal, not a dump")
        };
        eprintln!("callscope: {what}: pipe one in (`zcat dump.gz | callscope -`) or name its file");
        return ExitCode::from(EXIT_USAGE);
    }
    // A path that is not there (a typo at 3 a.m.) is said before the screen is taken, as `list`
    // says it, rather than opening on nothing; a damaged dump still opens, its problems shown.
    for arg in files.iter().filter(|f| *f != "-") {
        if let Err(problem) = crate::source::dump::expand(arg) {
            eprintln!("callscope: {problem}");
            return ExitCode::from(EXIT_USAGE);
        }
    }
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() && !reads_stdin {
        eprintln!("callscope: the explorer needs a terminal; use `callscope list` to print events");
        return ExitCode::from(EXIT_USAGE);
    }
    let label = if live {
        SourceLabel::Live {
            url: source.base_url.clone(),
        }
    } else if source.demo || source.files.is_empty() {
        SourceLabel::Demo
    } else {
        SourceLabel::Files {
            count: source.files.len(),
            first: source.files[0].clone(),
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("callscope: cannot start: {e}");
            return ExitCode::from(EXIT_RUNTIME);
        }
    };
    runtime.block_on(async move {
        let (tx, rx) = mpsc::unbounded_channel();
        let (width, height) = crossterm::terminal::size().unwrap_or((80, 24));
        let mut model = Model::new(label, filter, width, height);
        model.config.keymap = keymap;
        model.config.theme = theme;
        model.config.redact = settings.redact;
        tracing::debug!(
            ?settings,
            theme = model.config.theme.name,
            "explorer settings"
        );
        let worker = match connection {
            Some((api, tokens)) => {
                let (reports_tx, mut reports_rx) = mpsc::unbounded_channel();
                let worker = crate::source::worker::spawn(api, tokens, reports_tx);
                let forward = tx.clone();
                let names = source.token_env.clone();
                tokio::spawn(async move {
                    while let Some(report) = reports_rx.recv().await {
                        if forward.send(Action::Live(report.renamed(&names))).is_err() {
                            break;
                        }
                    }
                });
                model.session.live = Some(model::Live::new(source.base_url.clone()));
                model.config.follow_every = std::time::Duration::from_secs(follow.follow_interval);
                if follow.follow {
                    model.session.follow = Some(model::Follow::new(model.config.follow_every));
                }
                model.session.load = model::LoadState::Idle;
                for effect in update::new_query(&mut model) {
                    if let update::Effect::Worker(command) = effect {
                        let _ = worker.send(command);
                    }
                }
                Some(worker)
            }
            None => {
                spawn_loader(source, tx);
                None
            }
        };
        let stop = Box::pin(crate::stop::requested(true));
        let mut terminal = match terminal::enter() {
            Ok(t) => t,
            Err(e) => {
                eprintln!("callscope: cannot use the terminal: {e}");
                return ExitCode::from(EXIT_RUNTIME);
            }
        };
        let guard = terminal::RestoreGuard;
        let channels = runtime::Channels {
            actions: rx,
            worker,
            stop,
        };
        let result = runtime::run(&mut terminal, &mut model, channels).await;
        drop(guard);
        match result {
            Ok(runtime::Ended::Quit) => ExitCode::SUCCESS,
            Ok(runtime::Ended::Signal(signal)) => ExitCode::from(crate::stop::exit_status(signal)),
            Err(e) => {
                eprintln!("callscope: terminal error: {e}");
                ExitCode::from(EXIT_RUNTIME)
            }
        }
    })
}

/// Whether a file named on the command line is a terminal: `-` when standard input is one, or a
/// path such as `/dev/stdin` or `/dev/tty`. Only character devices are opened to ask: opening a
/// named pipe would wait for its writer.
fn is_a_terminal(path: &str) -> bool {
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
pub fn keys_and_theme(
    settings: &crate::config::Settings,
    no_color: bool,
) -> Result<(Keymap, Theme), Vec<String>> {
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

/// Reads the offline source off the UI thread, sending each file's events as soon as they are read.
fn spawn_loader(source: SourceArgs, tx: mpsc::UnboundedSender<Action>) {
    tokio::task::spawn_blocking(move || {
        let problems = if source.demo || source.files.is_empty() {
            let _ = tx.send(Action::BatchLoaded(crate::source::demo::load()));
            Vec::new()
        } else {
            crate::source::load_files(&source.files, |_, batch| {
                let _ = tx.send(Action::BatchLoaded(batch));
            })
        };
        let _ = tx.send(Action::LoadFinished { problems });
    });
}
