//! The log: requests, retries, timings and errors, written to a file and never to the terminal
//! (the explorer draws on it). Off unless `--log-file FILE` or `CALLSCOPE_LOG` asks for it.
//!
//! No token reaches the log: callscope's own events carry paths, queries, statuses and messages
//! that are already free of it, and the HTTP libraries, whose debug output may show request
//! headers, are held to `info` whatever `CALLSCOPE_LOG` says.

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use tracing::Level;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::filter::filter_fn;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// The level, or tracing filter directives (`debug`, `callscope=trace,warn`).
pub const ENV: &str = "CALLSCOPE_LOG";
pub const FILE_NAME: &str = "callscope.log";

/// Crates that see raw requests: nothing below `info` of theirs is logged.
const HTTP_STACK: &[&str] = &[
    "hyper",
    "hyper_util",
    "h2",
    "reqwest",
    "rustls",
    "tokio_rustls",
    "tower",
    "tower_http",
    "axum",
    "http",
];

/// Where the log goes when only `CALLSCOPE_LOG` is set: `$XDG_STATE_HOME/callscope/callscope.log`
/// (`~/.local/state/...`), else the cache folder.
pub fn default_path() -> Option<PathBuf> {
    Some(crate::folders::state()?.join(FILE_NAME))
}

/// The filter for a `CALLSCOPE_LOG` value: a bare level applies to callscope (others log
/// warnings); anything else is read as tracing directives.
pub fn filter(spec: Option<&str>) -> Result<EnvFilter, String> {
    let spec = match spec.map(str::trim).filter(|s| !s.is_empty()) {
        None => "warn,callscope=debug".to_string(),
        Some(level) if level.parse::<Level>().is_ok() || level.eq_ignore_ascii_case("off") => {
            format!("warn,callscope={level}")
        }
        Some(directives) => directives.to_string(),
    };
    EnvFilter::builder().parse(&spec).map_err(|e| {
        format!(
            "{ENV}={spec}: {e} (use a level such as debug, or directives such as callscope=trace)"
        )
    })
}

fn quiet(target: &str) -> bool {
    HTTP_STACK.iter().any(|c| {
        target
            .strip_prefix(c)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with("::"))
    })
}

/// Where the log goes, if anywhere: `--log-file`, else the default file when `CALLSCOPE_LOG`
/// is set.
pub fn destination(log_file: Option<&Path>) -> Option<PathBuf> {
    match log_file {
        Some(p) => Some(p.to_path_buf()),
        None => std::env::var_os(ENV)
            .filter(|v| !v.is_empty())
            .and_then(|_| default_path()),
    }
}

/// Starts logging when asked to; returns the file written to. A log that cannot be opened is an
/// error: callscope does not start without the log it was asked for.
pub fn init(log_file: Option<&Path>) -> Result<Option<PathBuf>, String> {
    let Some(path) = destination(log_file) else {
        return Ok(None);
    };
    let spec = std::env::var(ENV).ok();
    let filter = filter(spec.as_deref())?;
    if log_file.is_none()
        && let Some(folder) = path.parent()
    {
        std::fs::create_dir_all(folder)
            .map_err(|e| format!("cannot create the log folder {}: {e}", folder.display()))?;
    }
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| format!("cannot open the log file {}: {e}", path.display()))?;
    let layer = tracing_subscriber::fmt::layer()
        .with_writer(Mutex::new(file))
        .with_ansi(false)
        .with_target(true);
    let held = filter_fn(|meta| !(quiet(meta.target()) && *meta.level() > Level::INFO));
    tracing_subscriber::registry()
        .with(filter)
        .with(held)
        .with(layer)
        .try_init()
        .map_err(|e| format!("cannot start the log: {e}"))?;
    tracing::info!(version = env!("CARGO_PKG_VERSION"), "callscope started");
    Ok(Some(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_http_stack_is_held_back() {
        assert!(quiet("hyper"));
        assert!(quiet("hyper::proto::h1::io"));
        assert!(quiet("h2::codec"));
        assert!(!quiet("hyperion"));
        assert!(!quiet("callscope::source::api"));
    }

    #[test]
    fn levels_and_directives() {
        assert!(filter(None).is_ok());
        assert!(filter(Some("debug")).is_ok());
        assert!(filter(Some("callscope=trace,warn")).is_ok());
        assert!(filter(Some("=[{")).is_err());
    }
}
