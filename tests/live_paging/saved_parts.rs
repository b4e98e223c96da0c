//! A partial answer saved as a `json` envelope, by `list --live --format json -o FILE` or by
//! the explorer's save, opened again as a user opens it: it says it is partial however it was
//! stored (gzip'd, and larger than a saved page once inflated), after the query's cursor was
//! refused and asking again failed, and with the query's own cursor when one cursor per type
//! loaded it.

use super::*;
use callscope::tui::action::{Action, Command as Key};
use callscope::tui::effect::{Effect, SaveWhat};
use callscope::tui::model::{Live, LoadState, Model, SourceLabel};
use callscope::tui::update::update;
use catalog::Fault;
use fault_server::ROOM_ID;

/// `callscope list FILE` with `args`, as a user runs it.
fn list_file(path: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_callscope"))
        .arg("list")
        .arg(path)
        .args(args)
        .env_remove("CALLSCOPE_CONFIG")
        .env_remove("CALLSCOPE_PROFILE")
        .env_remove("XDG_CONFIG_HOME")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// A refusal that no client asks again after.
const REFUSED: Reply = Reply::Status {
    status: 401,
    body: r#"{"message":"token expired"}"#,
    retry_after: None,
};

fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

#[tokio::test]
async fn a_large_partial_export_gzipped_says_it_is_partial_as_the_plain_one_does() {
    // Six pages of 10,000 events, then a refusal: the export is larger than a saved page may
    // be, and gzip'd it is stored in less.
    const PAGES: [&str; 6] = ["c1", "c2", "c3", "c4", "c5", "c6"];
    const EACH: u32 = 10_000;
    let mut script: Vec<Reply> = (0..PAGES.len() as u32)
        .map(|p| Reply::Page {
            ids: (p * EACH + 1..=(p + 1) * EACH).collect(),
            next: PAGES[p as usize],
            total: 100_000,
        })
        .collect();
    script.push(REFUSED);
    let server = FaultServer::start(script).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("part.json");
    let out = list_live_at(
        &server.url,
        ROOM_ID,
        &[
            "--type",
            "join",
            "--format",
            "json",
            "-o",
            path.to_str().unwrap(),
        ],
    )
    .await;
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let export = std::fs::read(&path).unwrap();
    let gzipped = dir.path().join("part.json.gz");
    std::fs::write(&gzipped, gzip(&export)).unwrap();
    let most = callscope::source::pages::MOST_BYTES;
    assert!(export.len() as u64 > most);
    assert!(std::fs::metadata(&gzipped).unwrap().len() < most);
    let said = "callscope: partial: the saved page holds 60,000 of the 100,000 events their query \
                matched\n";
    for path in [&path, &gzipped] {
        let reopened = list_file(path, &["--format", "ndjson"]);
        assert_eq!(reopened.status.code(), Some(0));
        assert_eq!(text(&reopened.stderr), said, "{}", path.display());
        assert_eq!(text(&reopened.stdout).lines().count(), 60_000);
    }
}

#[tokio::test]
async fn a_narrowed_partial_answer_whose_cursor_was_refused_reopens_as_partial() {
    // The query's cursor is refused; asked again from its first page, the query fails.
    let server = FaultServer::start(vec![
        Reply::Page {
            ids: vec![1, 2, 3],
            next: "c1",
            total: 9,
        },
        Reply::Status {
            status: 400,
            body: catalog::REFUSED_CURSOR,
            retry_after: None,
        },
        REFUSED,
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("part.json");
    // `--search` narrows the answer: the service's total does not count it.
    let out = list_live_at(
        &server.url,
        ROOM_ID,
        &[
            "--type",
            "join",
            "--page-size",
            "3",
            "--search",
            "p1",
            "--format",
            "json",
            "-o",
            path.to_str().unwrap(),
        ],
    )
    .await;
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(server.count(), 3, "{stderr}");
    let saved: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(saved["limit"], 1, "{saved}");
    assert_eq!(saved["total"], serde_json::Value::Null);
    assert_eq!(
        saved["next"], "c1",
        "the cursor where the query's paging stopped, refused as it was"
    );
    let reopened = list_file(&path, &[]);
    assert_eq!(reopened.status.code(), Some(0));
    assert_eq!(
        text(&reopened.stderr),
        "callscope: partial: the saved page holds 1 event, and more followed (no page is the \
         query's last)\n"
    );
}

/// A refusal of the `nth` (0-based) request of cursor `key`, with `status`.
fn fault(key: &'static str, nth: usize, status: u16) -> Fault {
    Fault {
        key,
        nth,
        status,
        retry_after: None,
    }
}

/// Sends the explorer's commands to the fetch task.
fn tell(commands: &mpsc::UnboundedSender<Command>, effects: Vec<Effect>) {
    for effect in effects {
        if let Effect::Worker(command) = effect {
            commands.send(command).unwrap();
        }
    }
}

#[tokio::test(start_paused = true)]
async fn the_explorer_saves_part_of_a_load_of_every_type_with_the_querys_own_cursor() {
    let (connect, subscribe, publish, gone) = (
        "client.connect.failed",
        "client.subscribe.failed",
        "client.publish.failed",
        "client.disconnected",
    );
    let mut setup = setup(vec![
        connect, subscribe, JOIN, gone, connect, subscribe, JOIN, JOIN, JOIN, JOIN, JOIN, JOIN,
        publish, publish, gone,
    ]);
    // The query's own cursor is refused at its third page (its cursor `o:6`), and asked again
    // from its first page, which fails; the join cursor fails at its second page. Every other
    // type loads in full, and the join cursor's own cursor (`o:3`) is still open.
    setup.faults = vec![
        fault("untyped", 2, 400),
        fault("untyped", 3, 401),
        fault(JOIN, 1, 401),
        fault("census", 0, 401),
    ];
    let server = Catalog::start(setup).await;
    let filter = in_room();
    let mut m = Model::new(
        SourceLabel::Live {
            url: server.url.clone(),
        },
        filter,
        140,
        40,
    );
    m.session.live = Some(Live::new(server.url.clone()));
    m.session.load = LoadState::Idle;
    let (reports_tx, mut reports) = mpsc::unbounded_channel();
    let api = Api::new(&server.url, PAGE).unwrap();
    let commands = worker::spawn_with(api, tokens(), reports_tx, Fanout::PerType);
    tell(&commands, callscope::tui::update::new_query(&mut m));
    tell(&commands, update(&mut m, Action::Command(Key::LoadAll)));
    loop {
        let report = reports.recv().await.expect("the fetch task reports");
        let failed = matches!(report, Report::Failed { .. });
        tell(&commands, update(&mut m, Action::Live(report)));
        if failed {
            break;
        }
    }
    let loaded = m.events.store.len();
    assert_eq!(loaded, 11, "1 to 8 and 13 to 15");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("part.json");
    let saved = callscope::tui::save::save(&m, path.to_str().unwrap(), SaveWhat::Loaded, true);
    let Action::Saved(Ok(said)) = saved else {
        panic!("{saved:?}");
    };
    assert!(
        said.ends_with(
            ": part of the 15 the query matched; the file says so, with the cursor of the rest"
        ),
        "{said}"
    );
    let file: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(file["total"], 15);
    assert_eq!(
        file["next"], "o:6",
        "the query's own cursor where its paging stopped, not the join cursor's"
    );
    let reopened = list_file(&path, &[]);
    assert_eq!(
        text(&reopened.stderr),
        "callscope: partial: the saved page holds 11 of the 15 events their query matched\n"
    );
}
