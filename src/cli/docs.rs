//! The command line describing itself: shell completions and man pages.

use std::io::Write;

use clap::CommandFactory;

use super::Cli;
use crate::app::{Ended, Failure};

pub fn completions(shell: clap_complete::Shell) -> Result<Ended, Failure> {
    let mut command = with_profiles(Cli::command());
    // Generated whole first: the generator cannot report a closed pipe, only panic on it.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "callscope", &mut script);
    write_stdout(&script, "the completion script")
}

/// The command line with the config file's profile names offered where a profile is named: the
/// completion script then completes them (as they are when it is generated).
fn with_profiles(command: clap::Command) -> clap::Command {
    let names = super::config::profile_names();
    if names.is_empty() {
        return command;
    }
    let values: Vec<clap::builder::PossibleValue> = names
        .into_iter()
        .map(clap::builder::PossibleValue::new)
        .collect();
    let offer = |arg: clap::Arg| {
        arg.value_parser(super::parse::Suggest::of(values.clone()))
            .hide_possible_values(true)
    };
    command
        .mut_arg("profile", offer)
        .mut_subcommand("list", |c| c.mut_arg("profile", offer))
        .mut_subcommand("story", |c| c.mut_arg("profile", offer))
        .mut_subcommand("config", |c| c.mut_arg("profile", offer))
}

/// The man page of callscope, or of one of its commands; with `out`, every page into that
/// folder (`callscope.1`, `callscope-list.1`...), as a packager installs them.
pub fn man(name: Option<&str>, out: Option<&std::path::Path>) -> Result<Ended, Failure> {
    let mut command = Cli::command().disable_help_subcommand(true);
    // Building names each subcommand as its page is named (callscope-list).
    command.build();
    if let Some(dir) = out {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::runtime(format!("cannot make {}: {e}", dir.display())))?;
        let mut pages = vec![command.clone()];
        pages.extend(command.get_subcommands().cloned());
        for page in pages {
            let name = page
                .get_display_name()
                .unwrap_or(page.get_name())
                .to_string();
            let file = dir.join(format!("{name}.1"));
            let text = render(page)?;
            crate::output::write_atomically(&file, |w| w.write_all(&text))
                .map_err(|e| Failure::runtime(format!("cannot write {}: {e}", file.display())))?;
            println!("{}", file.display());
        }
        return Ok(Ended::Done);
    }
    let command = match name {
        None => command,
        Some(name) => match command.find_subcommand(name) {
            Some(sub) => sub.clone(),
            None => {
                let names: Vec<&str> = command.get_subcommands().map(|s| s.get_name()).collect();
                return Err(Failure::usage(format!(
                    "no command named {name}; the commands are {}",
                    names.join(", ")
                )));
            }
        },
    };
    let page = render(command)?;
    write_stdout(&page, "the man page")
}

/// One man page: clap's sections, then the examples unfilled, and for callscope's own page the
/// explorer's keys (from the key table in force by default), the environment, the files and
/// the exit statuses.
fn render(command: clap::Command) -> Result<Vec<u8>, Failure> {
    let own = command.get_name() == "callscope";
    let examples = command
        .get_after_help()
        .map(|h| h.to_string())
        .unwrap_or_default();
    let man =
        clap_mangen::Man::new(command).source(concat!("callscope ", env!("CARGO_PKG_VERSION")));
    let mut page = Vec::new();
    let failed = |e: std::io::Error| Failure::runtime(format!("cannot render the man page: {e}"));
    man.render_title(&mut page).map_err(failed)?;
    man.render_name_section(&mut page).map_err(failed)?;
    man.render_synopsis_section(&mut page).map_err(failed)?;
    man.render_description_section(&mut page).map_err(failed)?;
    man.render_options_section(&mut page).map_err(failed)?;
    if own {
        man.render_subcommands_section(&mut page).map_err(failed)?;
    }
    let mut roff = String::new();
    if let Some(examples) = examples.strip_prefix("Examples:\n") {
        // As written, each on its line: filling would run them together.
        roff.push_str(".SH EXAMPLES\n.nf\n");
        for line in examples.lines() {
            roff.push_str(&escape(line));
            roff.push('\n');
        }
        roff.push_str(".fi\n");
    }
    if own {
        roff.push_str(&keys_section());
        roff.push_str(ENVIRONMENT);
        roff.push_str(FILES);
        roff.push_str(EXIT_STATUS);
    }
    page.extend_from_slice(roff.as_bytes());
    if own {
        man.render_version_section(&mut page).map_err(failed)?;
    }
    Ok(page)
}

