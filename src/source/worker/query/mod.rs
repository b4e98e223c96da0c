//! One query of the fetch task: its cursors (the query's own, and one per type once "load
//! everything" fans out), the requests on their way, the census that can retire the untyped
//! cursor, and the merge of what arrives. No I/O of its own: requests are futures that the task
//! polls, and reports go out through the task's channel. What it does with each answer is in
//! `landed`; each cursor, and when it stops or starts again, in `cursor`.

mod cursor;
mod landed;

use std::collections::{BTreeSet, HashMap};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;

use super::{
    Command, Ctx, Fanout, InFlight, MAX_TYPED_CURSORS, Report, Tally, TypeTally, fetch_with_retries,
};
use crate::event::EventType;
use crate::filter::Filter;
use crate::source::api::{FetchError, Fetched, Page};
use crate::source::merge::{Merge, Order};

use cursor::{Cursor, CursorState, paging_stops};

/// What a request is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Slot {
    Cursor(usize),
    /// A fresh first page of the query, for its total, asked at this generation of the typed
    /// cursors.
    Census(u64),
}

type Flight = Pin<Box<dyn Future<Output = Result<Fetched, FetchError>> + Send>>;

pub(super) struct QueryState {
    id: u64,
    filter: Filter,
    /// `cursors[0]` is the query's own; the typed ones follow. Cursor `k` is lane `k` of `merge`.
    cursors: Vec<Cursor>,
    /// Whether the typed cursors were started (from then on every page goes through `merge`).
    fanned: bool,
    /// The pages showed that the service does not order by time: merging by time cannot give its
    /// order, so the query's own cursor loads it alone.
    single_only: bool,
    load_all: bool,
    /// A page was asked for and nothing has been reported since.
    asked: bool,
    merge: Merge,
    /// Types outside the five seen on the query's pages.
    others: BTreeSet<String>,
    /// Bumped whenever a typed cursor is added: a census counts only for the cursors it saw.
    generation: u64,
    census_busy: bool,
    census_for: Option<u64>,
    /// The query's total as the last census said it that counted for the typed cursors of its
    /// time (taken after their totals).
    census_total: Option<u64>,
    /// Pages that arrived, every cursor's.
    pages: usize,
    /// Every request on its way, with when it was asked for; dropping one cancels it.
    flights: Vec<(Slot, Instant, Flight)>,
    /// The requests on their way as last reported, with when each was sent: a cursor's next
    /// page is a new request in the same slot.
    reported: Vec<(Slot, Instant)>,
    /// The query is loaded in full.
    finished: bool,
    /// Failures of cursors that the others' pages made unneeded before the query ended (the
    /// untyped cursor retired by the census after it failed, or failing once retired): said
    /// with the others as the query ends, for they happened.
    overtaken: Vec<String>,
}

impl QueryState {
    pub(super) fn new(id: u64, filter: Filter) -> QueryState {
        let mut merge = Merge::new();
        merge.add_lane();
        QueryState {
            id,
            cursors: vec![Cursor::new(None, filter.clone())],
            filter,
            fanned: false,
            single_only: false,
            load_all: false,
            asked: true,
            merge,
            others: BTreeSet::new(),
            generation: 0,
            census_busy: false,
            census_for: None,
            census_total: None,
            pages: 0,
            flights: Vec::new(),
            reported: Vec::new(),
            finished: false,
            overtaken: Vec::new(),
        }
    }

    pub(super) fn id(&self) -> u64 {
        self.id
    }

    /// The first request on its way to complete, removed from those on their way.
    pub(super) fn poll_landed(
        &mut self,
        cx: &mut Context<'_>,
    ) -> Poll<(Slot, Result<Fetched, FetchError>)> {
        for k in 0..self.flights.len() {
            if let Poll::Ready(result) = self.flights[k].2.as_mut().poll(cx) {
                let (slot, _, _) = self.flights.swap_remove(k);
                return Poll::Ready((slot, result));
            }
        }
        Poll::Pending
    }

