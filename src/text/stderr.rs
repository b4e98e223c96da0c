//! Lines for stderr that a closed stderr does not turn into a panic.
//!
//! `eprintln!` panics when stderr cannot be written (a pipe whose reader stopped, as in
//! `2>&1 >/dev/null | head -1`). What goes to stderr is said for the user; when no one reads
//! it any more, it is lost and the command goes on to the exit status it would have had.

use std::fmt::Arguments;
use std::io::Write;

/// Writes `args` to stderr, ignoring a failure to write.
pub fn write_stderr(args: Arguments) {
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_fmt(args);
    let _ = stderr.flush();
}

/// A line on stderr, as `eprintln!` writes it, but never a panic: see [`write_stderr`].
macro_rules! say {
    () => {
        $crate::text::write_stderr(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::text::write_stderr(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Text on stderr, as `eprint!` writes it, but never a panic: see [`write_stderr`].
macro_rules! say_part {
    ($($arg:tt)*) => {
        $crate::text::write_stderr(format_args!($($arg)*))
    };
}

pub(crate) use {say, say_part};
