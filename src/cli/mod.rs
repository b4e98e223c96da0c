//! The command line and the config file's profile, read into plain values: the [`Source`] the
//! events come from, decided once here, the [`Filter`](crate::filter::Filter), and each command's
//! options. Nothing below this module knows clap or the config file exists.

mod args;
pub mod config;
mod docs;
mod leading;
mod parse;

pub use args::*;
pub use parse::Suggest;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use crate::app::{Ended, Failure};
use crate::source::Source;
use config::Explicit;

/// Parses the command line and runs it. clap's matches tell which source options were given
/// (they win over a profile) and which hold their defaults (a profile may set those). The
/// settings options given before a command's name are read as given after it.
pub fn main() -> ExitCode {
    crate::memory::give_back_large_blocks();
    let command = Cli::command();
    let names: Vec<&str> = command
        .get_subcommands()
        .flat_map(|c| std::iter::once(c.get_name()).chain(c.get_all_aliases()))
        .collect();
    let line = leading::settings_after_command(std::env::args_os().collect(), &names);
    let matches = command
        .clone()
        .try_get_matches_from(line)
        .unwrap_or_else(|e| clap_exit(e));
    let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| clap_exit(e));
    cli.from_env(matches.subcommand().map_or(&matches, |(_, sub)| sub));
    let scope = match matches.subcommand() {
        Some(("list", sub)) => sub,
        _ => &matches,
    };
    let explicit = match &cli.command {
        None | Some(Command::List(_)) => Explicit::of(scope),
        _ => Explicit::default(),
    };
    crate::app::exit(run(cli, explicit))
}

/// Ends on clap's own message (help, or what is wrong with the command line), as clap would,
/// except that a message quoting a value with a control character in it goes out through the
/// sanitiser, uncoloured: a value pasted from a dump must not drive the terminal.
fn clap_exit(e: clap::Error) -> ! {
    let plain = e.render().to_string();
    if !plain.lines().any(crate::text::holds_controls) {
        e.exit();
    }
    for line in plain.lines() {
        crate::text::say!("{}", crate::text::for_terminal(line));
    }
    std::process::exit(e.exit_code());
}

/// Runs a parsed command line.
pub fn run(cli: Cli, explicit: Explicit) -> Result<Ended, Failure> {
    let log = crate::logging::init(cli.log.log_file.as_deref()).map_err(Failure::Usage)?;
    match cli.command {
        Some(Command::List(args)) => list(args, explicit),
        Some(Command::Serve(args)) => serve(args),
        Some(Command::DemoData(args)) => {
            crate::app::demo_data::run(args.events, args.seed, args.out.as_deref())
        }
        Some(Command::Config(args)) => {
            let log = match &log {
                Some(path) => path.display().to_string(),
                None => format!("off (--log-file FILE, or {}=debug)", crate::logging::ENV),
            };
            let (text, settings) =
                config::report(&args.settings, &log).map_err(|e| Failure::usage(e.to_string()))?;
            docs::write_stdout(text.as_bytes(), "the settings")?;
            // What the explorer would refuse to start with: keys and the theme.
            crate::tui::keys_and_theme(&settings, false).map_err(Failure::Problems)?;
            Ok(Ended::Done)
        }
        Some(Command::Story(args)) => story(args),
        Some(Command::Completions(args)) => docs::completions(args.shell),
        Some(Command::Man(args)) => docs::man(args.command.as_deref(), args.out.as_deref()),
        None => explore(cli, explicit),
    }
}

fn list(mut args: ListArgs, explicit: Explicit) -> Result<Ended, Failure> {
    let given = args.filters.clone();
    let settings = config::configure(
        &args.settings,
        &mut args.source,
        &mut args.filters,
        explicit,
    )
    .map_err(|e| Failure::usage(e.to_string()))?;
    let filter = args.filters.to_filter().map_err(Failure::Usage)?;
    // A profile narrows what list prints: said once, where it cannot mix with the output, with
    // the filters it adds to the command line's (those the command line set are its own).
    if let Some(profile) = &settings.profile {
        let added = config::added_filters(&given, &args.filters)
            .to_filter()
            .map_err(Failure::Usage)?;
        crate::text::say!(
            "callscope: profile {} in force; filters it adds: {} (--no-profile leaves it out)",
            crate::text::for_terminal(profile),
            crate::text::for_terminal(&added.describe())
        );
    }
    let source = match source_named(&args.source) {
        Some(source) => source,
        None => {
            return Err(Failure::usage(
                "name a source: FILE..., --demo or --live (see callscope list --help)",
            ));
        }
    };
    check_base_url(&source, &args.source)?;
    // A path that is not there, or a folder with no dump, stops list before anything is read
    // or written: `--output` must not be replaced by the events of the other files, or by none.
    check_paths(&source)?;
    crate::app::list::run(crate::app::list::List {
        source,
        filter,
        format: args.format,
        output: args.output,
        max: args.max,
        group_by: args.group_by,
        sort: args.sort,
        redact: args.redact || settings.redact,
    })
}