    pub(super) fn command(&mut self, command: Command, ctx: &Ctx) {
        match command {
            Command::Query { .. } => {}
            Command::NextPage { .. } => self.asked = true,
            Command::LoadAll { .. } => {
                if self.finished {
                    return;
                }
                self.load_all = true;
                // Asking again retries the cursors that failed, and may ask a query whose
                // cursor is refused again from its first page, once more.
                for k in 0..self.cursors.len() {
                    self.cursors[k].restarted = None;
                    if self.fanned
                        && let CursorState::Failed { retry: true, .. } = self.cursors[k].state
                    {
                        self.cursors[k].state = CursorState::Open;
                        self.merge.reopen(k);
                    }
                }
                self.maybe_fan_out(ctx);
            }
            Command::Stop { .. } => {
                self.load_all = false;
                // Several cursors: keep going until the requests on their way yield a report,
                // as the one request of a single cursor does.
                if self.fanned {
                    self.asked = !self.flights.is_empty();
                }
            }
        }
    }

    /// Starts the typed cursors when everything of a query without a type is to be loaded, and
    /// its first page has shown that more pages follow and nothing against merging by time.
    fn maybe_fan_out(&mut self, ctx: &Ctx) {
        let main = &self.cursors[0];
        if ctx.fanout != Fanout::PerType
            || self.fanned
            || self.single_only
            || self.merge.order() == Order::Unordered
            || !self.load_all
            || !self.filter.types.is_empty()
            || main.state != CursorState::Open
            || main.next.is_none()
        {
            return;
        }
        self.fanned = true;
        // From here on the merge hands on no event twice.
        self.cursors[0].owed = HashMap::new();
        for t in EventType::KNOWN {
            self.add_typed(t);
        }
        for name in self.others.clone() {
            self.add_typed(EventType::Other(name));
        }
        tracing::info!(
            cursors = self.cursors.len(),
            "loading everything with one cursor per type"
        );
    }

    fn add_typed(&mut self, kind: EventType) {
        let typed = self.cursors.len() - 1;
        if self.single_only
            || typed >= MAX_TYPED_CURSORS
            || self.cursors.iter().any(|c| c.kind.as_ref() == Some(&kind))
        {
            return;
        }
        let filter = Filter {
            types: vec![kind.clone()],
            ..self.filter.clone()
        };
        self.cursors.push(Cursor::new(Some(kind), filter));
        self.merge.add_lane();
        self.generation += 1;
    }

    /// Goes back to the query's own cursor alone, from where it is: the typed cursors' requests
    /// are cancelled and what they sent is dropped (the untyped cursor brings it again, in the
    /// service's order).
    fn fold_back(&mut self) {
        tracing::info!("the service does not order events by time; one cursor loads the query");
        self.single_only = true;
        self.flights.retain(|(slot, _, _)| *slot == Slot::Cursor(0));
        self.census_busy = false;
        for k in 1..self.cursors.len() {
            self.cursors[k].busy = false;
            self.cursors[k].state = CursorState::Dropped;
            self.merge.discard(k);
        }
        let main = &mut self.cursors[0];
        if main.state == CursorState::Retired {
            main.state = CursorState::Open;
            self.merge.reopen(0);
        }
    }

    /// Asks cursor `k`'s query again from its first page, the service having refused its cursor
    /// with `error`, and says so.
    fn restart(&mut self, k: usize, error: &FetchError, ctx: &Ctx) {
        let cursor = &mut self.cursors[k];
        let message = format!(
            "the service refused the cursor of {} with {}; asked again from its first page",
            cursor.part(),
            error.describe()
        );
        tracing::warn!(%message, pages = cursor.run, "cursor refused");
        cursor.restart();
        if !self.fanned {
            // Handed on as they came: the store would count the new run's copies as the
            // service's own repeats.
            cursor.owed = self.merge.copies();
        }
        self.merge.restart(k);
        ctx.report(Report::Restarted {
            query: self.id,
            message,
        });
    }

