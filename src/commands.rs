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
        Some(Command::Serve(_)) => usage_error("serve is not available in this build"),
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
    if args.source.live {
        return usage_error("--live is not available in this build");
    }
    if !args.source.demo && args.source.files.is_empty() {
        return usage_error("name a source: FILE..., --demo or --live (see callscope list --help)");
    }
    let (store, problems) = load_offline(&args.source);
    for p in &problems {
        eprintln!("callscope: {p}");
    }
    let mut rows = store.filter(&filter);
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
            crate::output::write_events(&store, &rows, format, out)
        })
        .map_err(|e| format!("cannot write {}: {e}", path.display())),
        None => {
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            match crate::output::write_events(&store, &rows, format, &mut out) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                other => other.map_err(|e| format!("cannot write to stdout: {e}")),
            }
        }
    };
    if let Err(e) = written {
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
