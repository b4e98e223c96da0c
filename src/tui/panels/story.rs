//! A peer's story, in the list's place: its events folded into retry chains, as lines to
//! scroll through; the detail pane shows the selected line's event.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::help::HelpPanel;
use super::{Focus, Handled, moved, moves, shifted, visible_offset};
use crate::event::EventType;
use crate::insight::{CHAIN_GAP, Story, Summary, Told, TrackSeen, Verdict, tell_with};
use crate::output::status_word;
use crate::store::NO_TIME;
use crate::store::Store;
use crate::text::cut;
use crate::text::for_terminal;
use crate::time::Zone;
use crate::tui::action::Command;
use crate::tui::clipboard;
use crate::tui::keymap::Mode;
use crate::tui::model::{Asked, Beside, Model};
use crate::tui::view::layout::{STORY_FIRST_ROW, list_height};

/// A peer's story: its events folded into chains, each told with its verdict, the peer's track
/// events woven in as context, as lines to scroll through.
#[derive(Debug)]
pub struct StoryPanel {
    pub story: Story,
    /// For each chain, its verdict and the peer's network around it (when stats are at hand).
    pub verdicts: Vec<Verdict>,
    pub quality: Vec<Option<Summary>>,
    /// The peer's track events (and those of the same user in its rooms), in time order.
    pub tracks: Vec<TrackSeen>,
    pub lines: Vec<StoryLine>,
    pub selected: usize,
    pub offset: usize,
    /// Where the keyboard goes back to when the story closes.
    pub back: Box<Focus>,
    /// The versions of the store and of the related data the story was told for, and the zone
    /// its verdicts name times in.
    told_for: (u64, u64, Zone),
}

/// One line of a story: a chain's summary, its verdict, its network, one of its events (a
/// store index), or a track event (with its store index when it is a loaded event).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoryLine {
    Chain(usize),
    Verdict(usize),
    Network(usize),
    Event(u32),
    Track {
        track: u32,
        event: Option<u32>,
    },
    /// The events that belong to no chain (other families, no time) follow this line.
    Outside,
}

impl StoryPanel {
    /// The event the detail pane shows: the selected line's, or its chain's first on a chain's
    /// lines.
    pub fn focused_event(&self) -> Option<usize> {
        match self.lines.get(self.selected) {
            Some(StoryLine::Event(i)) => Some(*i as usize),
            Some(StoryLine::Track { event, .. }) => event.map(|i| i as usize),
            Some(StoryLine::Chain(c) | StoryLine::Verdict(c) | StoryLine::Network(c)) => {
                self.story.chains[*c].events.first().map(|&i| i as usize)
            }
            _ => None,
        }
    }

    /// The chain of the selected line, if it is in one.
    pub fn focused_chain(&self) -> Option<usize> {
        match self.lines.get(self.selected)? {
            StoryLine::Chain(c) | StoryLine::Verdict(c) | StoryLine::Network(c) => Some(*c),
            StoryLine::Event(i) => self.chain_of_event(*i),
            _ => None,
        }
    }

    fn chain_of_event(&self, i: u32) -> Option<usize> {
        let k = self.story.events.iter().position(|&e| e == i)?;
        self.story.chain_of[k].map(|c| c as usize)
    }

    /// Tells the story again when events joined the store, related data arrived (a live
    /// answer) or the times are shown in another zone, keeping the selected line.
    pub fn retell(&mut self, store: &Store, beside: &Beside, store_generation: u64, zone: Zone) {
        let now_for = (store_generation, beside.version, zone);
        if self.told_for == now_for {
            return;
        }
        let kept = self.lines.get(self.selected).copied();
        let told = tell_with(
            store,
            &beside.data,
            &beside.fetched,
            self.story.peer,
            beside.now,
            zone,
        );
        self.lines = lay_out(store, &told);
        self.story = told.story;
        self.verdicts = told.verdicts;
        self.quality = told.quality;
        self.tracks = told.tracks;
        self.told_for = now_for;
        self.selected = kept
            .and_then(|l| self.lines.iter().position(|x| *x == l))
            .unwrap_or(self.selected)
            .min(self.lines.len().saturating_sub(1));
    }
}