/// Text as roff reads it: backslashes and a leading dot or quote escaped, hyphens kept as such.
fn escape(text: &str) -> String {
    let text = text.replace('\\', "\\e").replace('-', "\\-");
    if text.starts_with('.') || text.starts_with('\'') {
        format!("\\&{text}")
    } else {
        text
    }
}

/// The explorer's keys, from the default key table, mode by mode.
fn keys_section() -> String {
    use crate::tui::keymap::{Keymap, Mode};
    let keymap = Keymap::default();
    let mut roff = String::from(
        ".SH KEYS\nThe explorer's default keys; [keys] in the config file rebinds them. callscope config \
         lists the keys the config rebinds (\"the defaults\" when it rebinds none); the help \
         screen (? in the explorer) shows every binding in force.\n",
    );
    for mode in Mode::ALL {
        let rows: Vec<_> = keymap.bindings_for(mode).collect();
        if rows.is_empty() {
            continue;
        }
        roff.push_str(&format!(".SS In {}\n", escape(mode.describe())));
        for b in rows {
            roff.push_str(&format!(
                ".TP\n\\fB{}\\fR\n{}\n",
                escape(&b.keys_label()),
                escape(b.help())
            ));
        }
    }
    roff
}

const ENVIRONMENT: &str = r".SH ENVIRONMENT
.TP
\fBHMS_MANAGEMENT_TOKEN\fR
The live API's management token (after \fB\-\-token\-file\fR).
.TP
\fBHMS_ACCESS_KEY\fR, \fBHMS_SECRET\fR
The app's access key and secret, from which callscope mints a management token and renews it.
.TP
\fBCALLSCOPE_BASE_URL\fR
The live API's base URL (default https://api.100ms.live).
.TP
\fBCALLSCOPE_CONFIG\fR, \fBCALLSCOPE_PROFILE\fR
The config file, and the profile of it to use.
.TP
\fBCALLSCOPE_SERVE_TOKEN\fR
The token clients of \fBcallscope serve\fR send (after its \fB\-\-token\-file\fR).
.TP
\fBCALLSCOPE_LOG\fR
The log's level or tracing directives; alone, it logs to the state folder.
.TP
\fBNO_COLOR\fR
Any value but an empty one: the explorer draws without colour.
.TP
\fBXDG_CONFIG_HOME\fR, \fBXDG_STATE_HOME\fR
Where the config file and the log are looked for.
";

const FILES: &str = r".SH FILES
.TP
\fI~/.config/callscope/config.toml\fR
Profiles (base URL, where the token comes from, default filters), the theme and the keys.
.TP
\fI~/.local/state/callscope/callscope.log\fR
The log, when \fBCALLSCOPE_LOG\fR is set without \fB\-\-log\-file\fR.
.TP
\fI~/.local/state/callscope/rooms.json\fR
The rooms whose events were loaded live (id, name, base URL, when), offered by the explorer's room
prompt.
";

const EXIT_STATUS: &str = r".SH EXIT STATUS
.TP
0
Success, zero matches included.
.TP
1
A runtime failure: the network, the server, the disk.
.TP
2
A usage error or unreadable input (a damaged dump is named with its line and column).
.TP
129, 130, 143
The explorer, stopped by SIGHUP, SIGINT from outside, or SIGTERM, as shells report a kill.
";

/// Writes to stdout, where a closed pipe is no error.
pub fn write_stdout(bytes: &[u8], what: &str) -> Result<Ended, Failure> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(Ended::Done),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(Ended::Done),
        Err(e) => Err(Failure::runtime(format!("cannot write {what}: {e}"))),
    }
}
