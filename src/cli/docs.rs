//! The command line describing itself: shell completions and man pages.

use std::io::Write;

use clap::CommandFactory;

use super::Cli;
use crate::app::{Ended, Failure};

pub fn completions(shell: clap_complete::Shell) -> Result<Ended, Failure> {
    let mut command = Cli::command();
    // Generated whole first: the generator cannot report a closed pipe, only panic on it.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "callscope", &mut script);
    write_stdout(&script, "the completion script")
}

/// The man page of callscope, or of one of its commands.
pub fn man(name: Option<&str>) -> Result<Ended, Failure> {
    let mut command = Cli::command().disable_help_subcommand(true);
    // Building names each subcommand as its page is named (callscope-list).
    command.build();
    let command = match name {
        None => command,
        Some(name) => match command.find_subcommand(name) {
            Some(sub) => sub.clone(),
            None => {
                let names: Vec<&str> = command.get_subcommands().map(|s| s.get_name()).collect();
                return Err(Failure::usage(format!(
                    "no command named {name}; the commands are {}",
                    names.join(", ")
                )));
            }
        },
    };
    let mut page = Vec::new();
    let man =
        clap_mangen::Man::new(command).source(concat!("callscope ", env!("CARGO_PKG_VERSION")));
    man.render(&mut page)
        .map_err(|e| Failure::runtime(format!("cannot render the man page: {e}")))?;
    write_stdout(&page, "the man page")
}

/// Writes to stdout, where a closed pipe is no error.
pub fn write_stdout(bytes: &[u8], what: &str) -> Result<Ended, Failure> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(Ended::Done),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(Ended::Done),
        Err(e) => Err(Failure::runtime(format!("cannot write {what}: {e}"))),
    }
}