/// The lines of a told story: each chain's summary, its verdict and network, then its events
/// with the track events of its time (from its first failure to [`CHAIN_GAP`] past its last)
/// woven in by time; then the events in no chain, with the track events no chain's time holds.
fn lay_out(store: &Store, told: &Told) -> Vec<StoryLine> {
    let story = &told.story;
    let rows = store.rows();
    // Each track event's place among the loaded events, when it is one of them.
    let loaded: Vec<Option<u32>> = told
        .tracks
        .iter()
        .map(|t| {
            story.events.iter().copied().find(|&i| {
                let r = &rows[i as usize];
                r.ts == t.at && store.str(r.kind) == t.kind
            })
        })
        .collect();
    let mut woven = vec![false; told.tracks.len()];
    let mut lines = Vec::new();
    for (c, chain) in story.chains.iter().enumerate() {
        lines.push(StoryLine::Chain(c));
        lines.push(StoryLine::Verdict(c));
        if told.quality.get(c).is_some_and(Option::is_some) {
            lines.push(StoryLine::Network(c));
        }
        let until = chain.last.saturating_add(CHAIN_GAP);
        let mut here: Vec<(i64, StoryLine)> = chain
            .events
            .iter()
            .map(|&e| (rows[e as usize].ts, StoryLine::Event(e)))
            .collect();
        for (k, t) in told.tracks.iter().enumerate() {
            if !woven[k] && t.at >= chain.first && t.at <= until {
                woven[k] = true;
                here.push((
                    t.at,
                    StoryLine::Track {
                        track: k as u32,
                        event: loaded[k],
                    },
                ));
            }
        }
        // Stable: at one time, the error before the track event.
        here.sort_by_key(|(at, _)| *at);
        lines.extend(here.into_iter().map(|(_, l)| l));
    }
    let mut outside: Vec<(i64, StoryLine)> = story
        .events
        .iter()
        .zip(&story.chain_of)
        // A track event is told as one, woven in or among these.
        .filter(|(e, c)| c.is_none() && !loaded.contains(&Some(**e)))
        .map(|(&e, _)| (rows[e as usize].ts, StoryLine::Event(e)))
        .collect();
    for (k, t) in told.tracks.iter().enumerate() {
        if !woven[k] {
            outside.push((
                t.at,
                StoryLine::Track {
                    track: k as u32,
                    event: loaded[k],
                },
            ));
        }
    }
    if !outside.is_empty() {
        // Untimed events last, as the story keeps them.
        outside.sort_by_key(|(at, _)| (*at == NO_TIME, *at));
        lines.push(StoryLine::Outside);
        lines.extend(outside.into_iter().map(|(_, l)| l));
    }
    lines
}

/// `p`: the story of the selected event's peer, opened on that event; closing it goes back to
/// `here`. An event without a peer has no story: it says so, and the keyboard stays. Live, the
/// peer's track events are asked for.
pub fn open(model: &mut Model, here: Focus) -> Handled {
    let Some(i) = model.selected_event() else {
        return Handled::to(here);
    };
    let store = &model.events.store;
    let peer = store.row(i).peer_id;
    if peer.is_none() {
        model.status = Some("this event has no peer_id: it belongs to no peer's story".into());
        return Handled::to(here);
    }
    let beside = &model.beside;
    let zone = model.panes.zone;
    let told = tell_with(store, &beside.data, &beside.fetched, peer, beside.now, zone);
    let lines = lay_out(store, &told);
    let selected = lines
        .iter()
        .position(|l| {
            *l == StoryLine::Event(i as u32)
                || matches!(l, StoryLine::Track { event: Some(e), .. } if *e == i as u32)
        })
        .unwrap_or(0);
    let height = list_height(model).max(1);
    let room = store.str(store.row(i).room_id).to_string();
    let peer_id = store.str(peer).to_string();
    let told_for = (model.events.generation.store, model.beside.version, zone);
    let lines_len = lines.len();
    model.panes.detail.scroll = 0;
    let effects = crate::tui::update::related::ask_tracks(model, &room, &peer_id);
    Handled::Done(
        Focus::Story(StoryPanel {
            story: told.story,
            verdicts: told.verdicts,
            quality: told.quality,
            tracks: told.tracks,
            lines,
            selected,
            // The selected line in the middle, unless the story's end would leave rows empty.
            offset: selected
                .saturating_sub(height / 2)
                .min(lines_len.saturating_sub(height)),
            back: Box::new(here),
            told_for,
        }),
        effects,
    )
}

