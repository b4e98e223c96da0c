//! The front ends: the explorer, `list`, `serve` and `demo-data`. Each takes plain values (a
//! resolved [`Source`](crate::source::Source), a [`Filter`](crate::filter::Filter) and its own
//! options) and returns what went wrong as a [`Failure`], which [`exit`] turns into lines on
//! stderr and an exit status, here and nowhere else (PRODUCT.md): 0 success (zero matches
//! included), 1 a runtime failure, 2 a usage error or unreadable input.

pub mod demo_data;
pub mod explore;
mod fetch;
pub mod grouped;
pub mod list;
pub mod serve;
pub mod story;

use std::process::ExitCode;

/// A runtime failure: the network, the server, the disk.
pub const EXIT_RUNTIME: u8 = 1;
/// A usage error or unreadable input.
pub const EXIT_USAGE: u8 = 2;

/// Why a command did not do what it was asked, in words for the person who asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Failure {
    /// The command line, the config, or what they name cannot be used as given.
    #[error("{0}")]
    Usage(String),
    /// Several things are wrong with what was given (a dump's damaged places, a config's bad
    /// keys), one line each, the last one saying what was done about them.
    #[error("{}", .0.join("\n"))]
    Problems(Vec<String>),
    /// A failure while running: the network, the server, the disk.
    #[error("{0}")]
    Runtime(String),
}

impl Failure {
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure::Usage(message.into())
    }

    pub fn runtime(message: impl Into<String>) -> Failure {
        Failure::Runtime(message.into())
    }

    /// The exit status it is reported with.
    pub fn exit_status(&self) -> u8 {
        match self {
            Failure::Usage(_) | Failure::Problems(_) => EXIT_USAGE,
            Failure::Runtime(_) => EXIT_RUNTIME,
        }
    }
}

/// How a command ended that did not fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    Done,
    /// Stopped by a signal: the status shells report for a process killed by it (128 + the
    /// signal's number).
    Signal(u8),
}

/// The one place a command's end becomes an exit status, and a failure lines on stderr.
pub fn exit(result: Result<Ended, Failure>) -> ExitCode {
    match result {
        Ok(Ended::Done) => ExitCode::SUCCESS,
        Ok(Ended::Signal(status)) => ExitCode::from(status),
        Err(failure) => {
            for line in failure.to_string().lines() {
                crate::text::say!("callscope: {}", crate::text::for_terminal(line));
            }
            ExitCode::from(failure.exit_status())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_failure_has_its_exit_status() {
        assert_eq!(Failure::usage("x").exit_status(), 2);
        assert_eq!(Failure::Problems(vec!["a".into()]).exit_status(), 2);
        assert_eq!(Failure::runtime("x").exit_status(), 1);
        assert_eq!(
            Failure::Problems(vec!["a".into(), "b".into()]).to_string(),
            "a\nb"
        );
    }
}
