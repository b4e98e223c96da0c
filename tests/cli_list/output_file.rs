//! `--output`: written atomically, over the file being read, with the umask's mode or the
//! replaced file's, never into a missing folder.

use super::*;

#[test]
fn output_writes_the_file_atomically_and_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("incident.ndjson");
    std::fs::write(&path, "old content\n").unwrap();
    let fixtures = fixtures_dir();
    for format in ["ndjson", "json", "csv", "table"] {
        callscope()
            .args(["list", "--format", format, "--output"])
            .arg(&path)
            .arg(&fixtures)
            .assert()
            .success()
            .stdout("")
            .stderr(
                "callscope: note: 1 event dropped: its id was read before (the first copy is \
                 kept)\n",
            );
        let written = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            written,
            list(&[fixtures.to_str().unwrap(), "--format", format]),
            "{format}"
        );
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["incident.ndjson"], "{format}");
    }
    callscope()
        .args(["list", "-o"])
        .arg(&path)
        .arg(fixture("subscribe.json"))
        .assert()
        .success();
    assert_eq!(
        parse_lines(&std::fs::read_to_string(&path).unwrap()),
        events_in(&fixture("subscribe.json"))
    );
}

#[test]
fn output_may_replace_the_file_being_read_and_may_be_relative() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("incident.ndjson");
    std::fs::copy(fixture("quirks.ndjson"), &path).unwrap();
    callscope()
        .args([
            "list",
            "incident.ndjson",
            "--type",
            "join",
            "--output",
            "incident.ndjson",
        ])
        .current_dir(dir.path())
        .assert()
        .success()
        .stdout("");
    let quirks = std::fs::read_to_string(fixture("quirks.ndjson")).unwrap();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        format!("{}\n", quirks.lines().nth(1).unwrap())
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

/// `list -o FILE` run by a shell under `umask`, as a person's shell would run it.
#[cfg(unix)]
fn list_under_umask(umask: &str, path: &Path, format: &str) {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "umask {umask} && exec \"$0\" list \"$1\" --format {format} -o \"$2\""
        ))
        .arg(env!("CARGO_BIN_EXE_callscope"))
        .arg(fixture("subscribe.json"))
        .arg(path)
        .status()
        .map(|s| assert!(s.success(), "{umask}: {s}"))
        .unwrap();
}

#[cfg(unix)]
fn mode_of(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

#[cfg(unix)]
#[test]
fn a_new_output_file_gets_0666_less_the_umask_and_a_replaced_one_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    for (umask, mode) in [
        ("077", 0o600),
        ("027", 0o640),
        ("002", 0o664),
        ("022", 0o644),
    ] {
        for format in ["ndjson", "csv"] {
            let path = dir.path().join(format!("new-{umask}.{format}"));
            list_under_umask(umask, &path, format);
            assert_eq!(mode_of(&path), mode, "umask {umask}, {format}");
        }
    }
    let kept = dir.path().join("kept.ndjson");
    std::fs::write(&kept, "").unwrap();
    std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o640)).unwrap();
    list_under_umask("077", &kept, "ndjson");
    assert_eq!(mode_of(&kept), 0o640, "the mode of the file replaced");
    assert!(!std::fs::read_to_string(&kept).unwrap().is_empty());
}

#[test]
fn output_into_a_missing_folder_fails_and_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no-such-folder").join("out.ndjson");
    callscope()
        .args(["list", "--output"])
        .arg(&path)
        .arg(fixture("subscribe.json"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains(path.to_str().unwrap()));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// Without `--format`, the `--output` file's extension names the format, as the explorer's
/// save picks it (`.ndjson`/`.jsonl` NDJSON, `.json` the envelope), and `.csv` csv and `.txt`
/// the table besides; any other is NDJSON; `--format` always wins.
#[test]
fn output_without_format_writes_the_format_its_extension_names() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = fixtures_dir();
    let fixtures = fixtures.to_str().unwrap();
    for (name, format) in [
        ("out.csv", "csv"),
        ("OUT.CSV", "csv"),
        ("out.json", "json"),
        ("out.ndjson", "ndjson"),
        ("out.jsonl", "ndjson"),
        ("out.txt", "table"),
        ("out", "ndjson"),
        ("out.dat", "ndjson"),
    ] {
        let path = dir.path().join(name);
        callscope()
            .args(["list", fixtures, "--max", "3", "-o"])
            .arg(&path)
            .assert()
            .success()
            .stdout("");
        let written = std::fs::read_to_string(&path).unwrap();
        let want = list(&[fixtures, "--max", "3", "--format", format]);
        assert_eq!(written, want, "{name}");
    }
    let path = dir.path().join("asked.csv");
    callscope()
        .args(["list", fixtures, "--max", "3", "--format", "json", "-o"])
        .arg(&path)
        .assert()
        .success();
    let written = std::fs::read_to_string(&path).unwrap();
    assert_eq!(written, list(&[fixtures, "--max", "3", "--format", "json"]));
}
