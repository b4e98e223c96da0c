//! The value parsers the command line's arguments use: values offered to completion scripts,
//! base URLs, and a domain enum's values by name.

use clap::builder::{PossibleValuesParser, TypedValueParser};

use crate::event::EventType;

/// A value parser that takes any text, and offers some values to completion scripts: the event
/// types by name (any other full type name is taken too), the config's profile names.
#[derive(Clone)]
pub struct Suggest {
    values: Vec<clap::builder::PossibleValue>,
}

impl Suggest {
    pub fn of(values: Vec<clap::builder::PossibleValue>) -> Suggest {
        Suggest { values }
    }

    /// The type names: the five aliases, their full names, the other families'.
    pub(super) fn types() -> Suggest {
        let names = EventType::KNOWN
            .iter()
            .flat_map(|t| [t.alias().to_string(), t.name().to_string()])
            .chain(
                [
                    "track.add.success",
                    "track.update.success",
                    "track.remove.success",
                    "beam.recording.success",
                ]
                .map(String::from),
            );
        Suggest {
            values: names.map(clap::builder::PossibleValue::new).collect(),
        }
    }
}

impl TypedValueParser for Suggest {
    type Value = String;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        value
            .to_str()
            .map(str::to_string)
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidUtf8))
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(self.values.iter().cloned()))
    }
}

/// A `--base-url`: an http or https URL with a host. One written without its scheme is refused
/// with the option as it should be written.
pub(super) fn base_url(text: &str) -> Result<String, String> {
    match base_url_problem(text, &|value| format!("--base-url {value}")) {
        None => Ok(text.into()),
        Some(problem) => Err(problem),
    }
}

/// What is wrong with a base URL, `None` when it is an http or https URL with a host; `set`
/// writes a value as the user would set it (`--base-url V`), for the URL it should have been.
pub(super) fn base_url_problem(text: &str, set: &dyn Fn(&str) -> String) -> Option<String> {
    match url::Url::parse(text) {
        Ok(u) if matches!(u.scheme(), "http" | "https") && u.host().is_some() => None,
        _ if text.trim().is_empty() => Some(
            "it is empty: give an http:// or https:// URL, such as https://api.100ms.live, or \
             leave it unset for the hosted service"
                .into(),
        ),
        _ if !text.contains("://") => Some(format!(
            "a base URL starts with http:// or https://: {}",
            set(&format!("http://{}", crate::text::for_terminal(text)))
        )),
        _ => {
            Some("a base URL is an http:// or https:// URL, such as https://api.100ms.live".into())
        }
    }
}

/// A value parser for one of a domain enum's values, by their names: the names are offered in
/// `--help` and completions, and the enum itself knows nothing of the command line.
pub(super) fn choice<T: Copy + Send + Sync + 'static>(
    all: &'static [T],
    name: fn(T) -> &'static str,
) -> impl TypedValueParser<Value = T> {
    let names: Vec<&'static str> = all.iter().map(|&v| name(v)).collect();
    PossibleValuesParser::new(names).map(move |chosen| {
        *all.iter()
            .find(|&&v| name(v) == chosen)
            .expect("the parser offers only these names")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::insight::GroupSort;

    fn flag(value: &str) -> String {
        format!("--base-url {value}")
    }

    #[test]
    fn an_http_or_https_url_with_a_host_is_a_base_url() {
        for text in ["https://api.100ms.live", "http://127.0.0.1:8080/x"] {
            assert_eq!(base_url_problem(text, &flag), None, "{text}");
            assert_eq!(base_url(text), Ok(text.to_string()));
        }
    }

    #[test]
    fn a_base_url_without_its_scheme_is_refused_as_it_should_be_written() {
        assert_eq!(
            base_url("api.100ms.live").unwrap_err(),
            "a base URL starts with http:// or https://: --base-url http://api.100ms.live"
        );
        assert!(base_url(" ").unwrap_err().starts_with("it is empty"));
        assert!(
            base_url("ftp://host")
                .unwrap_err()
                .starts_with("a base URL is an http:// or https:// URL")
        );
    }

    #[test]
    fn a_choice_is_read_back_by_its_name() {
        let command = clap::Command::new("c");
        let parser = choice(&GroupSort::ALL, GroupSort::name);
        for sort in GroupSort::ALL {
            let name = std::ffi::OsStr::new(sort.name());
            assert_eq!(parser.parse_ref(&command, None, name).unwrap(), sort);
        }
        let other = std::ffi::OsStr::new("other");
        assert!(parser.parse_ref(&command, None, other).is_err());
    }
}
