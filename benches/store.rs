//! Filtering, searching, grouping, ordering and drawing over generated stores of 10k and 100k events, and
//! of 1M with `CALLSCOPE_BENCH_1M=1`:
//!
//!   cargo bench --bench store
//!   CALLSCOPE_BENCH_1M=1 cargo bench --bench store
//!   cargo bench --bench store -- 'explorer/'     # one group of measurements
//!   cargo bench --bench store -- 'load/'         # reading and merging batches
//!   cargo bench --bench store -- 'related/'      # verdicts, with the sessions beside the events
//!
//! Each store is built once per size (generated NDJSON read in batches, as the explorer reads a
//! dump) and only the work on it is measured. The `explorer/` figures go through `update` and
//! `view` the way a key press does: the change, then one frame on a 160x45 test terminal.

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{
    BatchSize, BenchmarkGroup, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use callscope::event::{EventType, Field};
use callscope::filter::Filter;
use callscope::generator::{STORM_ROOM_ID, STORM_SFU_NODE};
use callscope::insight::{GroupKey, GroupSort};
use callscope::insight::{Groups, Order, OrderIndex, SortKey, Timeline};
use callscope::source::dump::{DumpFile, LARGE_BATCH, read_file_in_batches};
use callscope::store::{BatchBuilder, Blob, Reading, Store};
use callscope::time::Zone;
use callscope::tui::action::{Action, Command};
use callscope::tui::model::{Model, SourceLabel};
use callscope::tui::panels::Focus;
use callscope::tui::update::events::set_order;
use callscope::tui::update::update;
use callscope::tui::view::view;

const WIDTH: u16 = 160;
const HEIGHT: u16 = 45;
/// Events in the first batch, as the explorer reads a file.
const FIRST_BATCH: usize = 2_000;
/// A text found in most events' bytes (keys such as `device_model` hold it), so nearly every
/// event's JSON is walked: the slow case of a search.
const COMMON_TEXT: &str = "ice";

fn sizes() -> Vec<usize> {
    let mut sizes = vec![10_000, 100_000];
    if std::env::var_os("CALLSCOPE_BENCH_1M").is_some_and(|v| v != "0" && !v.is_empty()) {
        sizes.push(1_000_000);
    }
    sizes
}

/// An explorer model holding `events` generated events, loaded batch by batch through `update`.
fn loaded_model(events: usize) -> Model {
    let mut ndjson = Vec::new();
    callscope::generator::write_ndjson(&mut ndjson, events, callscope::generator::DEMO_SEED)
        .expect("writing to memory");
    let file = DumpFile {
        path: format!("events-{events}.ndjson"),
        blob: Arc::new(Blob::Owned(ndjson)),
    };
    let source = SourceLabel::Files {
        count: 1,
        first: file.path.clone(),
    };
    let mut model = Model::new(source, Filter::default(), WIDTH, HEIGHT);
    let problems = read_file_in_batches(file, &Reading::start(), FIRST_BATCH, &mut |batch| {
        update(&mut model, Action::BatchLoaded(batch));
    });
    update(&mut model, Action::LoadFinished { problems });
    assert_eq!(
        model.events.store.len(),
        events,
        "every generated event is loaded"
    );
    assert_eq!(
        model.events.shown.len(),
        events,
        "no filter: every event is shown"
    );
    model
}

fn filter(types: &[EventType], room: Option<&str>, search: Option<&str>) -> Filter {
    let mut filter = Filter {
        types: types.to_vec(),
        search: search.map(str::to_string),
        ..Filter::default()
    };
    filter.set(Field::Room, room.map(str::to_string));
    filter
}

fn terminal() -> Terminal<TestBackend> {
    Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("a test terminal")
}

fn draw(terminal: &mut Terminal<TestBackend>, model: &Model) {
    terminal
        .draw(|frame| view(model, frame))
        .expect("drawing on a test terminal");
}

/// Fewer, shorter samples for the larger stores, so that a default run stays a few minutes.
fn configure(group: &mut BenchmarkGroup<'_, criterion::measurement::WallTime>, events: usize) {
    let samples = match events {
        n if n >= 1_000_000 => 10,
        n if n >= 100_000 => 20,
        _ => 50,
    };
    group.sample_size(samples);
    if events >= 100_000 {
        // Some of these take a second an iteration: one iteration a sample, not a ramp.
        group.sampling_mode(SamplingMode::Flat);
    }
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(3));
}