    /// The sum of the typed cursors' totals, once each has reported one.
    fn typed_total(&self) -> Option<u64> {
        let typed = &self.cursors[1..];
        if typed.is_empty() {
            return None;
        }
        typed.iter().map(|c| c.total).sum()
    }

    /// Whether a census could retire the untyped cursor: it still has pages to load (or failed
    /// to), and every typed cursor has a total.
    fn census_may_help(&self) -> bool {
        let main = &self.cursors[0];
        let unfinished = main.state == CursorState::Open
            || matches!(main.state, CursorState::Failed { retry: true, .. });
        self.fanned && !self.single_only && unfinished && self.typed_total().is_some()
    }

    /// Starts every request that should be on its way: with "load everything", one per open
    /// cursor that has none; when a page was asked for, one per cursor the merge waits on.
    pub(super) fn pump(&mut self, ctx: &Ctx) {
        if self.finished {
            return;
        }
        for k in 0..self.cursors.len() {
            if self.cursors[k].may_ask()
                && (self.load_all || (self.asked && self.merge.waits_on(k)))
            {
                self.ask(k, ctx);
            }
        }
        if (self.load_all || self.asked)
            && !self.census_busy
            && self.census_for != Some(self.generation)
            && self.census_may_help()
        {
            self.census_busy = true;
            self.census_for = Some(self.generation);
            let (api, tokens, pause, filter) = (
                ctx.census_api.clone(),
                Arc::clone(&ctx.tokens),
                Arc::clone(&ctx.pause),
                self.filter.clone(),
            );
            let (reports, id) = (ctx.reports.clone(), self.id);
            let flight: Flight = Box::pin(async move {
                fetch_with_retries(&api, &tokens, &pause, &filter, None, |retry| {
                    let _ = reports.send(Report::Retrying { query: id, retry });
                })
                .await
            });
            self.flights
                .push((Slot::Census(self.generation), Instant::now(), flight));
        }
    }

    fn ask(&mut self, k: usize, ctx: &Ctx) {
        let cursor = &mut self.cursors[k];
        cursor.busy = true;
        let start = cursor.next.clone().filter(|n| !n.is_empty());
        ctx.report(Report::Fetching {
            query: self.id,
            page: self.pages + 1,
        });
        let (api, tokens, pause, filter) = (
            ctx.api.clone(),
            Arc::clone(&ctx.tokens),
            Arc::clone(&ctx.pause),
            cursor.filter.clone(),
        );
        let (reports, id) = (ctx.reports.clone(), self.id);
        let retrying = Arc::clone(&cursor.retrying);
        let flight: Flight = Box::pin(async move {
            fetch_with_retries(&api, &tokens, &pause, &filter, start.as_deref(), |retry| {
                *retrying.lock().unwrap_or_else(|e| e.into_inner()) = Some(retry.reason.clone());
                let _ = reports.send(Report::Retrying { query: id, retry });
            })
            .await
        });
        self.flights.push((Slot::Cursor(k), Instant::now(), flight));
    }