/// A command with the keyboard on a story.
pub fn handle(mut s: StoryPanel, model: &mut Model, c: Command) -> Handled {
    let page = list_height(model).max(1);
    match c {
        c if moves(c) => {
            s.selected = moved(s.selected, s.lines.len(), c, page);
            if s.lines.get(s.selected) == Some(&StoryLine::Outside) {
                // The heading of the events outside chains holds no event: step over it.
                let over = if c == Command::Up {
                    Command::Up
                } else {
                    Command::Down
                };
                s.selected = moved(s.selected, s.lines.len(), over, page);
            }
            s.offset = visible_offset(s.selected, s.offset, page);
            model.panes.detail.scroll = 0;
        }
        Command::Cancel => {
            model.panes.detail.scroll = 0;
            return Handled::to(*s.back);
        }
        Command::LoadAll => {
            return Handled::Done(Focus::Story(s), crate::tui::update::live::load_all(model));
        }
        // The groups take the list's place, and the story closes.
        Command::ShowGroups => {
            return Handled::to(Focus::Groups(super::groups::GroupsPanel::open(
                &model.events,
            )));
        }
        Command::CopyJson => {
            let effects = clipboard::copy_json(model, s.focused_event());
            return Handled::Done(Focus::Story(s), effects);
        }
        Command::CopyToFile => {
            let effects = clipboard::to_file(clipboard::copy_json(model, s.focused_event()));
            return Handled::Done(Focus::Story(s), effects);
        }
        Command::ToggleLocalTime => super::list::toggle_zone(model),
        Command::ShowJson => return super::json::open(model, Focus::Story(s)),
        Command::ShowQuality => {
            let chain = s.focused_chain();
            let session = chain.and_then(|c| s.verdicts[c].session_id.clone());
            // On a chain's own lines, the network is told around its last failure.
            let event = match s.lines.get(s.selected) {
                Some(StoryLine::Chain(c) | StoryLine::Verdict(c) | StoryLine::Network(c)) => {
                    s.story.chains[*c].events.last().map(|&i| i as usize)
                }
                _ => s.focused_event(),
            };
            return super::quality::open(model, event, session, Focus::Story(s));
        }
        Command::CopyId => {
            let effects = clipboard::copy_peer_id(model, s.story.peer);
            return Handled::Done(Focus::Story(s), effects);
        }
        Command::ToggleHelp => return Handled::to(Focus::Help(HelpPanel::over(Focus::Story(s)))),
        _ => return Handled::Unused(Focus::Story(s)),
    }
    Handled::to(Focus::Story(s))
}

/// A click `row` lines below the top of the story: the line under the pointer is selected
/// (not the heading of the events outside chains). Returns whether the selection changed.
pub fn click(s: &mut StoryPanel, row: u16) -> bool {
    let Some(k) = row.checked_sub(STORY_FIRST_ROW) else {
        return false;
    };
    let k = s.offset + k as usize;
    let holds_event = s.lines.get(k).is_some_and(|l| *l != StoryLine::Outside);
    if holds_event && k != s.selected {
        s.selected = k;
        return true;
    }
    false
}

/// The wheel over the story: the selection moves `step` lines. Returns whether it changed.
pub fn wheel(s: &mut StoryPanel, step: i64, page: usize) -> bool {
    let mut selected = shifted(s.selected, s.lines.len(), step);
    if s.lines.get(selected) == Some(&StoryLine::Outside) {
        // The heading of the events outside chains holds no event: step over it.
        let past = shifted(selected, s.lines.len(), step.signum());
        selected = if past == selected {
            shifted(selected, s.lines.len(), -step.signum())
        } else {
            past
        };
    }
    let changed = selected != s.selected;
    s.selected = selected;
    s.offset = visible_offset(s.selected, s.offset, page);
    changed
}

