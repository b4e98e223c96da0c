use std::process::ExitCode;

fn main() -> ExitCode {
    callscope::commands::main()
}
