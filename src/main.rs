use std::process::ExitCode;

fn main() -> ExitCode {
    callscope::cli::main()
}
