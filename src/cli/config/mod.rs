//! Settings from the config file (`~/.config/callscope/config.toml` by the XDG rules, or
//! `--config FILE`): named profiles of base URL, token source, page size, default filters, theme
//! and keys. Flags win over a profile, a profile wins over the defaults.
//!
//! The file is read whole and checked before anything starts: a syntax error, an unknown key, a
//! wrong type or an unknown profile stops callscope with the file's path, line and column.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde::de::{self, Deserializer};
use toml::Spanned;

use super::SettingsArgs;
use crate::event::EventType;

pub const FILE_NAME: &str = "config.toml";

pub use crate::tui::Settings;

/// The file's shape.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    /// The profile used when `--profile` names none.
    #[serde(default)]
    pub default_profile: Option<Spanned<String>>,
    #[serde(default)]
    pub theme: Option<String>,
    #[serde(default)]
    pub keys: BTreeMap<String, KeyList>,
    #[serde(default)]
    pub profiles: BTreeMap<String, Profile>,
}

/// One named profile. Every key may be left out.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    pub base_url: Option<BaseUrl>,
    /// Use the live API when no source is named (so `callscope list --profile prod` works).
    pub live: Option<bool>,
    pub insecure: Option<bool>,
    /// Read the token from the first line of this file (`~/` and paths relative to the config
    /// file's folder are understood).
    pub token_file: Option<PathBuf>,
    /// Read the management token from this environment variable instead of HMS_MANAGEMENT_TOKEN.
    pub token_env: Option<EnvName>,
    /// Read the access key from this variable instead of HMS_ACCESS_KEY.
    pub access_key_env: Option<EnvName>,
    /// Read the secret from this variable instead of HMS_SECRET.
    pub secret_env: Option<EnvName>,
    pub page_size: Option<PageSize>,
    pub theme: Option<String>,
    /// Redact `list` output and saved events.
    pub redact: Option<bool>,
    #[serde(default, deserialize_with = "checked_filters")]
    pub filters: Filters,
    #[serde(default)]
    pub keys: BTreeMap<String, KeyList>,
}

/// Default filters: the flags' names and meanings.
#[derive(Debug, Default, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Filters {
    #[serde(rename = "type")]
    pub types: Option<TypeList>,
    pub room: Option<String>,
    pub session: Option<String>,
    pub peer: Option<String>,
    pub user: Option<String>,
    pub sdk: Option<String>,
    pub sdk_version: Option<String>,
    pub os: Option<String>,
    pub device: Option<String>,
    pub env: Option<String>,
    pub terminal: Option<bool>,
    pub retried: Option<bool>,
    pub code: Option<i64>,
    pub search: Option<String>,
    pub since: Option<TimeText>,
    pub until: Option<TimeText>,
}

fn checked_filters<'de, D: Deserializer<'de>>(d: D) -> Result<Filters, D::Error> {
    let f = Filters::deserialize(d)?;
    if f.terminal == Some(true) && f.retried == Some(true) {
        return Err(de::Error::custom(
            "terminal and retried cannot both be true: an event is either final or retried",
        ));
    }
    Ok(f)
}

/// An http or https URL.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub struct BaseUrl(pub String);

impl TryFrom<String> for BaseUrl {
    type Error = String;
    fn try_from(text: String) -> Result<BaseUrl, String> {
        match url::Url::parse(&text) {
            Ok(u) if matches!(u.scheme(), "http" | "https") && u.host().is_some() => {
                Ok(BaseUrl(text))
            }
            _ => Err(format!(
                "base_url must be an http or https URL such as https://api.100ms.live, not {text:?}"
            )),
        }
    }
}

/// The name of an environment variable. Its value is never read into the config: a token pasted
/// here by mistake is refused without being repeated.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub struct EnvName(pub String);

