//! The entry points of each command, and their exit statuses (PRODUCT.md): 0 success (zero
//! matches included), 1 a runtime failure, 2 a usage error or unreadable input.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use crate::cli::{Cli, Command, CompletionsArgs, DemoDataArgs, ListArgs, ManArgs, SourceArgs};
use crate::config::Explicit;
use crate::filter::Filter;
use crate::output::Format;
use crate::source::{self, DumpProblem};
use crate::store::Store;

pub const EXIT_RUNTIME: u8 = 1;
pub const EXIT_USAGE: u8 = 2;

/// Parses the command line and runs it. clap's matches tell which source options were given
/// (they win over a profile) and which hold their defaults (a profile may set those).
pub fn main() -> ExitCode {
    crate::memory::give_back_large_blocks();
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let scope = match matches.subcommand() {
        Some(("list", sub)) => sub,
        _ => &matches,
    };
    let explicit = match &cli.command {
        None | Some(Command::List(_)) => Explicit::of(scope),
        _ => Explicit::default(),
    };
    run_with(cli, explicit)
}

pub fn run(cli: Cli) -> ExitCode {
    let explicit = match &cli.command {
        Some(Command::List(args)) => Explicit::guess(&args.source),
        _ => Explicit::guess(&cli.source),
    };
    run_with(cli, explicit)
}

fn run_with(mut cli: Cli, explicit: Explicit) -> ExitCode {
    let log = match crate::logging::init(cli.log.log_file.as_deref()) {
        Ok(path) => path,
        Err(e) => return usage_error(&e),
    };
    match cli.command {
        Some(Command::List(mut args)) => {
            match crate::config::configure(
                &args.settings,
                &mut args.source,
                &mut args.filters,
                explicit,
            ) {
                Ok(settings) => args.redact |= settings.redact,
                Err(e) => return usage_error(&e.to_string()),
            }
            list(args)
        }
        Some(Command::DemoData(args)) => demo_data(args),
        Some(Command::Serve(args)) => crate::serve::run(args),
        Some(Command::Config(args)) => {
            let log = match &log {
                Some(path) => path.display().to_string(),
                None => format!("off (--log-file FILE, or {}=debug)", crate::logging::ENV),
            };
            match crate::config::report(&args.settings, &log) {
                Ok((text, settings)) => {
                    print!("{text}");
                    // What the explorer would refuse to start with: keys and the theme.
                    match crate::tui::keys_and_theme(&settings, false) {
                        Ok(_) => ExitCode::SUCCESS,
                        Err(problems) => {
                            for p in problems {
                                eprintln!("callscope: {p}");
                            }
                            ExitCode::from(EXIT_USAGE)
                        }
                    }
                }
                Err(e) => usage_error(&e.to_string()),
            }
        }
        Some(Command::Completions(args)) => completions(args),
        Some(Command::Man(args)) => man(args),
        None => {
            match crate::config::configure(
                &cli.settings,
                &mut cli.source,
                &mut cli.filters,
                explicit,
            ) {
                Ok(settings) => crate::tui::run(cli.source, cli.filters, settings, cli.follow),
                Err(e) => usage_error(&e.to_string()),
            }
        }
    }
}

fn completions(args: CompletionsArgs) -> ExitCode {
    let mut command = Cli::command();
    // Generated whole first: the generator cannot report a closed pipe, only panic on it.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "callscope", &mut script);
    write_stdout(&script, "the completion script")
}

fn man(args: ManArgs) -> ExitCode {
    let mut command = Cli::command().disable_help_subcommand(true);
    // Building names each subcommand as its page is named (callscope-list).
    command.build();
    let command = match &args.command {
        None => command,
        Some(name) => match command.find_subcommand(name) {
            Some(sub) => sub.clone(),
            None => {
                let names: Vec<&str> = command.get_subcommands().map(|s| s.get_name()).collect();
                return usage_error(&format!(
                    "no command named {name}; the commands are {}",
                    names.join(", ")
                ));
            }
        },
    };
    let mut page = Vec::new();
    let man =
        clap_mangen::Man::new(command).source(concat!("callscope ", env!("CARGO_PKG_VERSION")));
    if let Err(e) = man.render(&mut page) {
        eprintln!("callscope: cannot render the man page: {e}");
        return ExitCode::from(EXIT_RUNTIME);
    }
    write_stdout(&page, "the man page")
}

fn write_stdout(bytes: &[u8], what: &str) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("callscope: cannot write {what}: {e}");
            ExitCode::from(EXIT_RUNTIME)
        }
    }
}

fn usage_error(message: &str) -> ExitCode {
    eprintln!("callscope: {message}");
    ExitCode::from(EXIT_USAGE)
}

/// Loads a dump or demo source into a store; the problems met are returned beside it.
pub fn load_offline(source: &SourceArgs) -> (Store, Vec<DumpProblem>) {
    let mut store = Store::new();
    if source.demo || source.files.is_empty() {
        store.merge(source::demo::load());
        return (store, Vec::new());
    }
    let problems = source::load_files(&source.files, |_, batch| {
        store.merge(batch);
    });
    (store, problems)
}