    /// With several cursors: reports what the merge can hand on, and the end of the query.
    pub(super) fn settle(&mut self, ctx: &Ctx) {
        if !self.fanned || self.finished {
            return;
        }
        let main = &self.cursors[0].state;
        let typed_ended = self.cursors[1..]
            .iter()
            .all(|c| c.state == CursorState::Ended);
        // The untyped cursor at its end has covered the query alone; once retired, the typed
        // cursors cover it together.
        if *main == CursorState::Ended || (*main == CursorState::Retired && typed_ended) {
            self.finish(ctx);
            return;
        }
        let open = self
            .cursors
            .iter()
            .any(|c| c.state == CursorState::Open || c.busy);
        if !open && self.flights.is_empty() {
            // Nothing more can come: some cursor failed. What arrived is handed on.
            self.merge.close_all();
            self.report_ready(ctx);
            let failures: Vec<(Option<&str>, String)> = self
                .cursors
                .iter()
                .filter_map(|c| match &c.state {
                    CursorState::Failed { reason, .. } => {
                        Some((c.kind.as_ref().map(EventType::name), reason.clone()))
                    }
                    _ => None,
                })
                .collect();
            // With one cursor per type, each reason said once with the parts it stopped; with
            // the query's own cursor alone, its reason.
            let failures = match self.fanned {
                true => crate::source::worker::failures_once(&failures),
                false => {
                    let reasons: Vec<String> = failures.into_iter().map(|(_, r)| r).collect();
                    reasons.join("; ")
                }
            };
            if self.all_arrived() {
                // The failures cost nothing: every event of the query is here.
                tracing::info!(
                    failures = failures,
                    "every event of the query arrived; the failed requests were not needed"
                );
                self.finish(ctx);
                return;
            }
            self.load_all = false;
            self.asked = false;
            self.report_tally(Vec::new(), ctx);
            ctx.report(Report::Failed {
                query: self.id,
                message: failures,
            });
            return;
        }
        if self.report_ready(ctx) && !self.flights.is_empty() {
            ctx.report(Report::Fetching {
                query: self.id,
                page: self.pages + 1,
            });
        }
    }

    /// Ends the query as loaded in full: what the merge holds is handed on, with how far each
    /// part got and the failures that did not matter (see [`QueryState::redundant`]).
    fn finish(&mut self, ctx: &Ctx) {
        let redundant = self.redundant();
        self.flights.clear();
        self.census_busy = false;
        for c in &mut self.cursors {
            c.busy = false;
        }
        self.merge.close_all();
        let ready = self.merge.take_ready();
        ctx.report(Report::Page {
            query: self.id,
            page: Page {
                batch: Box::new(ready.into_batch()),
                next: String::new(),
                total: self.total(),
            },
        });
        self.report_tally(redundant, ctx);
        ctx.report(Report::Finished { query: self.id });
        self.finished = true;
        self.load_all = false;
        self.asked = false;
    }

    /// The failures of a query loaded in full, each once, as it ends: those overtaken before,
    /// each cursor's that failed for good, and each request still being retried, which is
    /// dropped as no longer needed.
    fn redundant(&self) -> Vec<String> {
        let mut failures = self.overtaken.clone();
        for cursor in &self.cursors {
            if let CursorState::Failed { reason, .. } = &cursor.state {
                failures.push(match self.fanned {
                    true => format!("{}: {reason}", cursor.label()),
                    false => reason.clone(),
                });
            }
            let retrying = cursor.retrying.lock().unwrap_or_else(|e| e.into_inner());
            if cursor.busy
                && let Some(reason) = retrying.as_ref()
            {
                failures.push(format!(
                    "{}: {reason} (it was being retried, and was dropped)",
                    cursor.label()
                ));
            }
        }
        let mut seen = std::collections::HashSet::new();
        failures.retain(|f| seen.insert(f.clone()));
        failures
    }

    /// Whether every event of the query arrived though some cursor stopped: each typed
    /// cursor's type has all its events (its cursor reached its end, or the others brought as
    /// many as its total), and the typed totals add up to the query's own total, so that no
    /// event of another type exists. The query's total is the census's when one was taken
    /// after the typed totals; else its own first pages', taken before them, where an event of
    /// another type could hide only behind as many new events of the typed ones arriving in
    /// the moment between.
    fn all_arrived(&self) -> bool {
        if !self.fanned || self.single_only {
            return false;
        }
        let query = self.census_total.or(self.cursors[0].total);
        query.is_some()
            && query == self.typed_total()
            && self.cursors[1..].iter().all(|c| self.whole(c))
    }