impl TryFrom<String> for EnvName {
    type Error = &'static str;
    fn try_from(text: String) -> Result<EnvName, &'static str> {
        let mut chars = text.chars();
        let first_ok = chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
        if first_ok && chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
            Ok(EnvName(text))
        } else {
            Err(
                "expected the NAME of an environment variable (letters, digits and _), such as PROD_HMS_TOKEN; the token itself never goes in the config",
            )
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageSize(pub u32);

impl<'de> Deserialize<'de> for PageSize {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<PageSize, D::Error> {
        struct Visitor;
        impl de::Visitor<'_> for Visitor {
            type Value = PageSize;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number from 1 to 100")
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<PageSize, E> {
                if (1..=100).contains(&n) {
                    Ok(PageSize(n as u32))
                } else {
                    Err(E::custom(format!(
                        "page_size must be from 1 to 100, not {n}"
                    )))
                }
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<PageSize, E> {
                self.visit_i64(i64::try_from(n).unwrap_or(i64::MAX))
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// Event types, each checked as `--type` checks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeList(pub Vec<String>);

impl<'de> Deserialize<'de> for TypeList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<TypeList, D::Error> {
        let KeyList(list) = KeyList::deserialize(d)?;
        for t in &list {
            EventType::from_arg(t).map_err(de::Error::custom)?;
        }
        Ok(TypeList(list))
    }
}

/// A time bound in `--since`'s forms, checked when the file is read.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub struct TimeText(pub String);

impl TryFrom<String> for TimeText {
    type Error = String;
    fn try_from(text: String) -> Result<TimeText, String> {
        crate::time::parse_time_bound(&text, crate::time::now_nanos())?;
        Ok(TimeText(text))
    }
}

/// One string or a list of strings (`quit = "q"` or `quit = ["q", "ctrl-c"]`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeyList(pub Vec<String>);

impl<'de> Deserialize<'de> for KeyList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<KeyList, D::Error> {
        struct Visitor;
        impl<'de> de::Visitor<'de> for Visitor {
            type Value = KeyList;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string or a list of strings")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<KeyList, E> {
                if v.trim().is_empty() {
                    return Err(E::custom("an empty string names nothing"));
                }
                Ok(KeyList(vec![v.to_string()]))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<KeyList, A::Error> {
                let mut list = Vec::new();
                while let Some(v) = seq.next_element::<String>()? {
                    if v.trim().is_empty() {
                        return Err(de::Error::custom("an empty string names nothing"));
                    }
                    list.push(v);
                }
                Ok(KeyList(list))
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// A config file that cannot be used, with where the problem is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub path: Option<PathBuf>,
    /// Line and column, 1-based.
    pub position: Option<(usize, usize)>,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("config file ")?;
        match &self.path {
            Some(p) => write!(f, "{}", p.display())?,
            None => f.write_str(crate::text::NONE)?,
        }
        if let Some((line, column)) = self.position {
            write!(f, ":{line}:{column}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ConfigError {}

/// Line and column (1-based, in characters) of a byte offset.
fn position(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before
        .rsplit_once('\n')
        .map_or(before, |(_, tail)| tail)
        .chars()
        .count()
        + 1;
    (line, column)
}

/// The config file as found, read and checked.
#[derive(Debug, Default)]
pub struct Config {
    /// Where the file is, or would be (None when no home folder is known).
    pub path: Option<PathBuf>,
    /// Whether the path came from `--config` or `CALLSCOPE_CONFIG` (then it must exist).
    pub given: bool,
    pub exists: bool,
    pub file: ConfigFile,
}

/// The profile in force and why.
#[derive(Debug, Clone, Copy)]
pub struct Selected<'a> {
    pub name: &'a str,
    /// `--profile` or `default_profile`.
    pub via: &'static str,
    pub profile: &'a Profile,
}

/// Where the config file is looked for when none is given: `$XDG_CONFIG_HOME/callscope/config.toml`,
/// else `~/.config/callscope/config.toml` (on macOS too, as terminal tools do).
pub fn default_path() -> Option<PathBuf> {
    Some(crate::folders::config()?.join(FILE_NAME))
}

impl Config {
    /// Finds, reads and checks the config file: the given one (which must exist), else the default
    /// one (which may be absent: then every setting is a default).
    pub fn load(args: &SettingsArgs) -> Result<Config, ConfigError> {
        let (path, given) = match &args.config {
            Some(p) => (Some(p.clone()), true),
            None => (default_path(), false),
        };
        let Some(path) = path else {
            return Ok(Config::default());
        };
        let error = |message: String| ConfigError {
            path: Some(path.clone()),
            position: None,
            message,
        };
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !given => {
                return Ok(Config {
                    path: Some(path),
                    given,
                    exists: false,
                    file: ConfigFile::default(),
                });
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let named = match args.config_from_env {
                    true => "CALLSCOPE_CONFIG",
                    false => "--config",
                };
                return Err(error(format!("no such file (named by {named})")));
            }
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                return Err(error("not UTF-8 text".into()));
            }
            Err(e) => return Err(error(format!("cannot read it: {e}"))),
        };
        let file = parse(&text).map_err(|(position, message)| ConfigError {
            path: Some(path.clone()),
            position,
            message,
        })?;
        Ok(Config {
            path: Some(path),
            given,
            exists: true,
            file,
        })
    }

    /// The profile `args` put in force: none with `--no-profile`, else the one `--profile` (or
    /// `CALLSCOPE_PROFILE`) names, else `default_profile`'s, else none.
    pub fn chosen(&self, args: &SettingsArgs) -> Result<Option<Selected<'_>>, ConfigError> {
        if args.no_profile {
            return Ok(None);
        }
        let via = match args.profile_from_env {
            true => crate::cli::PROFILE_ENV,
            false => "--profile",
        };
        self.select_via(args.profile.as_deref(), via)
    }

    /// The profile named by `--profile`, else by `default_profile`, else none.
    #[cfg(test)]
    pub fn select(&self, requested: Option<&str>) -> Result<Option<Selected<'_>>, ConfigError> {
        self.select_via(requested, "--profile")
    }

    /// The profile `requested` names (`via` the flag or the variable that names it), else
    /// `default_profile`'s, else none. A name no profile has is an error that says where the
    /// name came from.
    fn select_via(
        &self,
        requested: Option<&str>,
        via: &'static str,
    ) -> Result<Option<Selected<'_>>, ConfigError> {
        let (name, via) = match (requested, &self.file.default_profile) {
            (Some(name), _) => (name, via),
            (None, Some(name)) => (name.get_ref().as_str(), "default_profile"),
            (None, None) => return Ok(None),
        };
        match self.file.profiles.get_key_value(name) {
            Some((name, profile)) => Ok(Some(Selected { name, via, profile })),
            None => Err(ConfigError {
                path: self.path.clone(),
                position: None,
                message: if self.exists {
                    format!(
                        "no profile is named {name:?} (given by {via}); {}",
                        self.profile_list()
                    )
                } else {
                    format!(
                        "no profile is named {name:?} (given by {via}): the config file does not \
                         exist, so it defines none"
                    )
                },
            }),
        }
    }

    fn profile_list(&self) -> String {
        if self.file.profiles.is_empty() {
            "the file defines none ([profiles.NAME] tables)".into()
        } else {
            let names: Vec<&str> = self.file.profiles.keys().map(String::as_str).collect();
            format!("its profiles are {}", names.join(", "))
        }
    }

    /// The folder relative token file paths are read from.
    fn folder(&self) -> Option<&Path> {
        self.path.as_deref().and_then(Path::parent)
    }

    /// The settings the explorer carries: theme and keys, the profile's over the file's.
    pub fn settings(&self, selected: Option<Selected<'_>>) -> Settings {
        let mut keys: BTreeMap<String, Vec<String>> = self
            .file
            .keys
            .iter()
            .map(|(k, v)| (k.clone(), v.0.clone()))
            .collect();
        let mut key_origins: BTreeMap<String, String> = self
            .file
            .keys
            .keys()
            .map(|k| (k.clone(), "keys".to_string()))
            .collect();
        let mut settings = Settings {
            profile: None,
            theme: self.file.theme.clone(),
            keys: BTreeMap::new(),
            redact: false,
            key_origins: BTreeMap::new(),
            path: self.path.clone().filter(|_| self.exists),
        };
        if let Some(s) = selected {
            settings.profile = Some(s.name.to_string());
            if let Some(t) = &s.profile.theme {
                settings.theme = Some(t.clone());
            }
            settings.redact = s.profile.redact.unwrap_or(false);
            for (k, v) in &s.profile.keys {
                keys.insert(k.clone(), v.0.clone());
                key_origins.insert(k.clone(), format!("profiles.{}.keys", toml_key(s.name)));
            }
        }
        settings.keys = keys;
        settings.key_origins = key_origins;
        settings
    }
}

/// A table name as TOML writes it: bare when it can be, quoted otherwise.
fn toml_key(name: &str) -> String {
    let bare = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if bare {
        name.to_string()
    } else {
        format!("{name:?}")
    }
}

/// Reads the file's text; an error comes with its position when it has one.
pub fn parse(text: &str) -> Result<ConfigFile, (Option<(usize, usize)>, String)> {
    let file: ConfigFile = toml::from_str(text).map_err(|e| {
        let at = e.span().map(|s| position(text, s.start));
        (at, e.message().trim().to_string())
    })?;
    if let Some(name) = &file.default_profile
        && !file.profiles.contains_key(name.get_ref())
    {
        let names: Vec<&str> = file.profiles.keys().map(String::as_str).collect();
        let known = if names.is_empty() {
            "the file defines no profile ([profiles.NAME] tables)".to_string()
        } else {
            format!("the profiles are {}", names.join(", "))
        };
        return Err((
            Some(position(text, name.span().start)),
            format!(
                "default_profile names no profile \"{}\"; {known}",
                name.get_ref()
            ),
        ));
    }
    Ok(file)
}

mod apply;
mod report;

#[cfg(test)]
use apply::resolve_path;
pub use apply::{Explicit, added_filters, configure, profile_names};
#[cfg(test)]
mod tests;

pub use report::report;
