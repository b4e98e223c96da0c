//! The options that say where settings come from and where the log goes, given before a
//! command's name: `callscope --config FILE list` is `callscope list --config FILE`.
//!
//! clap stops looking for a command at the first option the explorer knows, so that a word after
//! it is a dump's name; these options are moved after the command's name before clap reads the
//! line. Any other option before a word still makes that word a dump's name, as do `./list`
//! and `-- list`: `callscope --room R list` opens a dump called `list`.

use std::ffi::OsString;

/// The options moved, each with whether it takes a value. `--log-file` is every command's;
/// the others are the commands' that read the config (a command that does not read it refuses
/// them, as it does after its name).
const SETTINGS: [(&str, bool); 4] = [
    ("--config", true),
    ("--profile", true),
    ("--no-profile", false),
    ("--log-file", true),
];

/// The command line with the settings options that come first moved after the command's name,
/// when they alone come before one of `commands`; else the command line as given.
pub fn settings_after_command(args: Vec<OsString>, commands: &[&str]) -> Vec<OsString> {
    let mut at = 1;
    while let Some(arg) = args.get(at) {
        match settings_option(arg, args.get(at + 1)) {
            Some(words) => at += words,
            None => break,
        }
    }
    let named = args
        .get(at)
        .and_then(|a| a.to_str())
        .is_some_and(|a| commands.contains(&a));
    if at == 1 || !named {
        return args;
    }
    let mut moved = Vec::with_capacity(args.len());
    moved.push(args[0].clone());
    moved.push(args[at].clone());
    moved.extend_from_slice(&args[1..at]);
    moved.extend_from_slice(&args[at + 1..]);
    moved
}

/// How many words the settings option at `arg` takes (with its value), `None` when `arg` is no
/// settings option, or one whose value is missing or looks like an option: clap then says what
/// is wrong with the line as it was given.
fn settings_option(arg: &OsString, next: Option<&OsString>) -> Option<usize> {
    let text = arg.to_str()?;
    if let Some((name, _)) = text.split_once('=') {
        return SETTINGS
            .iter()
            .any(|&(option, value)| value && option == name)
            .then_some(1);
    }
    let &(_, value) = SETTINGS.iter().find(|&&(option, _)| option == text)?;
    if !value {
        return Some(1);
    }
    let next = next?.as_encoded_bytes();
    (next == b"-" || next.first() != Some(&b'-')).then_some(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMMANDS: [&str; 3] = ["list", "config", "story"];

    fn moved(line: &str) -> String {
        let args = line.split(' ').map(OsString::from).collect();
        let out = settings_after_command(args, &COMMANDS);
        let words: Vec<&str> = out.iter().map(|a| a.to_str().unwrap()).collect();
        words.join(" ")
    }

    #[test]
    fn settings_before_a_command_go_after_its_name() {
        assert_eq!(
            moved("callscope --config c.toml list --demo"),
            "callscope list --config c.toml --demo"
        );
        assert_eq!(
            moved("callscope --config=c.toml --no-profile --log-file l story P"),
            "callscope story --config=c.toml --no-profile --log-file l P"
        );
        assert_eq!(
            moved("callscope --profile list list"),
            "callscope list --profile list"
        );
    }

    #[test]
    fn any_other_line_is_left_as_given() {
        for line in [
            "callscope list --config c.toml",
            "callscope --config c.toml a.json",
            "callscope --config c.toml --room R list",
            "callscope --room R list",
            "callscope -- list",
            "callscope --config c.toml -- list",
            "callscope --config --demo list",
            "callscope --config",
            "callscope --configs c list",
            "callscope --no-profile=x list",
        ] {
            assert_eq!(moved(line), line);
        }
    }
}