    /// Whether every event of a typed cursor's type arrived.
    fn whole(&self, cursor: &Cursor) -> bool {
        let arrived = cursor
            .kind
            .as_ref()
            .map_or(0, |k| self.merge.handed_of(k.name()));
        cursor.state == CursorState::Ended || cursor.total.is_some_and(|t| arrived >= t)
    }

    /// Reports how far the query's load got (see [`Tally`]): after each page reported, and as
    /// the query ends.
    pub(super) fn report_tally(&self, redundant: Vec<String>, ctx: &Ctx) {
        let main = &self.cursors[0];
        // The query's own cursor, whichever cursor's page was reported last: another's is no
        // cursor of the rest of the query.
        let next = match main.state {
            CursorState::Ended => String::new(),
            _ => main.given.clone(),
        };
        let newest_first = match self.merge.order() {
            Order::NewestFirst => Some(true),
            Order::OldestFirst => Some(false),
            Order::Unknown | Order::Unordered => None,
        };
        let types = if self.fanned && !self.single_only {
            self.cursors[1..]
                .iter()
                .filter_map(|c| {
                    let kind = c.kind.as_ref()?.name().to_string();
                    Some(TypeTally {
                        arrived: self.merge.handed_of(&kind),
                        kind,
                        total: c.total,
                        whole: self.whole(c),
                    })
                })
                .collect()
        } else {
            Vec::new()
        };
        let tally = Tally {
            total: self.census_total.or(main.total),
            next,
            newest_first,
            types,
            redundant,
        };
        ctx.report(Report::Tally {
            query: self.id,
            tally: Box::new(tally),
        });
    }

    /// Reports the events the merge can hand on, if any, and how far the load got.
    fn report_ready(&mut self, ctx: &Ctx) -> bool {
        let ready = self.merge.take_ready();
        if ready.is_empty() {
            return false;
        }
        self.asked = false;
        // Says only that more pages may follow: the cursor of the rest is the tally's.
        let next = self
            .cursors
            .iter()
            .filter_map(|c| c.next.as_deref())
            .find(|n| !n.is_empty())
            .unwrap_or("more")
            .to_string();
        ctx.report(Report::Page {
            query: self.id,
            page: Page {
                batch: Box::new(ready.into_batch()),
                next,
                total: self.total(),
            },
        });
        self.report_tally(Vec::new(), ctx);
        true
    }

    /// Reports the requests on their way, when they changed since the last report: what the
    /// header says a stalled load waits for.
    pub(super) fn report_in_flight(&mut self, ctx: &Ctx) {
        let slots: Vec<(Slot, Instant)> = self
            .flights
            .iter()
            .map(|(slot, since, _)| (*slot, *since))
            .collect();
        if slots == self.reported {
            return;
        }
        self.reported = slots;
        let requests = self
            .flights
            .iter()
            .map(|(slot, since, _)| InFlight {
                part: self.part(*slot),
                since: *since,
            })
            .collect();
        ctx.report(Report::InFlight {
            query: self.id,
            requests,
        });
    }

    /// The part of the query a request loads, in words.
    fn part(&self, slot: Slot) -> String {
        match slot {
            Slot::Census(_) => "a count of the query's events".into(),
            Slot::Cursor(0) if self.filter.types.is_empty() => {
                "the error events (error=true)".into()
            }
            Slot::Cursor(0) => {
                let names: Vec<&str> = self.filter.types.iter().map(|t| t.name()).collect();
                format!("the {} events", names.join(", "))
            }
            Slot::Cursor(k) => match &self.cursors[k].kind {
                Some(t) => format!("the {} events", t.name()),
                None => "the query".into(),
            },
        }
    }

    /// The query's total, as its own cursor last reported it.
    fn total(&self) -> Option<u64> {
        self.cursors[0].total
    }
}
