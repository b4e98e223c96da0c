use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = callscope::cli::Cli::parse();
    callscope::commands::run(cli)
}
