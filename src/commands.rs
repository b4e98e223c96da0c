//! The entry points of each command, and their exit statuses (PRODUCT.md): 0 success (zero
//! matches included), 1 a runtime failure, 2 a usage error or unreadable input.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use crate::cli::{Cli, Command, DemoDataArgs, Format, ListArgs, SourceArgs};
use crate::source::{self, DumpProblem};
use crate::store::Store;

pub const EXIT_RUNTIME: u8 = 1;
pub const EXIT_USAGE: u8 = 2;

pub fn run(cli: Cli) -> ExitCode {
    match cli.command {
        Some(Command::List(args)) => list(args),
        Some(Command::DemoData(args)) => demo_data(args),
        Some(Command::Serve(args)) => crate::serve::run(args),
        None => crate::tui::run(cli.source, cli.filters),
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

fn list(args: ListArgs) -> ExitCode {
    let filter = match args.filters.to_filter() {
        Ok(f) => f,
        Err(e) => return usage_error(&e),
    };
    if !args.source.demo && !args.source.live && args.source.files.is_empty() {
        return usage_error("name a source: FILE..., --demo or --live (see callscope list --help)");
    }
    let (store, problems) = if args.source.live {
        match load_live(&args.source, &filter, args.max) {
            Ok(store) => (store, Vec::new()),
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
        load_offline(&args.source)
    };
    for p in &problems {
        eprintln!("callscope: {p}");
    }
    let rows = store.filter(&filter);
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

enum LiveError {
    Usage(String),
    Runtime(Store, String),
}

/// Pages through the live query, with a progress line on stderr when stderr is a terminal.
fn load_live(source: &SourceArgs, filter: &crate::filter::Filter, max: Option<usize>) -> Result<Store, LiveError> {
    let (api, tokens) = crate::source::live::connect(source).map_err(LiveError::Usage)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| LiveError::Runtime(Store::new(), format!("cannot start: {e}")))?;
    let show = std::io::stderr().is_terminal();
    let result = runtime.block_on(crate::source::live::fetch_all(
        &api,
        tokens,
        filter,
        max,
        |p| {
            if show {
                let total = p.total.map(|t| format!(" of {t}")).unwrap_or_default();
                eprint!("\r\x1b[2Kfetched page {}: {} events{total}", p.pages, p.events);
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
    result.map_err(|(store, e)| LiveError::Runtime(store, e))
}

fn write_list(args: &ListArgs, store: &Store, mut rows: Vec<u32>) -> Result<(), String> {
    if let Some(max) = args.max {
        rows.truncate(max);
    }
    let format = args.format.unwrap_or_else(|| {
        if args.output.is_none() && std::io::stdout().is_terminal() {
            Format::Table
        } else {
            Format::Ndjson
        }
    });
    let written = match &args.output {
        Some(path) => crate::output::write_atomically(path, |out| {
            crate::output::write_events(store, &rows, format, out)
        })
        .map_err(|e| format!("cannot write {}: {e}", path.display())),
        None => {
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            match crate::output::write_events(store, &rows, format, &mut out) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                other => other.map_err(|e| format!("cannot write to stdout: {e}")),
            }
        }
    };
    written
}

fn demo_data(args: DemoDataArgs) -> ExitCode {
    let stdout = std::io::stdout();
    let out = std::io::BufWriter::new(stdout.lock());
    match crate::generator::write_ndjson(out, args.events, args.seed) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "callscope: cannot write the dataset: {e}");
            ExitCode::from(EXIT_RUNTIME)
        }
    }
}