fn story(mut args: StoryArgs) -> Result<Ended, Failure> {
    let mut filters = FilterArgs::default();
    let explicit = Explicit::guess(&args.source);
    config::configure(&args.settings, &mut args.source, &mut filters, explicit)
        .map_err(|e| Failure::usage(e.to_string()))?;
    let source = source_named(&args.source).ok_or_else(|| {
        Failure::usage("name a source: FILE..., --demo or --live (see callscope story --help)")
    })?;
    check_base_url(&source, &args.source)?;
    check_paths(&source)?;
    crate::app::story::run(crate::app::story::StoryOf {
        peer_id: args.peer.trim().to_string(),
        source,
        room: args.room.or(filters.room),
        format: if args.format == "json" {
            crate::app::story::StoryFormat::Json
        } else {
            crate::app::story::StoryFormat::Text
        },
        quality: args.quality,
    })
}

fn serve(args: ServeArgs) -> Result<Ended, Failure> {
    let options = args.source();
    let source = source_named(&options).ok_or_else(|| {
        Failure::usage(
            "name a source to serve: FILE..., --demo or --live (see callscope serve --help)",
        )
    })?;
    check_base_url(&source, &options)?;
    if !options.live {
        let live_only = [
            ("--base-url", args.base_url.is_some()),
            ("--live-token-file", args.live_token_file.is_some()),
            ("--insecure", args.insecure),
            ("--page-size", args.page_size.is_some()),
        ];
        if let Some((flag, _)) = live_only.iter().find(|(_, given)| *given) {
            return Err(Failure::usage(format!(
                "{flag} is for reading the live API: add --live (serve listens on --addr)"
            )));
        }
    }
    let filter = args.filters.to_filter().map_err(Failure::Usage)?;
    let app = match (&args.access_key_env, &args.secret_env) {
        (Some(key_env), Some(secret_env)) => {
            let read = |name: &str| {
                std::env::var(name)
                    .ok()
                    .map(|v| v.trim().to_string())
                    .filter(|v| !v.is_empty())
                    .ok_or_else(|| {
                        Failure::usage(format!(
                            "{name} is not set: --access-key-env and --secret-env name the \
                             environment variables that hold the app's access key and secret"
                        ))
                    })
            };
            Some(crate::serve::AppKey {
                access_key: read(key_env)?,
                secret: read(secret_env)?,
            })
        }
        _ => None,
    };
    crate::app::serve::run(crate::app::serve::Serve {
        source,
        filter,
        addr: args.addr,
        token_file: args.token_file,
        redact: args.redact,
        app,
        lenient: args.lenient,
        delay_ms: args.delay_ms,
    })
}

fn explore(mut cli: Cli, explicit: Explicit) -> Result<Ended, Failure> {
    let settings = config::configure(&cli.settings, &mut cli.source, &mut cli.filters, explicit)
        .map_err(|e| Failure::usage(e.to_string()))?;
    let filter = cli.filters.to_filter().map_err(Failure::Usage)?;
    // With no source named, the explorer goes live when a token is configured, else it opens
    // the demo, and says why.
    let mut note = None;
    let source = source_named(&cli.source).unwrap_or_else(|| {
        let live = cli.source.live();
        let how = live.names.rename(
            "set HMS_MANAGEMENT_TOKEN (or HMS_ACCESS_KEY and HMS_SECRET, or pass --token-file FILE) \
             and name a --room",
        );
        match live.discover() {
            Ok(Some(_)) => return Source::Live(live),
            Ok(None) => {
                note = Some(format!(
                    "no token was found, so this is the demo; for your rooms' events, {how}"
                ));
            }
            Err(e) => {
                note = Some(format!(
                    "the token could not be read ({e}), so this is the demo; for your rooms' events, {how}"
                ));
            }
        }
        Source::Demo
    });
    check_base_url(&source, &cli.source)?;
    crate::app::explore::run(crate::app::explore::Explore {
        source,
        filter,
        settings,
        follow: cli.follow.follow,
        follow_every: std::time::Duration::from_secs(cli.follow.follow_interval),
        note,
    })
}

/// The source the options name, `None` when they name none.
fn source_named(args: &SourceArgs) -> Option<Source> {
    if args.demo {
        Some(Source::Demo)
    } else if args.live {
        Some(Source::Live(args.live()))
    } else if !args.files.is_empty() {
        Some(Source::Files(args.files.clone()))
    } else {
        None
    }
}

/// Refuses a live source's base URL that is no http or https URL, naming where it was set; a
/// source that reads no API leaves it unread.
fn check_base_url(source: &Source, args: &SourceArgs) -> Result<(), Failure> {
    match source {
        Source::Live(_) => args.check_base_url().map_err(Failure::Usage),
        _ => Ok(()),
    }
}

/// Refuses a path that is not there, or a folder with no dump in it, before anything starts.
fn check_paths(source: &Source) -> Result<(), Failure> {
    if let Source::Files(files) = source {
        for arg in files.iter().filter(|f| *f != "-") {
            crate::source::dump::expand(arg).map_err(|p| Failure::usage(p.to_string()))?;
        }
    }
    Ok(())
}