/// Loads a dump or demo source and selects the events that match: line-delimited dumps take the
/// fast path (only lines that could match are parsed), everything else the full one.
pub fn select_offline(source: &SourceArgs, filter: &Filter) -> (Store, Vec<DumpProblem>, Vec<u32>) {
    if let Some(blobs) = line_delimited(source)
        && let Ok((store, rows)) = source::ndjson::select(blobs, filter)
    {
        return (store, Vec::new(), rows);
    }
    let (store, problems) = load_offline(source);
    let rows = store.filter(filter);
    (store, problems, rows)
}

/// The events of a line-delimited dump that match, chosen without a store (for the formats that
/// copy each event's JSON); `None` when the source is not one the fast path can read.
pub fn select_offline_spans(source: &SourceArgs, filter: &Filter) -> Option<source::ndjson::Spans> {
    source::ndjson::select_spans(line_delimited(source)?, filter).ok()
}

/// The contents of a file source whose every file looks line-delimited and opened cleanly.
fn line_delimited(source: &SourceArgs) -> Option<Vec<std::sync::Arc<crate::store::Blob>>> {
    // stdin can be read only once: it never takes the fast path.
    if source.demo
        || source.live
        || source.files.is_empty()
        || source.files.iter().any(|f| f == "-")
    {
        return None;
    }
    let mut blobs = Vec::new();
    for arg in &source.files {
        for path in source::dump::expand(arg).ok()? {
            // Nor does a pipe named by its path (`<(zcat dump.gz)`, /dev/stdin), nor a gzip'd
            // dump: the fast path reads a file whole, and the full one reads it as it
            // decompresses, keeping what does not fit in memory in a temporary file.
            let blob = source::dump::map_plain_file(&path)?;
            // The fast path reads lines as they are: a byte order mark before the first would
            // be read as part of it.
            if blob.starts_with(source::dump::BYTE_ORDER_MARK)
                || !source::ndjson::looks_line_delimited(&blob)
            {
                return None;
            }
            blobs.push(std::sync::Arc::new(blob));
        }
    }
    Some(blobs)
}

fn list(args: ListArgs) -> ExitCode {
    let filter = match args.filters.to_filter() {
        Ok(f) => f,
        Err(e) => return usage_error(&e),
    };
    if !args.source.demo && !args.source.live && args.source.files.is_empty() {
        return usage_error("name a source: FILE..., --demo or --live (see callscope list --help)");
    }
    // A path that is not there, or a folder with no dump, stops list before anything is read or
    // written: `--output` must not be replaced by the events of the other files, or by none.
    for arg in args.source.files.iter().filter(|f| *f != "-") {
        if let Err(problem) = source::dump::expand(arg) {
            return usage_error(&problem.to_string());
        }
    }
    let (store, problems, rows) = if args.source.live {
        match load_live(&args.source, &filter, args.max) {
            Ok(store) => {
                let rows = store.filter(&filter);
                (store, Vec::new(), rows)
            }
            Err(LiveError::Usage(e)) => return usage_error(&e),
            Err(LiveError::Runtime(store, e)) => {
                // What arrived before the failure is still written, and the exit status says it
                // is incomplete.
                eprintln!("callscope: {e}");
                let rows = store.filter(&filter);
                let _ = write_list(&args, &store, rows);
                return ExitCode::from(EXIT_RUNTIME);
            }
        }
    } else {
        if copies_json(&args)
            && let Some(spans) = select_offline_spans(&args.source, &filter)
        {
            return match write_spans(&args, &spans) {
                Ok(()) => {
                    // The process ends here: unmapping the dump would only cost time.
                    std::mem::forget(spans);
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("callscope: {e}");
                    ExitCode::from(EXIT_RUNTIME)
                }
            };
        }
        select_offline(&args.source, &filter)
    };
    for p in &problems {
        eprintln!("callscope: {p}");
    }
    if let Err(e) = write_list(&args, &store, rows) {
        eprintln!("callscope: {e}");
        return ExitCode::from(EXIT_RUNTIME);
    }
    if problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        eprintln!(
            "callscope: {} problem(s) in the input; the {} readable event(s) were used",
            problems.len(),
            store.len()
        );
        ExitCode::from(EXIT_USAGE)
    }
}

/// Why a live load stopped: a usage error (no token, a refused URL) before any request, or a
/// runtime failure, with the events that arrived before it.
enum LiveError {
    Usage(String),
    Runtime(Box<Store>, String),
}

/// Pages through the live query, with a progress line on stderr when stderr is a terminal.
fn load_live(
    source: &SourceArgs,
    filter: &crate::filter::Filter,
    max: Option<usize>,
) -> Result<Store, LiveError> {
    let (api, tokens) = crate::source::live::connect(source).map_err(LiveError::Usage)?;
    fetch_live(source, &api, tokens, filter, max).map_err(|(store, e)| LiveError::Runtime(store, e))
}