/// Store and insight work on the rows, with every event shown.
fn store_work(c: &mut Criterion, model: &Model) {
    let events = model.events.store.len();
    let store = &model.events.store;
    let all = &model.events.shown;
    let mut group = c.benchmark_group(format!("store/{events}"));
    configure(&mut group, events);
    group.throughput(Throughput::Elements(events as u64));

    let type_room = filter(&[EventType::Join], Some(STORM_ROOM_ID), None);
    assert!(
        !store.filter(&type_room).is_empty(),
        "the storm room has joins"
    );
    group.bench_function("filter type+room", |b| {
        b.iter(|| store.filter(black_box(&type_room)))
    });
    let one_type = filter(&[EventType::Publish], None, None);
    group.bench_function("filter one type", |b| {
        b.iter(|| store.filter(black_box(&one_type)))
    });
    // The storm's SFU node: in one event out of six at 1M, and in no other.
    let storm = filter(&[], None, Some(STORM_SFU_NODE));
    group.bench_function("search storm node", |b| {
        b.iter(|| store.filter(black_box(&storm)))
    });
    let common = filter(&[], None, Some(COMMON_TEXT));
    group.bench_function("search common text", |b| {
        b.iter(|| store.filter(black_box(&common)))
    });
    group.bench_function("group by error", |b| {
        b.iter(|| Groups::compute(store, black_box(all), GroupKey::Error, GroupSort::Count))
    });
    group.bench_function("group by peer", |b| {
        b.iter(|| Groups::compute(store, black_box(all), GroupKey::Peer, GroupSort::Count))
    });
    group.bench_function("timeline", |b| {
        b.iter(|| Timeline::compute(store, black_box(all), 120))
    });
    // The list's order: every event put in time order (done once, as the events arrive), then
    // the whole order of another sort, from the time order.
    group.bench_function("order by time", |b| {
        b.iter(|| {
            let mut index = OrderIndex::default();
            index.extend(store);
            index
        })
    });
    let mut by_time = OrderIndex::default();
    by_time.extend(store);
    for key in [SortKey::Code, SortKey::User] {
        let order = Order {
            key,
            newest_first: true,
        };
        group.bench_function(format!("order by {}", key.name()), |b| {
            b.iter_batched(
                || by_time.clone(),
                |mut index| index.ordered(store, black_box(order)).len(),
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

/// Runs `change` then draws a frame, `iters` times, timing only that; `setup` (untimed) brings
/// the model to where the change starts, before each iteration.
fn timed_change(
    model: &mut Model,
    terminal: &mut Terminal<TestBackend>,
    iters: u64,
    setup: &dyn Fn(&mut Model),
    change: &dyn Fn(&mut Model),
) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        setup(model);
        let start = Instant::now();
        change(model);
        draw(terminal, model);
        total += start.elapsed();
    }
    total
}

fn command(model: &mut Model, c: Command) {
    black_box(update(model, Action::Command(c)));
}

/// Clears every filter, opens a filter input with `open` and types `text` into it: what comes
/// before the Enter key that applies it.
fn type_into(model: &mut Model, open: Command, text: &str) {
    command(model, Command::ClearFilters);
    command(model, open);
    let paste = crossterm::event::Event::Paste(text.to_string());
    update(model, Action::Input(paste));
}

/// What the user meets in the explorer: frames, and changes followed by their frame.
fn explorer(c: &mut Criterion, model: &mut Model) {
    let events = model.events.store.len();
    let mut group = c.benchmark_group(format!("explorer/{events}"));
    configure(&mut group, events);
    let mut term = terminal();

    draw(&mut term, model);
    group.bench_function("frame, first event selected", |b| {
        b.iter(|| draw(&mut term, model))
    });
    command(model, Command::Bottom);
    draw(&mut term, model);
    group.bench_function("frame, last event selected", |b| {
        b.iter(|| draw(&mut term, model))
    });
    command(model, Command::ShowGroups);
    draw(&mut term, model);
    group.bench_function("frame, groups view", |b| b.iter(|| draw(&mut term, model)));
    close_views(model);
    // Through `update`, which counts the facets once; a frame only draws them.
    command(model, Command::ToggleFacets);
    draw(&mut term, model);
    group.bench_function("frame, facets shown", |b| b.iter(|| draw(&mut term, model)));
    command(model, Command::ToggleFacets);

    let mut change = |name: &str, setup: &dyn Fn(&mut Model), change: &dyn Fn(&mut Model)| {
        group.bench_function(name, |b| {
            b.iter_custom(|iters| timed_change(model, &mut term, iters, setup, change))
        });
    };
    change("key down + frame", &|m| command(m, Command::Top), &|m| {
        command(m, Command::Down)
    });
    // Key 3 is `join`: on, from every event to one type; off, back to every event.
    change(
        "type key on + frame",
        &|m| command(m, Command::ClearFilters),
        &|m| command(m, Command::ToggleJoin),
    );
    change(
        "type key off + frame",
        &|m| {
            command(m, Command::ClearFilters);
            command(m, Command::ToggleJoin);
        },
        &|m| command(m, Command::ToggleJoin),
    );
    change(
        "room filter applied + frame",
        &|m| type_into(m, Command::EditFilters, STORM_ROOM_ID),
        &|m| command(m, Command::Apply),
    );
    change(
        "search storm node applied + frame",
        &|m| type_into(m, Command::EditSearch, STORM_SFU_NODE),
        &|m| command(m, Command::Apply),
    );
    change(
        "search common text applied + frame",
        &|m| type_into(m, Command::EditSearch, COMMON_TEXT),
        &|m| command(m, Command::Apply),
    );
    // The insight views: `e` groups the shown events by error; from there, Shift-Tab goes to
    // the last key, peer, the one with the most groups. `T` opens the timeline.
    // The order: the next sort key (time to type), and newest first, each with every event
    // shown and their frame.
    change(
        "sort key time to type + frame",
        &|m| {
            command(m, Command::ClearFilters);
            set_order(m, Order::default());
        },
        &|m| command(m, Command::CycleSort),
    );
    change(
        "newest first + frame",
        &|m| {
            command(m, Command::ClearFilters);
            set_order(m, Order::default());
        },
        &|m| command(m, Command::FlipTime),
    );
    // Find: the last character of a text typed into the find prompt (every loaded event looked
    // at, the selection jumping to the first that holds it), then `n` to the next one. A code
    // is a number: the first search for one reads every event's numbers once (before the
    // measurement, in the setup of the first iteration).
    let find_typed = |m: &mut Model, text: &str| {
        close_views(m);
        m.events.find = None;
        command(m, Command::Top);
        command(m, Command::Find);
        update(
            m,
            Action::Input(crossterm::event::Event::Paste(text.to_string())),
        );
    };
    change("find 4006 typed + frame", &|m| find_typed(m, "400"), &|m| {
        let six = crossterm::event::KeyEvent::new(
            crossterm::event::KeyCode::Char('6'),
            crossterm::event::KeyModifiers::NONE,
        );
        update(m, Action::Input(crossterm::event::Event::Key(six)));
    });
    change(
        "find storm node typed + frame",
        &|m| find_typed(m, &STORM_SFU_NODE[..STORM_SFU_NODE.len() - 1]),
        &|m| {
            let last = STORM_SFU_NODE.chars().last().unwrap();
            let key = crossterm::event::KeyEvent::new(
                crossterm::event::KeyCode::Char(last),
                crossterm::event::KeyModifiers::NONE,
            );
            update(m, Action::Input(crossterm::event::Event::Key(key)));
        },
    );
    change(
        "n to the next hit + frame",
        &|m| {
            find_typed(m, "4006");
            command(m, Command::Apply);
        },
        &|m| command(m, Command::FindNext),
    );
    change(
        "groups view opened + frame",
        &|m| command(m, Command::ClearFilters),
        &|m| command(m, Command::ShowGroups),
    );
    change(
        "groups key error to peer + frame",
        &|m| {
            close_views(m);
            command(m, Command::ShowGroups);
        },
        &|m| command(m, Command::PrevGroupKey),
    );
    change("timeline opened + frame", &close_views, &|m| {
        command(m, Command::ToggleTimeline)
    });
    change(
        "key down with facets shown + frame",
        &|m| {
            m.panes.facets.on = true;
            command(m, Command::Top);
        },
        &|m| command(m, Command::Down),
    );
    group.finish();
    model.panes.facets.on = false;
}

/// Back to the plain list of every event.
fn close_views(model: &mut Model) {
    model.focus = Focus::List;
    model.panes.timeline = None;
    command(model, Command::ClearFilters);
}

/// Reading a dump's events into a batch, as each loader thread does, and merging the batches
/// into a store, as the explorer does with each batch it is handed.
fn loading(c: &mut Criterion, events: usize) {
    let mut ndjson = Vec::new();
    callscope::generator::write_ndjson(&mut ndjson, events, callscope::generator::DEMO_SEED)
        .expect("writing to memory");
    let mut lines = Vec::with_capacity(events);
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', &ndjson) {
        lines.push((start, end));
        start = end + 1;
    }
    let blob = Arc::new(Blob::Owned(ndjson));
    let read_with = |range: &[(usize, usize)], indexed: bool| {
        let mut builder = BatchBuilder::new(Arc::clone(&blob));
        if !indexed {
            builder = builder.unindexed();
        }
        for &(start, end) in range {
            builder.push(start, end).expect("a generated event");
        }
        builder.finish()
    };
    let read = |range: &[(usize, usize)]| read_with(range, true);
    let mut group = c.benchmark_group(format!("load/{events}"));
    configure(&mut group, events);
    group.sample_size(10);
    group.throughput(Throughput::Elements(events as u64));
    group.bench_function("read into one batch", |b| b.iter(|| read(&lines)));
    // What indexing the text search costs on top.
    group.bench_function("read into one batch, unindexed", |b| {
        b.iter(|| read_with(&lines, false))
    });
    group.bench_function("merge batches", |b| {
        b.iter_batched(
            || lines.chunks(LARGE_BATCH).map(read).collect::<Vec<_>>(),
            |batches| {
                let mut store = Store::new();
                for batch in batches {
                    store.merge(batch);
                }
                store
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

/// The verdicts: the explorer with the generated world's rooms, sessions and quality stats
/// loaded beside its events, each figure beside the same work without them.
fn related_work(c: &mut Criterion, events: usize) {
    let dataset = callscope::generator::Dataset::new(events, callscope::generator::DEMO_SEED);
    let mut related = Vec::new();
    let mut sessions = Vec::new();
    dataset
        .write_rooms(&mut related)
        .expect("writing to memory");
    dataset
        .write_sessions(&mut sessions)
        .expect("writing to memory");
    related.extend_from_slice(&sessions);
    dataset
        .write_peer_stats(&mut related)
        .expect("writing to memory");
    let objects = callscope::related::read_all(&related).expect("the generated data reads");
    let bare = loaded_model(events);
    let mut with = loaded_model(events);
    update(&mut with, Action::RelatedLoaded { objects, now: 0 });
    let mut group = c.benchmark_group(format!("related/{events}"));
    configure(&mut group, events);
    // A storm join failure: its peer's chain, and the verdict on it.
    let store = &with.events.store;
    let storm = (0..store.len())
        .find(|&i| {
            let row = store.row(i);
            store.str(row.room_id) == STORM_ROOM_ID && store.str(row.kind) == "client.join.failed"
        })
        .expect("the storm is generated");
    group.bench_function("chain of an event (baseline)", |b| {
        b.iter(|| callscope::insight::After::of(black_box(store), storm))
    });
    group.bench_function("verdict of an event's chain", |b| {
        b.iter(|| {
            callscope::tui::panels::detail::verdict_of(
                black_box(store),
                &with.beside,
                storm,
                Zone::Utc,
            )
        })
    });
    // Its times of day in the system's zone, its offset found at each time it names.
    group.bench_function("verdict of an event's chain, in local time", |b| {
        b.iter(|| {
            callscope::tui::panels::detail::verdict_of(
                black_box(store),
                &with.beside,
                storm,
                Zone::System,
            )
        })
    });
    group.bench_function("group by error (baseline)", |b| {
        b.iter(|| Groups::compute(store, &with.events.shown, GroupKey::Error, GroupSort::Count))
    });
    group.bench_function("outcome of every chain", |b| {
        b.iter(|| {
            callscope::insight::outcomes(
                black_box(store),
                &with.beside.data,
                &Default::default(),
                0,
            )
        })
    });
    let mut term = terminal();
    for (name, model) in [("no related data (baseline)", bare), ("related data", with)] {
        let mut model = model;
        group.bench_function(format!("key down + frame, {name}"), |b| {
            b.iter_custom(|iters| {
                timed_change(
                    &mut model,
                    &mut term,
                    iters,
                    &|m| command(m, Command::Top),
                    &|m| command(m, Command::Down),
                )
            })
        });
        group.bench_function(format!("groups view opened + frame, {name}"), |b| {
            b.iter_custom(|iters| {
                timed_change(
                    &mut model,
                    &mut term,
                    iters,
                    &|m| command(m, Command::Cancel),
                    &|m| command(m, Command::ShowGroups),
                )
            })
        });
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    // The allocator set up as every callscope command sets it up, so that each large block a
    // measured piece of work takes costs what it costs there: fresh pages from the system.
    callscope::memory::give_back_large_blocks();
    for events in sizes() {
        loading(c, events);
        let started = Instant::now();
        let mut model = loaded_model(events);
        eprintln!(
            "{events} events generated and loaded in {:.2?}",
            started.elapsed()
        );
        store_work(c, &model);
        explorer(c, &mut model);
        related_work(c, events);
    }
}

criterion_group!(store, benches);
criterion_main!(store);