/// A peer's story, in the list's place: each chain's summary, verdict and network, then its
/// events with the peer's track events dimmed among them.
pub fn draw(model: &Model, s: &StoryPanel, frame: &mut Frame, area: Rect) {
    let theme = &model.config.theme;
    let store = &model.events.store;
    let first = s.story.events.first().map(|&i| store.row(i as usize));
    // As `callscope story` names a peer without a name.
    let user = (first.map(|r| store.str(r.user_name)))
        .filter(|u| !u.is_empty())
        .unwrap_or("unnamed");
    let through = s.verdicts.iter().filter(|v| v.outcome.succeeded()).count();
    let title = format!(
        " story of {} ({}) · {}, {}, {} gave up, {} got through{} · {}: network, {}: back ",
        for_terminal(user),
        for_terminal(store.str(s.story.peer)),
        crate::text::plural(s.story.events.len(), "event", "events"),
        crate::text::plural(s.story.chains.len(), "chain", "chains"),
        s.story.gave_up(),
        through,
        live_note(
            model,
            first.map(|r| store.str(r.room_id)),
            store.str(s.story.peer)
        ),
        model.config.keymap.key(Mode::Story, Command::ShowQuality),
        model.config.keymap.key(Mode::Story, Command::Cancel),
    );
    let block = Block::new()
        .borders(Borders::TOP)
        .border_style(theme.focused_border())
        .title(cut(&title, area.width.into()));
    let height = area.height.saturating_sub(STORY_FIRST_ROW) as usize;
    let end = (s.offset + height).min(s.lines.len());
    let width = area.width as usize;
    let time_of = |ts: i64| {
        if ts == NO_TIME {
            "-".into()
        } else {
            crate::time::format_short(model.panes.zone.shift(ts))
        }
    };
    let lines: Vec<Line> = (s.offset..end)
        .map(|k| {
            let line = match s.lines[k] {
                StoryLine::Chain(c) => {
                    let chain = &s.story.chains[c];
                    let style = if chain.ending.gave_up() {
                        theme.terminal(Some(true))
                    } else {
                        theme.title()
                    };
                    let summary = chain.summary(store, model.panes.zone);
                    Line::styled(cut(&for_terminal(&summary), width), style)
                }
                StoryLine::Verdict(c) => {
                    let v = &s.verdicts[c];
                    Line::from(vec![
                        Span::raw("   "),
                        Span::styled(v.outcome.words(), theme.outcome(v.outcome)),
                        Span::raw(cut(
                            &format!(": {}", for_terminal(&v.evidence)),
                            width.saturating_sub(3 + v.outcome.words().len()),
                        )),
                    ])
                }
                StoryLine::Network(c) => {
                    let sentence = s.quality[c].as_ref().map_or("", |q| q.sentence.as_str());
                    Line::styled(
                        cut(&format!("   network: {}", for_terminal(sentence)), width),
                        theme.label(),
                    )
                }
                StoryLine::Outside => Line::styled(
                    "events in no chain (other families, or no time):",
                    theme.title(),
                ),
                StoryLine::Track { track, .. } => {
                    let t = &s.tracks[track as usize];
                    let who = if t.peer_id == store.str(s.story.peer) {
                        String::new()
                    } else {
                        format!(" (as peer {}, same user)", t.peer_id)
                    };
                    Line::styled(
                        cut(
                            &format!(
                                "   {}  {:<10} {}{}",
                                time_of(t.at),
                                "track",
                                for_terminal(&t.words()),
                                for_terminal(&who)
                            ),
                            width,
                        ),
                        theme.context(),
                    )
                }
                StoryLine::Event(i) => {
                    let row = store.row(i as usize);
                    let kind = EventType::from_name(store.str(row.kind));
                    // The status before the error's name: on a narrow pane the end of the
                    // line is what goes, and which attempt was final must not.
                    Line::from(vec![
                        Span::raw(format!("   {}  ", time_of(row.ts))),
                        Span::styled(format!("{:<10} ", kind.short()), theme.event_type(&kind)),
                        Span::styled(
                            format!("{:<7} ", status_word(row.is_terminal())),
                            theme.terminal(row.is_terminal()),
                        ),
                        Span::raw(format!(
                            "{:<5} {}",
                            row.error_code().map(|c| c.to_string()).unwrap_or_default(),
                            cut(&for_terminal(store.str(row.error_name)), 22)
                        )),
                    ])
                }
            };
            // An event's line (its error's name last) ends in `…` where the pane cuts it.
            let line = crate::tui::view::fit::line(line, width);
            if k == s.selected {
                line.style(theme.selected_row())
            } else {
                line
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// Live: what the questions about the room's sessions and the peer's track events are doing,
/// when they are not answered (" · sessions: asking the service").
fn live_note(model: &Model, room: Option<&str>, peer: &str) -> String {
    let beside = &model.beside;
    let mut notes = Vec::new();
    match room.and_then(|r| beside.sessions_asked(r)) {
        Some(Asked::Asking) => notes.push("sessions: asking the service".to_string()),
        Some(Asked::Failed(why)) => notes.push(format!("sessions not fetched: {why}")),
        _ => {}
    }
    for (_, asked) in beside.peer_tracks.iter().filter(|(p, _)| p == peer) {
        match asked {
            Asked::Asking => notes.push("track events: asking the service".to_string()),
            Asked::Failed(why) => notes.push(format!("track events not fetched: {why}")),
            Asked::Answered => {}
        }
    }
    notes
        .iter()
        .map(|n| format!(" · {}", for_terminal(n)))
        .collect()
}
