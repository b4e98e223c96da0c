//! The event loop: keys, mouse and background results in, `update`, effects out, and a redraw
//! when something changed. Bursts of background results are merged into one frame.

use std::io::Write;

use crossterm::event::{
    Event as TermEvent, EventStream, KeyEventKind, MouseButton, MouseEventKind,
};
use tokio::sync::mpsc;

use super::action::{Action, Copied};
use super::clipboard;
use super::effect::CopyTo;
use super::keymap::Mode;
use super::model::Model;
use super::save::save;
use super::terminal::Tui;
use super::update::{Effect, update};
use super::view::view;
use crate::source::live::Connection;
use crate::source::worker;
use next::{Next, next};

mod next;

/// How many queued background results are folded into one frame at most.
const MAX_BURST: usize = 64;

/// How long a frame folds queued background results for: past it the frame is drawn and the
/// rest waits for the next one, so that a burst of batches (a loader ahead of the merging)
/// cannot hold the screen and the keys for the time of all of them.
const BURST_BUDGET: std::time::Duration = std::time::Duration::from_millis(40);

/// What the loop talks to besides the terminal.
pub struct Channels {
    pub actions: mpsc::UnboundedReceiver<Action>,
    /// The live fetch task, when the source is live.
    pub worker: Option<mpsc::UnboundedSender<worker::Command>>,
    /// The task that answers questions about the related data, when the source is live.
    pub asks: Option<mpsc::UnboundedSender<crate::source::related_live::Ask>>,
    /// SIGTERM, SIGHUP or a SIGINT from outside, resolving to its number: stop as on `q`.
    /// Listened for before the terminal is taken, so that no such signal can leave it raw.
    pub stop: std::pin::Pin<Box<dyn std::future::Future<Output = i32> + Send>>,
    /// Where the answers of the room prompt's requests go: the loop's own actions.
    pub sender: mpsc::UnboundedSender<Action>,
    /// The live source's client, for the room prompt's requests (sessions, rooms).
    pub connection: Option<Connection>,
    /// What the first update asked for, carried out before the first key.
    pub start: Vec<Effect>,
    /// The batches the loader sent that are not merged yet.
    pub waiting: super::waiting::Waiting,
}

/// How the explorer's loop ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The user quit, or the terminal's input ended.
    Quit,
    /// This signal asked it to stop.
    Signal(i32),
}