/// [`load_live`] with the client and token source `connect` gave; on a failure, the events
/// that arrived before it and what went wrong, in the names of `source`'s token options.
pub(crate) fn fetch_live(
    source: &SourceArgs,
    api: &crate::source::api::Api,
    tokens: crate::source::token::TokenSource,
    filter: &crate::filter::Filter,
    max: Option<usize>,
) -> Result<Store, (Box<Store>, String)> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| (Box::default(), format!("cannot start: {e}")))?;
    let show = std::io::stderr().is_terminal();
    let result = runtime.block_on(crate::source::live::fetch_all(
        api,
        tokens,
        filter,
        max,
        |p| {
            if show {
                let total = p.total.map(|t| format!(" of {t}")).unwrap_or_default();
                eprint!(
                    "\r\x1b[2Kfetched page {}: {} events{total}",
                    p.pages, p.events
                );
            }
        },
        |r| {
            if show {
                eprint!("\r\x1b[2K");
            }
            eprintln!(
                "callscope: {}; retrying in {} s, attempt {} of {}",
                r.reason,
                r.wait.as_secs().max(1),
                r.attempt,
                r.of
            );
        },
    ));
    if show {
        eprint!("\r\x1b[2K");
    }
    result.map_err(|(store, e)| (Box::new(store), source.token_env.rename(&e)))
}

/// The format `list` writes in: the one asked for, else a table on a terminal and NDJSON
/// anywhere else.
fn list_format(args: &ListArgs) -> Format {
    args.format.unwrap_or_else(|| {
        if args.output.is_none() && std::io::stdout().is_terminal() {
            Format::Table
        } else {
            Format::Ndjson
        }
    })
}

/// Whether `list` writes each selected event's JSON as it was read, and nothing else.
fn copies_json(args: &ListArgs) -> bool {
    matches!(list_format(args), Format::Ndjson | Format::Json)
        && !args.redact
        && args.group_by.is_none()
}

fn write_spans(args: &ListArgs, spans: &source::ndjson::Spans) -> Result<(), String> {
    let n = args.max.map_or(spans.len(), |m| m.min(spans.len()));
    let format = list_format(args);
    write_out(args, |out| {
        crate::output::write_raw_events(spans.raws().take(n), n, format == Format::Json, out)
    })
}

/// Writes to `--output` (atomically) or to stdout, where a closed pipe is no error.
fn write_out(
    args: &ListArgs,
    write: impl Fn(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), String> {
    match &args.output {
        Some(path) => crate::output::write_atomically(path, write)
            .map_err(|e| format!("cannot write {}: {e}", path.display())),
        None => {
            let stdout = std::io::stdout();
            // On a terminal, text from the data must not drive it, whatever the format; a pipe
            // or a file gets the bytes as they are.
            let on_terminal = stdout.is_terminal();
            let out =
                std::io::BufWriter::with_capacity(crate::output::OUTPUT_BUFFER, stdout.lock());
            let mut out: Box<dyn Write> = if on_terminal {
                Box::new(crate::text::ForTerminal::new(out))
            } else {
                Box::new(out)
            };
            match write(&mut out).and_then(|()| out.flush()) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                other => other.map_err(|e| format!("cannot write to stdout: {e}")),
            }
        }
    }
}

fn write_list(args: &ListArgs, store: &Store, mut rows: Vec<u32>) -> Result<(), String> {
    if let Some(max) = args.max {
        rows.truncate(max);
    }
    let format = list_format(args);
    // Redacting makes a store of its own: every format and grouping then reads pseudonyms.
    let redacted;
    let (store, rows) = if args.redact {
        redacted = crate::redact::redacted_store(store, &rows)?;
        (&redacted, (0..redacted.len() as u32).collect())
    } else {
        (store, rows)
    };
    let groups = args
        .group_by
        .map(|key| crate::insight::Groups::compute(store, &rows, key, args.sort));
    // A table for people fits the terminal it is printed on, rather than wrapping there.
    let columns = (format == Format::Table && args.output.is_none())
        .then(terminal_columns)
        .flatten();
    let write = |out: &mut dyn Write| match &groups {
        Some(groups) => crate::insight::write_groups_within(store, groups, format, columns, out),
        None => crate::output::write_events_within(store, &rows, format, columns, out),
    };
    write_out(args, write)
}

/// The width of the terminal that stdout is, if it is one.
fn terminal_columns() -> Option<usize> {
    if !std::io::stdout().is_terminal() {
        return None;
    }
    crossterm::terminal::size()
        .ok()
        .map(|(columns, _)| usize::from(columns))
        .filter(|&c| c > 0)
}

fn demo_data(args: DemoDataArgs) -> ExitCode {
    let stdout = std::io::stdout();
    let out = std::io::BufWriter::with_capacity(crate::output::OUTPUT_BUFFER, stdout.lock());
    match crate::generator::write_ndjson(out, args.events, args.seed) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(
                std::io::stderr(),
                "callscope: cannot write the dataset: {e}"
            );
            ExitCode::from(EXIT_RUNTIME)
        }
    }
}
