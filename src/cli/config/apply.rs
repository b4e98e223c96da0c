//! A profile applied to the command line: what the flags left at their defaults takes the
//! profile's values, and an empty flag clears a profile's filter.

use std::path::{Path, PathBuf};

use super::{Config, ConfigError, Profile, Settings, SettingsArgs};
use crate::cli::{FilterArgs, SourceArgs};
use crate::folders::expand_home_in;

/// Which source options were given on the command line or by their environment variable (and so
/// win over the profile). The others hold clap's defaults.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Explicit {
    pub base_url: bool,
    pub page_size: bool,
}

impl Explicit {
    /// What was given, as clap saw it.
    pub fn of(matches: &clap::ArgMatches) -> Explicit {
        use clap::parser::ValueSource;
        let given = |id: &str| {
            matches!(
                matches.value_source(id),
                Some(ValueSource::CommandLine | ValueSource::EnvVariable)
            )
        };
        Explicit {
            base_url: given("base_url"),
            page_size: given("page_size"),
        }
    }

    /// A guess from the values alone, for callers without clap's matches: a value other than the
    /// default was given.
    pub fn guess(source: &SourceArgs) -> Explicit {
        Explicit {
            base_url: source.base_url != crate::cli::DEFAULT_BASE_URL,
            page_size: source.page_size != crate::cli::DEFAULT_PAGE_SIZE,
        }
    }
}

/// Expands `~/` and reads a relative path from the config file's folder (`~/` too, when no home
/// folder is known).
pub(super) fn resolve_path(path: &Path, folder: Option<&Path>) -> PathBuf {
    if path.starts_with("~")
        && let Ok(home) = etcetera::home_dir()
    {
        return expand_home_in(path, Some(&home));
    }
    match folder {
        Some(folder) if path.is_relative() => folder.join(path),
        _ => path.to_path_buf(),
    }
}

impl Profile {
    /// Fills in what the command line left at its default.
    pub fn apply_source(&self, source: &mut SourceArgs, explicit: Explicit, folder: Option<&Path>) {
        if let Some(url) = &self.base_url
            && !explicit.base_url
        {
            source.base_url = url.0.clone();
        }
        if let Some(n) = self.page_size
            && !explicit.page_size
        {
            source.page_size = n.0;
        }
        if source.token_file.is_none() {
            source.token_file = self.token_file.as_deref().map(|p| resolve_path(p, folder));
        }
        if let Some(n) = &self.token_env {
            source.token_env.token = n.0.clone();
        }
        if let Some(n) = &self.access_key_env {
            source.token_env.access_key = n.0.clone();
        }
        if let Some(n) = &self.secret_env {
            source.token_env.secret = n.0.clone();
        }
        source.insecure |= self.insecure.unwrap_or(false);
        if self.live == Some(true) && !source.demo && source.files.is_empty() {
            source.live = true;
        }
    }

    /// Fills in each filter the command line did not set. An empty value on the command line
    /// (`--room ""`) clears the profile's.
    pub fn apply_filters(&self, filters: &mut FilterArgs) {
        let f = &self.filters;
        if filters.types.is_empty()
            && let Some(t) = &f.types
        {
            filters.types = t.0.clone();
        }
        for (mine, theirs) in [
            (&mut filters.room, &f.room),
            (&mut filters.session, &f.session),
            (&mut filters.peer, &f.peer),
            (&mut filters.user, &f.user),
            (&mut filters.sdk, &f.sdk),
            (&mut filters.sdk_version, &f.sdk_version),
            (&mut filters.os, &f.os),
            (&mut filters.device, &f.device),
            (&mut filters.env, &f.env),
            (&mut filters.search, &f.search),
        ] {
            merge_text(mine, theirs.as_ref());
        }
        merge_text(&mut filters.since, f.since.as_ref().map(|t| &t.0));
        merge_text(&mut filters.until, f.until.as_ref().map(|t| &t.0));
        if !filters.terminal && !filters.retried {
            filters.terminal = f.terminal.unwrap_or(false);
            filters.retried = f.retried.unwrap_or(false) && !filters.terminal;
        }
        if filters.code.is_none() {
            filters.code = f.code;
        }
    }
}

/// The filters a profile added to the command line's: those of `applied` (the command line's
/// with the profile applied) that `given` (the command line's own) left unset. A filter the
/// command line set, or cleared with an empty value, is none of them.
pub fn added_filters(given: &FilterArgs, applied: &FilterArgs) -> FilterArgs {
    let unset = |mine: &Option<String>, theirs: &Option<String>| match mine {
        None => theirs.clone(),
        Some(_) => None,
    };
    let neither = !given.terminal && !given.retried;
    FilterArgs {
        types: match given.types.is_empty() {
            true => applied.types.clone(),
            false => Vec::new(),
        },
        room: unset(&given.room, &applied.room),
        session: unset(&given.session, &applied.session),
        peer: unset(&given.peer, &applied.peer),
        user: unset(&given.user, &applied.user),
        sdk: unset(&given.sdk, &applied.sdk),
        sdk_version: unset(&given.sdk_version, &applied.sdk_version),
        os: unset(&given.os, &applied.os),
        device: unset(&given.device, &applied.device),
        env: unset(&given.env, &applied.env),
        terminal: neither && applied.terminal,
        retried: neither && applied.retried,
        code: given.code.map_or(applied.code, |_| None),
        search: unset(&given.search, &applied.search),
        since: unset(&given.since, &applied.since),
        until: unset(&given.until, &applied.until),
    }
}

fn merge_text(mine: &mut Option<String>, theirs: Option<&String>) {
    match (mine.as_deref(), theirs) {
        (None, Some(v)) => *mine = Some(v.clone()),
        (Some(""), Some(_)) => *mine = None,
        _ => {}
    }
}

/// The profile names of the config file in the default place (or `CALLSCOPE_CONFIG`'s), for
/// completion scripts; none when it cannot be read.
pub fn profile_names() -> Vec<String> {
    let args = SettingsArgs {
        config: std::env::var_os("CALLSCOPE_CONFIG").map(PathBuf::from),
        ..SettingsArgs::default()
    };
    Config::load(&args)
        .map(|c| c.file.profiles.keys().cloned().collect())
        .unwrap_or_default()
}

/// Reads the config and applies the selected profile to the command's source and filters.
pub fn configure(
    args: &SettingsArgs,
    source: &mut SourceArgs,
    filters: &mut FilterArgs,
    explicit: Explicit,
) -> Result<Settings, ConfigError> {
    let config = Config::load(args)?;
    let selected = config.chosen(args)?;
    if let Some(s) = selected {
        s.profile.apply_source(source, explicit, config.folder());
        s.profile.apply_filters(filters);
        tracing::debug!(profile = s.name, via = s.via, "profile applied");
    }
    Ok(config.settings(selected))
}