pub async fn run(
    terminal: &mut Tui,
    model: &mut Model,
    channels: Channels,
) -> std::io::Result<Ended> {
    let Channels {
        actions: mut rx,
        worker,
        asks,
        mut stop,
        sender,
        connection,
        start,
        waiting,
    } = channels;
    let mut input = EventStream::new();
    let outside = Outside {
        worker: &worker,
        asks: &asks,
        sender: &sender,
        connection: connection.as_ref(),
    };
    if let Some(ended) = carry_out(terminal, model, start, &outside)? {
        return Ok(ended);
    }
    terminal.draw(|f| view(model, f))?;
    // Follow mode's next run of the query, armed while follow mode is on and idle.
    let mut next_follow: Option<tokio::time::Instant> = None;
    // The clock's next tick, armed while the header counts (a request on its way, a wait).
    let mut next_tick: Option<tokio::time::Instant> = None;
    loop {
        match &model.session.follow {
            Some(f) if !f.refreshing => {
                next_follow.get_or_insert_with(|| tokio::time::Instant::now() + f.wait());
            }
            _ => next_follow = None,
        }
        let follow_due = async {
            match next_follow {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        // While a live request is on its way or a retry waits, the clock ticks every second
        // for the header's waits and countdowns.
        if super::update::live::counting(model) {
            next_tick.get_or_insert_with(|| {
                tokio::time::Instant::now() + std::time::Duration::from_secs(1)
            });
        } else {
            next_tick = None;
        }
        let tick_due = async {
            match next_tick {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        let action = match next(
            &mut stop,
            &mut input,
            follow_due,
            tick_due,
            &mut rx,
            model.has_work(),
        )
        .await
        {
            Next::Stop(signal) => return Ok(Ended::Signal(signal)),
            Next::Input(Some(Ok(ev))) => translate(model, ev),
            Next::Input(Some(Err(e))) => return Err(e),
            Next::Input(None) => return Ok(Ended::Quit),
            Next::Follow => {
                next_follow = None;
                Some(Action::FollowTick)
            }
            Next::Tick => {
                next_tick = None;
                Some(Action::Tick(super::model::Clock::now()))
            }
            Next::Result(action) => Some(*action),
            Next::Idle => Some(Action::Idle),
        };
        let Some(action) = action else { continue };
        let started = std::time::Instant::now();
        // Each batch is merged by its update, there and then.
        let merges = |action: &Action| {
            if matches!(action, Action::BatchLoaded(_)) {
                waiting.merged();
            }
        };
        merges(&action);
        let mut effects = update(model, action);
        for _ in 0..MAX_BURST {
            if started.elapsed() >= BURST_BUDGET {
                break;
            }
            match rx.try_recv() {
                Ok(action) => {
                    merges(&action);
                    effects.extend(update(model, action));
                }
                Err(_) => break,
            }
        }
        if let Some(ended) = carry_out(terminal, model, effects, &outside)? {
            return Ok(ended);
        }
        if model.session.quit {
            return Ok(Ended::Quit);
        }
        let updated = started.elapsed();
        terminal.draw(|f| view(model, f))?;
        // What a user who finds the explorer slow can send: `CALLSCOPE_LOG=callscope=trace`.
        tracing::trace!(
            update_ms = updated.as_secs_f64() * 1e3,
            draw_ms = (started.elapsed() - updated).as_secs_f64() * 1e3,
            "frame"
        );
    }
}

/// What effects reach besides the terminal and the model.
struct Outside<'a> {
    worker: &'a Option<mpsc::UnboundedSender<worker::Command>>,
    asks: &'a Option<mpsc::UnboundedSender<crate::source::related_live::Ask>>,
    sender: &'a mpsc::UnboundedSender<Action>,
    connection: Option<&'a Connection>,
}

/// Carries out the effects of an update, and those of the updates their results make; `Some`
/// when one of them ends the loop.
fn carry_out(
    terminal: &mut Tui,
    model: &mut Model,
    mut effects: Vec<Effect>,
    outside: &Outside,
) -> std::io::Result<Option<Ended>> {
    while !effects.is_empty() {
        let mut follow_up = Vec::new();
        for effect in effects {
            match effect {
                Effect::Quit => return Ok(Some(Ended::Quit)),
                Effect::Worker(command) => {
                    if let Some(worker) = outside.worker {
                        let _ = worker.send(command);
                    }
                }
                Effect::Save {
                    path,
                    what,
                    replace,
                } => {
                    follow_up.extend(update(model, save(model, &path, what, replace)));
                }
                Effect::Copy { text, what, to } => {
                    let result = match to {
                        CopyTo::Clipboard => copy(terminal, &text, what),
                        CopyTo::File => copy_to_file(&text, what),
                    };
                    follow_up.extend(update(model, Action::Copied(result)));
                }
                Effect::Ask(ask) => {
                    if let Some(asks) = outside.asks {
                        let _ = asks.send(ask);
                    }
                }
                Effect::ReleaseMemory => crate::memory::release_freed(),
                Effect::Suspend => super::terminal::suspend(terminal)?,
                Effect::ReadNumbers => read_numbers(model, outside.sender),
                Effect::RecentRooms => recent_rooms(model, outside),
                Effect::LookUpRoom(name) => look_up(name, outside),
                Effect::RememberRoom(mut room) => {
                    room.used_at = chrono::Utc::now().timestamp();
                    if let Some(path) = super::rooms_used::path()
                        && let Err(e) = super::rooms_used::remember(&path, room)
                    {
                        tracing::warn!(path = %path.display(), error = %e, "cannot remember the room");
                    }
                }
            }
        }
        effects = follow_up;
    }
    Ok(None)
}

/// How many events' numbers each part of the reading ahead reads: making a part is a pass over
/// their rows on the UI thread, about 5 ms for this many.
const NUMBERS_PART: usize = 1 << 18;

/// Reads the numbers of the next part of the loaded events on a thread of their own, not the
/// pool's (a key's grouping or search would wait for it there), at the lowest priority, which
/// the threads it starts to read beside it take too: a key pressed meanwhile is not slowed by
/// them. The numbers go into the store's index as they are read; the thread then asks for the
/// next part.
fn read_numbers(model: &Model, sender: &mpsc::UnboundedSender<Action>) {
    let Some(work) = model.events.store.number_work(NUMBERS_PART) else {
        return;
    };
    let sender = sender.clone();
    let spawned = std::thread::Builder::new()
        .name("numbers".to_string())
        .spawn(move || {
            lower_priority_of_this_thread(19);
            if work.read() {
                let _ = sender.send(Action::NumbersRead);
            }
        });
    // Without the thread, the first search that needs the numbers reads them.
    if let Err(e) = spawned {
        tracing::warn!(error = %e, "cannot read the numbers in the background");
    }
}

/// Gives the calling thread a lower priority: this niceness (19 is the lowest priority), which
/// the threads it starts from then on inherit; where it cannot, the thread keeps its own.
pub(super) fn lower_priority_of_this_thread(niceness: i32) {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid takes nothing and cannot fail; setpriority takes plain numbers, and on
    // Linux a thread id names that thread alone.
    unsafe {
        let tid = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, niceness);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = niceness;
}

/// Lists the rooms of recent sessions in the background; the answer comes as an action.
fn recent_rooms(model: &Model, outside: &Outside) {
    let (Some(connection), Some(live)) = (outside.connection, &model.session.live) else {
        return;
    };
    let known: std::collections::HashMap<String, String> =
        super::rooms_used::of_api(&live.rooms_used, &live.url)
            .filter_map(|r| r.name.clone().map(|n| (r.id.clone(), n)))
            .collect();
    let (connection, sender) = (connection.clone(), outside.sender.clone());
    tokio::spawn(async move {
        let result = crate::source::recent::recent_rooms(&connection, &known).await;
        let _ = sender.send(Action::RecentRooms(result));
    });
}

/// Looks a room's name up in the background; the answer comes as an action.
fn look_up(name: String, outside: &Outside) {
    let Some(connection) = outside.connection else {
        return;
    };
    let (connection, sender) = (connection.clone(), outside.sender.clone());
    tokio::spawn(async move {
        // The explorer's header says nothing of this lookup's retries; its answer comes.
        let result = crate::source::live::look_up_room(&connection, &name, &|_| {})
            .await
            .map_err(|e| e.to_string());
        let _ = sender.send(Action::RoomLookedUp { name, result });
    });
}

/// Hands text to the first clipboard program on the PATH that takes it, else to the terminal's
/// clipboard (OSC 52), between two frames so that it cannot land inside a drawing sequence.
fn copy(terminal: &mut Tui, text: &str, what: String) -> Result<Copied, String> {
    let programs = clipboard::programs_on(std::env::var_os("PATH").as_deref());
    let sent = clipboard::send(&programs, text, |bytes| {
        let out = terminal.backend_mut();
        out.write_all(bytes)?;
        out.flush()
    })?;
    Ok(match sent {
        clipboard::Sent::Program(program) => Copied::Program { what, program },
        clipboard::Sent::Terminal { failed } => Copied::Terminal { what, failed },
    })
}

/// Writes text to a file in the folder callscope was started in, for when the clipboard does
/// not work.
fn copy_to_file(text: &str, what: String) -> Result<Copied, String> {
    let folder =
        std::env::current_dir().map_err(|e| format!("the current folder cannot be found: {e}"))?;
    let path = clipboard::selection_file(&folder, text);
    clipboard::write_selection(&path, text)
        .map_err(|e| format!("{e}; y copies it to the clipboard instead"))?;
    Ok(Copied::File {
        what,
        path: path.display().to_string(),
    })
}

/// A key no binding names: said in the status line, in the key table's words.
fn unbound(key: &crossterm::event::KeyEvent) -> Action {
    use crossterm::event::{KeyCode, KeyModifiers};
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let alt = key.modifiers.contains(KeyModifiers::ALT);
    let written = match key.code {
        KeyCode::Char(c) if ctrl => super::keymap::Key::Ctrl(c.to_ascii_lowercase()),
        KeyCode::Char(c) if alt => super::keymap::Key::Alt(c),
        KeyCode::Char(c) => super::keymap::Key::Char(c),
        code => super::keymap::Key::Code(code),
    };
    Action::Unbound(written.label())
}

/// What a terminal event means in the current mode.
pub fn translate(model: &Model, ev: TermEvent) -> Option<Action> {
    match ev {
        TermEvent::Key(key) if key.kind != KeyEventKind::Release => {
            let keymap = &model.config.keymap;
            let mode = model.focus.mode();
            match keymap.command_for(mode, &key) {
                Some(c) => Some(Action::Command(c)),
                None if mode.takes_text() => Some(Action::Input(TermEvent::Key(key))),
                // The timeline takes few keys; the list's others (filters, search, types...)
                // are not swallowed there.
                None if mode == Mode::Timeline => Some(
                    keymap
                        .command_for(Mode::List, &key)
                        .map_or_else(|| unbound(&key), Action::ListCommand),
                ),
                None => Some(unbound(&key)),
            }
        }
        TermEvent::Mouse(m) => match m.kind {
            MouseEventKind::ScrollDown => Some(Action::Wheel {
                column: m.column,
                row: m.row,
                down: true,
            }),
            MouseEventKind::ScrollUp => Some(Action::Wheel {
                column: m.column,
                row: m.row,
                down: false,
            }),
            MouseEventKind::Down(MouseButton::Left) => Some(Action::Click {
                column: m.column,
                row: m.row,
            }),
            _ => None,
        },
        TermEvent::Resize(width, height) => Some(Action::Resize { width, height }),
        TermEvent::Paste(text) if model.focus.takes_text() => {
            Some(Action::Input(TermEvent::Paste(text)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::filter::Filter;
    use crate::tui::effect::SaveWhat;
    use crate::tui::model::{SourceLabel, event_id};

    fn demo() -> Model {
        let mut m = Model::new(SourceLabel::Demo, Filter::default(), 140, 40);
        update(&mut m, Action::BatchLoaded(crate::source::demo::load()));
        m
    }

    fn saved(model: &Model, path: &std::path::Path) -> String {
        let action = save(model, path.to_str().unwrap(), SaveWhat::Loaded, false);
        assert!(matches!(action, Action::Saved(Ok(_))), "{action:?}");
        std::fs::read_to_string(path).unwrap()
    }

    #[test]
    fn with_redaction_on_a_save_writes_pseudonyms_instead_of_user_names() {
        let dir = tempfile::tempdir().unwrap();
        let mut m = demo();
        let plain = saved(&m, &dir.path().join("plain.json"));
        assert!(plain.contains("Priya Raman"));
        m.config.redact = true;
        let path = dir.path().join("redacted.ndjson");
        let action = save(&m, path.to_str().unwrap(), SaveWhat::Loaded, false);
        match action {
            Action::Saved(Ok(message)) => assert!(message.ends_with("(redacted)"), "{message}"),
            other => panic!("{other:?}"),
        }
        let redacted = std::fs::read_to_string(&path).unwrap();
        assert!(!redacted.contains("Priya Raman"));
        assert!(redacted.contains("user-0001"));
        assert_eq!(redacted.lines().count(), m.events.store.len());
    }

    #[test]
    fn a_save_to_a_csv_name_writes_a_dump_and_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let m = demo();
        let path = dir.path().join("x.CSV");
        match save(&m, path.to_str().unwrap(), SaveWhat::Loaded, false) {
            Action::Saved(Ok(message)) => {
                assert!(message.contains("as a JSON envelope"), "{message}")
            }
            other => panic!("{other:?}"),
        }
        let saved: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(
            saved["events"].as_array().unwrap().len(),
            m.events.store.len()
        );
        // A dump's own name says nothing more.
        let path = dir.path().join("x.json");
        match save(&m, path.to_str().unwrap(), SaveWhat::Loaded, false) {
            Action::Saved(Ok(message)) => assert!(!message.contains(" as "), "{message}"),
            other => panic!("{other:?}"),
        }
    }

    /// Presses a character key as the terminal reports it.
    fn press(model: &mut Model, c: char) {
        let key = crossterm::event::KeyEvent::new(
            crossterm::event::KeyCode::Char(c),
            crossterm::event::KeyModifiers::NONE,
        );
        if let Some(action) = translate(model, TermEvent::Key(key)) {
            update(model, action);
        }
    }

    #[test]
    fn a_key_of_the_lists_pressed_in_the_timeline_goes_to_the_list_and_the_strip_stays() {
        let mut m = demo();
        press(&mut m, 'T');
        assert_eq!(m.focus.mode(), Mode::Timeline);
        // A type key: the list runs it and has the keyboard again.
        press(&mut m, '3');
        assert_eq!(m.events.filter.types, [crate::event::EventType::Join]);
        assert_eq!(m.focus.mode(), Mode::List);
        assert!(m.panes.timeline.is_some(), "the strip stays open");
        // The filter inputs, from the timeline: what is typed next goes into them.
        press(&mut m, 'T');
        assert_eq!(m.focus.mode(), Mode::Timeline);
        press(&mut m, 'f');
        assert_eq!(m.focus.mode(), Mode::Editing);
        // The timeline's own keys stay its own.
        let mut m = demo();
        press(&mut m, 'T');
        press(&mut m, 'l');
        assert_eq!(m.focus.mode(), Mode::Timeline);
    }

    #[test]
    fn a_key_that_does_nothing_in_a_view_says_so_in_the_status_line() {
        let mut m = demo();
        press(&mut m, 'e');
        assert_eq!(m.focus.mode(), Mode::Groups);
        // `s` saves from the list; the groups view has no use for it.
        press(&mut m, 's');
        assert_eq!(
            m.status.as_deref(),
            Some("s does nothing in the groups view (? lists the keys that do)")
        );
        assert_eq!(m.focus.mode(), Mode::Groups);
        // The next key that does something clears it.
        press(&mut m, 'j');
        assert_eq!(m.status, None);
        // A function key, in the list.
        let f9 = crossterm::event::KeyEvent::new(
            crossterm::event::KeyCode::F(9),
            crossterm::event::KeyModifiers::NONE,
        );
        let mut m = demo();
        let action = translate(&m, TermEvent::Key(f9)).unwrap();
        update(&mut m, action);
        assert_eq!(
            m.status.as_deref(),
            Some("F9 does nothing in the list (? lists the keys that do)")
        );
        // Typed into an input, a letter is text.
        press(&mut m, 'f');
        press(&mut m, 'z');
        assert_eq!(m.status, None);
    }

    #[test]
    fn a_folder_gets_the_events_and_the_related_data_and_opens_again_to_the_same_verdicts() {
        let dir = tempfile::tempdir().unwrap();
        let mut m = demo();
        let objects = crate::source::demo::related().into_objects().collect();
        update(&mut m, Action::RelatedLoaded { objects, now: 0 });
        // Only the join failures shown: the track events go with them all the same.
        let mut joins = m.events.filter.clone();
        joins.types = vec![crate::event::EventType::Join];
        crate::tui::update::events::set_filter(&mut m, joins);
        let folder = dir.path().join("saved").to_str().unwrap().to_string() + "/";
        match save(&m, &folder, SaveWhat::Shown, false) {
            Action::Saved(Ok(message)) => {
                assert!(message.contains("10 rooms, 28 sessions"), "{message}")
            }
            other => panic!("{other:?}"),
        }
        let mut names: Vec<String> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(
            names,
            [
                "events.ndjson",
                "peer-stats.ndjson",
                "rooms.json",
                "sessions.json"
            ]
        );
        // Saving again asks first.
        assert!(matches!(
            save(&m, &folder, SaveWhat::Shown, false),
            Action::SaveNeedsConfirm { .. }
        ));
        // Read again, the folder tells every chain of the shown events as the explorer did.
        let source = crate::source::Source::Files(vec![folder.clone()]);
        let (store, problems) = source.load_offline();
        assert!(problems.is_empty(), "{problems:?}");
        let again = source.related();
        let before =
            crate::insight::outcomes(&m.events.store, &m.beside.data, &Default::default(), 0);
        let after = crate::insight::outcomes(&store, &again, &Default::default(), 0);
        let told = |store: &crate::store::Store,
                    table: &[Option<(u32, crate::insight::Outcome)>]| {
            let mut by_id: Vec<(String, crate::insight::Outcome)> = (0..store.len())
                .filter(|&i| store.str(store.row(i).kind) == "client.join.failed")
                .filter_map(|i| Some((event_id(store, i)?, table[i]?.1)))
                .collect();
            by_id.sort();
            by_id
        };
        let (b, a) = (told(&m.events.store, &before), told(&store, &after));
        assert_eq!(b.len(), a.len());
        assert_eq!(b, a);
        assert!(
            a.iter()
                .any(|(_, o)| *o == crate::insight::Outcome::GotThrough)
        );
        assert!(
            a.iter()
                .any(|(_, o)| *o == crate::insight::Outcome::NeverGotIn)
        );
    }

    #[test]
    fn a_folder_saved_over_another_holds_only_what_was_saved_and_other_dumps_stop_it() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("shared").to_str().unwrap().to_string() + "/";
        let mut full = demo();
        let objects = crate::source::demo::related().into_objects().collect();
        update(&mut full, Action::RelatedLoaded { objects, now: 0 });
        let action = save(&full, &folder, SaveWhat::Loaded, false);
        assert!(matches!(action, Action::Saved(Ok(_))), "{action:?}");
        std::fs::write(format!("{folder}notes.txt"), "who to call\n").unwrap();
        let names = || {
            let mut names: Vec<String> = std::fs::read_dir(&folder)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        };
        // The events alone saved over it: asked first, even with only the related data there,
        // then the earlier sessions, rooms and stats go; a file callscope never reads stays.
        let bare = demo();
        std::fs::remove_file(format!("{folder}events.ndjson")).unwrap();
        let action = save(&bare, &folder, SaveWhat::Loaded, false);
        assert!(
            matches!(action, Action::SaveNeedsConfirm { .. }),
            "{action:?}"
        );
        let action = save(&bare, &folder, SaveWhat::Loaded, true);
        assert!(matches!(action, Action::Saved(Ok(_))), "{action:?}");
        assert_eq!(names(), ["events.ndjson", "notes.txt"]);
        // Another dump there would be read with it: nothing is saved, and it is named.
        std::fs::write(format!("{folder}incident.json"), "[]\n").unwrap();
        match save(&bare, &folder, SaveWhat::Loaded, true) {
            Action::Saved(Err(why)) => assert!(
                why.contains("holds incident.json, which callscope would read"),
                "{why}"
            ),
            other => panic!("{other:?}"),
        }
        assert_eq!(names(), ["events.ndjson", "incident.json", "notes.txt"]);
    }

    #[test]
    fn a_folder_of_one_peers_events_gets_that_peers_track_events_alone() {
        // Priya's events shown: her track events go with them (her publish verdicts read
        // them), the other peers' stay out, where the folder held every track event at hand.
        const PRIYA: &str = "3f6b2a9e-8c41-4d7a-9b25-e0c4d1f7a863";
        let dir = tempfile::tempdir().unwrap();
        let mut m = demo();
        let objects = crate::source::demo::related().into_objects().collect();
        update(&mut m, Action::RelatedLoaded { objects, now: 0 });
        let only_priya = m
            .events
            .filter
            .clone()
            .with(crate::event::Field::Peer, PRIYA);
        crate::tui::update::events::set_filter(&mut m, only_priya);
        let folder = dir.path().join("priya").to_str().unwrap().to_string() + "/";
        // Her room and its sessions alone go with them, and her stats.
        match save(&m, &folder, SaveWhat::Shown, false) {
            Action::Saved(Ok(message)) => assert!(
                message.contains(" events, 1 room, 4 sessions and 1 peer's stats into "),
                "{message}"
            ),
            other => panic!("{other:?}"),
        }
        let text = std::fs::read_to_string(format!("{folder}events.ndjson")).unwrap();
        let saved: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let is_track = |e: &serde_json::Value| e["type"].as_str().unwrap().starts_with("track.");
        let tracks: Vec<&serde_json::Value> = saved.iter().filter(|e| is_track(e)).collect();
        assert!(!tracks.is_empty());
        for t in &tracks {
            assert_eq!(t["data"]["peer_id"], PRIYA, "{t}");
        }
        let store = &m.events.store;
        let ids: std::collections::HashSet<&str> =
            saved.iter().map(|e| e["id"].as_str().unwrap()).collect();
        for &i in &m.events.matching {
            assert!(ids.contains(event_id(store, i as usize).unwrap().as_str()));
        }
        let others = (0..store.len())
            .filter(|&i| store.str(store.row(i).kind).starts_with("track."))
            .count();
        assert!(others > tracks.len(), "{others} track events loaded");
        // Opened again, her chains are told as the explorer told them.
        let source = crate::source::Source::Files(vec![folder.clone()]);
        let (again, problems) = source.load_offline();
        assert!(problems.is_empty(), "{problems:?}");
        let peer = |s: &crate::store::Store| s.strings().lookup(PRIYA).unwrap();
        let outcomes = |s: &crate::store::Store, related: &crate::related::Related| {
            crate::insight::tell(s, related, peer(s), 0)
                .verdicts
                .into_iter()
                .map(|v| (v.outcome, v.evidence))
                .collect::<Vec<_>>()
        };
        let before = outcomes(store, &m.beside.data);
        assert!(
            before
                .iter()
                .any(|(o, _)| *o == crate::insight::Outcome::Left)
        );
        assert_eq!(outcomes(&again, &source.related()), before);
    }

    /// Every string value of the JSON values in a text (one document, or one per line).
    fn string_values(text: &str) -> Vec<String> {
        fn walk(v: &serde_json::Value, out: &mut Vec<String>) {
            match v {
                serde_json::Value::String(s) => out.push(s.to_lowercase()),
                serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
                serde_json::Value::Object(o) => o.values().for_each(|x| walk(x, out)),
                _ => {}
            }
        }
        let mut out = Vec::new();
        for value in serde_json::Deserializer::from_str(text).into_iter() {
            walk(&value.unwrap(), &mut out);
        }
        out
    }

    #[test]
    fn with_redaction_a_folder_holds_pseudonyms_in_every_file_and_tells_the_same_verdicts() {
        let dir = tempfile::tempdir().unwrap();
        let mut m = demo();
        let related = crate::source::demo::related();
        let objects = related.clone().into_objects().collect();
        update(&mut m, Action::RelatedLoaded { objects, now: 0 });
        m.config.redact = true;
        let folder = dir.path().join("shared").to_str().unwrap().to_string() + "/";
        match save(&m, &folder, SaveWhat::Loaded, false) {
            Action::Saved(Ok(message)) => assert!(
                message.contains("10 rooms, 28 sessions") && message.ends_with("(redacted)"),
                "{message}"
            ),
            other => panic!("{other:?}"),
        }
        // The names and user ids of the events and of every peer of the sessions.
        let store = &m.events.store;
        let mut real: std::collections::BTreeSet<String> = (0..store.len())
            .flat_map(|i| {
                let row = store.row(i);
                [store.str(row.user_name), store.str(row.user_id)]
            })
            .map(str::to_lowercase)
            .collect();
        for peer in related.sessions.iter().flat_map(|s| &s.peers) {
            real.extend(
                peer.name
                    .iter()
                    .chain(&peer.user_id)
                    .map(|s| s.to_lowercase()),
            );
        }
        real.remove("");
        assert!(real.len() > 800, "{}", real.len());
        for name in [
            "events.ndjson",
            "rooms.json",
            "sessions.json",
            "peer-stats.ndjson",
        ] {
            let text = std::fs::read_to_string(format!("{folder}{name}")).unwrap();
            assert!(!text.contains("Priya Raman"), "{name}");
            for value in string_values(&text) {
                assert!(!real.contains(&value), "{name}: {value}");
            }
        }
        // Read again, the folder tells every chain as the explorer did: the sessions name each
        // peer as its events do.
        let source = crate::source::Source::Files(vec![folder.clone()]);
        let (again, problems) = source.load_offline();
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(again.len(), store.len());
        let before = crate::insight::outcomes(store, &m.beside.data, &Default::default(), 0);
        let after = crate::insight::outcomes(&again, &source.related(), &Default::default(), 0);
        let told = |store: &crate::store::Store,
                    table: &[Option<(u32, crate::insight::Outcome)>]| {
            let mut by_id: Vec<(String, crate::insight::Outcome)> = (0..store.len())
                .filter_map(|i| Some((event_id(store, i)?, table[i]?.1)))
                .collect();
            by_id.sort();
            by_id
        };
        let (b, a) = (told(store, &before), told(&again, &after));
        assert!(b.len() > 1000, "{}", b.len());
        assert_eq!(b, a);
    }
}
