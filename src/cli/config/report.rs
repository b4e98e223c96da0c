//! `callscope config`: the settings in force, every secret left out.

use super::super::{FilterArgs, SettingsArgs, SourceArgs};
use crate::source::token::TokenEnv;

use super::{Config, ConfigError, Explicit, Filters, Settings};

/// `callscope config`: where the file is and what is in force, with no secret in it: token
/// files are named, never read; variables are named and said to be set or not, never shown.
/// The settings reported come with the text, for the caller to check as the explorer would.
pub fn report(args: &SettingsArgs, log: &str) -> Result<(String, Settings), ConfigError> {
    let config = Config::load(args)?;
    let selected = config.chosen(args)?;
    let mut source = SourceArgs {
        base_url: crate::cli::DEFAULT_BASE_URL.to_string(),
        page_size: 100,
        ..SourceArgs::default()
    };
    let env_url = std::env::var("CALLSCOPE_BASE_URL")
        .ok()
        .filter(|u| !u.is_empty());
    if let Some(url) = &env_url {
        source.base_url = url.clone();
    }
    let explicit = Explicit {
        base_url: env_url.is_some(),
        page_size: false,
    };
    let mut filters = FilterArgs::default();
    if let Some(s) = selected {
        s.profile
            .apply_source(&mut source, explicit, config.folder());
        s.profile.apply_filters(&mut filters);
    }
    let settings = config.settings(selected);
    let from_profile = |set: bool| match (set, selected) {
        (true, Some(s)) => format!(" (profile {})", s.name),
        _ => String::new(),
    };
    let p = selected.map(|s| s.profile);
    let mut lines: Vec<(&str, String)> = Vec::new();
    lines.push((
        "config file",
        match (&config.path, config.exists) {
            (Some(path), true) => format!("{} (found)", path.display()),
            (Some(path), false) => {
                format!("{} (not found: the defaults are in use)", path.display())
            }
            (None, _) => "none (no home folder to look in: the defaults are in use)".into(),
        },
    ));
    let names: Vec<&str> = config.file.profiles.keys().map(String::as_str).collect();
    lines.push((
        "profiles",
        if names.is_empty() {
            "none".into()
        } else {
            names.join(", ")
        },
    ));
    lines.push((
        "profile",
        match selected {
            Some(s) => format!("{} ({})", s.name, s.via),
            None if args.no_profile => "none (--no-profile)".into(),
            None => "none".into(),
        },
    ));
    let url_origin = if env_url.is_some() {
        " (CALLSCOPE_BASE_URL)".to_string()
    } else {
        from_profile(p.is_some_and(|p| p.base_url.is_some()))
    };
    lines.push((
        "base_url",
        format!("{}{url_origin}", without_password(&source.base_url)),
    ));
    lines.push((
        "page_size",
        format!(
            "{}{}",
            source.page_size,
            from_profile(p.is_some_and(|p| p.page_size.is_some()))
        ),
    ));
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    lines.push((
        "live",
        if source.live {
            format!("yes{}", from_profile(true))
        } else {
            "when a token is found and no source is named".into()
        },
    ));
    lines.push((
        "insecure",
        format!(
            "{}{}",
            yes_no(source.insecure),
            from_profile(p.is_some_and(|p| p.insecure.is_some()))
        ),
    ));
    lines.push(("token", token_report(&source)));
    lines.push((
        "filters",
        match filters.to_filter() {
            Ok(f) => format!(
                "{}{}",
                f.describe(),
                from_profile(p.is_some_and(|p| p.filters != Filters::default()))
            ),
            Err(e) => format!("unusable: {e}"),
        },
    ));
    lines.push((
        "theme",
        settings.theme.clone().unwrap_or_else(|| "default".into()),
    ));
    let keys: Vec<String> = settings
        .keys
        .iter()
        .map(|(action, keys)| format!("{action} = {}", keys.join(", ")))
        .collect();
    lines.push((
        "keys",
        if keys.is_empty() {
            "the defaults".into()
        } else {
            keys.join("; ")
        },
    ));
    lines.push(("redact", yes_no(settings.redact).to_string()));
    lines.push(("log", log.to_string()));
    let mut out = String::new();
    for (name, value) in lines {
        out.push_str(&format!(
            "{name:<12}{}\n",
            crate::text::for_terminal(&value)
        ));
    }
    Ok((out, settings))
}

/// A URL with any password in it masked: `https://user:***@host/`.
fn without_password(text: &str) -> String {
    match url::Url::parse(text) {
        Ok(mut url) if url.password().is_some() => {
            let _ = url.set_password(Some("***"));
            url.to_string()
        }
        _ => text.to_string(),
    }
}

/// Where the token would come from, first found wins; no value is read.
fn token_report(source: &SourceArgs) -> String {
    if let Some(path) = &source.token_file {
        let state = if path.is_file() { "exists" } else { "missing" };
        return format!(
            "the first line of {} ({state}; never shown)",
            path.display()
        );
    }
    let TokenEnv {
        token,
        access_key,
        secret,
        ..
    } = &source.token_env;
    let set = |name: &str| {
        if std::env::var_os(name).is_some_and(|v| !v.is_empty()) {
            "set"
        } else {
            "not set"
        }
    };
    format!(
        "${token} ({}), else minted from ${access_key} ({}) and ${secret} ({}); values never shown",
        set(token),
        set(access_key),
        set(secret)
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn passwords_in_urls_are_masked() {
        assert_eq!(
            super::without_password("https://me:hunter2@api.example.com/x"),
            "https://me:***@api.example.com/x"
        );
        assert_eq!(
            super::without_password("https://api.example.com"),
            "https://api.example.com"
        );
    }
}
