//! The modules stand on floors (see `src/lib.rs`): a module imports only from the floors below
//! its own, and from its own floor's others without a cycle. Read from the source, test code left
//! out (tests may use any module to build their fixtures).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each top-level module of the library, and its floor.
const FLOORS: &[(&str, u8)] = &[
    ("event", 1),
    ("filter", 1),
    ("folders", 1),
    ("generator", 1),
    ("memory", 1),
    ("related", 1),
    ("stop", 1),
    ("text", 1),
    ("time", 1),
    ("store", 2),
    ("insight", 3),
    ("output", 3),
    ("redact", 3),
    ("source", 3),
    ("serve", 4),
    ("tui", 4),
    ("app", 5),
    ("logging", 5),
    ("cli", 6),
];

fn floor(module: &str) -> Option<u8> {
    FLOORS.iter().find(|(m, _)| *m == module).map(|(_, f)| *f)
}

/// Every `.rs` file under `dir`.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The files that hold only test code: modules declared under `#[cfg(test)]`, and every file in
/// the folder of one.
fn test_files(all: &[PathBuf]) -> BTreeSet<PathBuf> {
    let mut tests = BTreeSet::new();
    for path in all {
        let text = std::fs::read_to_string(path).unwrap();
        let folder = match path.file_name().and_then(|n| n.to_str()) {
            Some("mod.rs" | "lib.rs") => path.parent().unwrap().to_path_buf(),
            _ => path.with_extension(""),
        };
        let lines: Vec<&str> = text.lines().collect();
        for pair in lines.windows(2) {
            if pair[0].trim() != "#[cfg(test)]" {
                continue;
            }
            let decl = pair[1].trim();
            let name = decl
                .strip_prefix("pub(crate) mod ")
                .or_else(|| decl.strip_prefix("mod "))
                .and_then(|rest| rest.strip_suffix(';'));
            if let Some(name) = name {
                tests.insert(folder.join(format!("{name}.rs")));
                let inside = folder.join(name);
                tests.extend(all.iter().filter(|p| p.starts_with(&inside)).cloned());
            }
        }
    }
    tests
}

/// The code of a file before its inline test module.
fn code_of(text: &str) -> &str {
    match text.find("#[cfg(test)]\nmod tests {") {
        Some(at) => &text[..at],
        None => text,
    }
}

/// The top-level modules each module refers to with `crate::`, with a place for each.
fn imports() -> BTreeMap<String, BTreeMap<String, String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, &mut all);
    let tests = test_files(&all);
    let mut found: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for path in all.iter().filter(|p| !tests.contains(*p)) {
        let relative = path.strip_prefix(&src).unwrap();
        let first = relative.components().next().unwrap();
        let module = first.as_os_str().to_str().unwrap().trim_end_matches(".rs");
        if matches!(module, "lib" | "main") {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
        for (n, line) in code_of(&text).lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let mut rest = code;
            while let Some(at) = rest.find("crate::") {
                rest = &rest[at + "crate::".len()..];
                let used: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if used != module && !used.is_empty() {
                    found
                        .entry(module.to_string())
                        .or_default()
                        .entry(used)
                        .or_insert_with(|| format!("{}:{}", relative.display(), n + 1));
                }
            }
        }
    }
    found
}

#[test]
fn every_module_has_a_floor() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    for line in lib.lines() {
        if let Some(name) = line
            .strip_prefix("pub mod ")
            .and_then(|r| r.strip_suffix(';'))
        {
            assert!(
                floor(name).is_some(),
                "src/{name}: give it a floor in FLOORS"
            );
        }
    }
}

#[test]
fn no_module_imports_one_on_a_higher_floor() {
    let mut wrong = Vec::new();
    for (module, used) in imports() {
        let mine = floor(&module).unwrap_or_else(|| panic!("{module} has no floor"));
        for (other, place) in used {
            let theirs = floor(&other).unwrap_or_else(|| panic!("{other} has no floor"));
            if theirs > mine {
                wrong.push(format!(
                    "{place}: {module} (floor {mine}) imports {other} (floor {theirs})"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "imports going up:\n{}", wrong.join("\n"));
}

#[test]
fn no_two_modules_import_each_other_however_far_round() {
    let graph = imports();
    // Depth-first, remembering the path: a module met again on it closes a cycle.
    fn visit(
        graph: &BTreeMap<String, BTreeMap<String, String>>,
        module: &str,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        cycles: &mut Vec<String>,
    ) {
        if let Some(at) = path.iter().position(|m| m == module) {
            let mut cycle = path[at..].to_vec();
            cycle.push(module.to_string());
            cycles.push(cycle.join(" -> "));
            return;
        }
        if !done.insert(module.to_string()) {
            return;
        }
        path.push(module.to_string());
        for next in graph.get(module).into_iter().flat_map(|m| m.keys()) {
            visit(graph, next, path, done, cycles);
        }
        path.pop();
    }
    let mut cycles = Vec::new();
    let mut done = BTreeSet::new();
    for module in graph.keys() {
        visit(&graph, module, &mut Vec::new(), &mut done, &mut cycles);
    }
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}
