//! The folders callscope keeps its files in, by the XDG rules (`$XDG_CONFIG_HOME`,
//! `$XDG_STATE_HOME`, falling back to `~/.config` and `~/.local/state`).

use std::path::{Path, PathBuf};

use etcetera::BaseStrategy;

/// The name of callscope's own folder within each of them.
pub const APP_DIR: &str = "callscope";

/// Where the config file is looked for: `~/.config/callscope`.
pub fn config() -> Option<PathBuf> {
    let dirs = etcetera::choose_base_strategy().ok()?;
    Some(dirs.config_dir().join(APP_DIR))
}

/// Where what callscope remembers and logs goes: `~/.local/state/callscope`, else the cache
/// folder.
pub fn state() -> Option<PathBuf> {
    let dirs = etcetera::choose_base_strategy().ok()?;
    let folder = dirs.state_dir().unwrap_or_else(|| dirs.cache_dir());
    Some(folder.join(APP_DIR))
}

/// A path that starts with `~/` (or is `~`), from the home folder; any other as it is.
pub fn expand_home(path: &Path) -> PathBuf {
    expand_home_in(path, etcetera::home_dir().ok().as_deref())
}

/// [`expand_home`] with the home folder given.
pub fn expand_home_in(path: &Path, home: Option<&Path>) -> PathBuf {
    match (path.strip_prefix("~"), home) {
        (Ok(rest), Some(home)) => home.join(rest),
        _ => path.to_path_buf(),
    }
}
