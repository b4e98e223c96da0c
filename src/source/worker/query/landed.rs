//! What the query does with an answer: a page merged in or handed on, the census that can retire
//! the untyped cursor, a failure said once and the cursor stopped, the types discovered on a page.

use super::{CursorState, QueryState, Slot, paging_stops};
use crate::event::EventType;
use crate::source::api::{FetchError, Fetched};
use crate::source::merge::Order;
use crate::source::worker::{Ctx, Report};

impl QueryState {
    /// Notes the types outside the five on a page; once fanned out, each gets a cursor.
    pub(super) fn discover(&mut self, fetched: &Fetched) {
        for kind in fetched.entries.iter().filter_map(|e| e.kind.as_deref()) {
            if !EventType::from_name(kind).is_known() && !self.others.contains(kind) {
                self.others.insert(kind.to_string());
                if self.fanned {
                    self.add_typed(EventType::Other(kind.to_string()));
                }
            }
        }
    }

    pub(in crate::source::worker) fn landed(
        &mut self,
        slot: Slot,
        result: Result<Fetched, FetchError>,
        ctx: &Ctx,
    ) {
        match slot {
            Slot::Census(generation) => self.census_landed(generation, result),
            Slot::Cursor(k) => self.cursor_landed(k, result, ctx),
        }
        if self.fanned && !self.single_only && self.merge.order() == Order::Unordered {
            self.fold_back();
        }
    }

    pub(super) fn census_landed(&mut self, generation: u64, result: Result<Fetched, FetchError>) {
        self.census_busy = false;
        let fetched = match result {
            Ok(f) => f,
            Err(e) => {
                // The untyped cursor carries on to the end: slower, never incomplete.
                tracing::warn!(error = %e.describe(), "the census failed; the untyped cursor carries on");
                return;
            }
        };
        self.discover(&fetched);
        if generation == self.generation {
            self.census_total = fetched.total.or(self.census_total);
        }
        let covered = generation == self.generation
            && fetched.total.is_some()
            && fetched.total == self.typed_total();
        if covered && self.census_may_help() {
            tracing::info!(
                total = fetched.total,
                "the typed cursors cover the query; the untyped cursor stops"
            );
            if let CursorState::Failed { reason, .. } = &self.cursors[0].state {
                self.overtaken
                    .push(format!("{}: {reason}", self.cursors[0].label()));
            }
            self.cursors[0].state = CursorState::Retired;
            if !self.cursors[0].busy {
                self.merge.close(0);
            }
        }
    }

    pub(super) fn cursor_landed(
        &mut self,
        k: usize,
        result: Result<Fetched, FetchError>,
        ctx: &Ctx,
    ) {
        self.cursors[k].busy = false;
        *self.cursors[k]
            .retrying
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = None;
        let mut fetched = match result {
            Ok(f) => f,
            Err(e) if self.cursors[k].state == CursorState::Retired => {
                // Retired by the census while this request was on its way: the typed cursors
                // cover the query, and nothing this cursor would have brought is missing.
                tracing::info!(error = %e.describe(), "a request of the retired untyped cursor failed; the typed cursors cover the query");
                let message = format!("{}: {}", self.cursors[k].label(), e.describe());
                self.overtaken.push(message);
                self.merge.close(k);
                return;
            }
            Err(e) if self.cursors[k].may_restart(&e) => {
                self.restart(k, &e, ctx);
                return;
            }
            Err(e) => {
                if self.fanned {
                    self.cursors[k].state = CursorState::Failed {
                        reason: e.describe(),
                        retry: true,
                    };
                    self.merge.close(k);
                } else {
                    self.load_all = false;
                    self.asked = false;
                    self.report_tally(Vec::new(), ctx);
                    ctx.report(Report::Failed {
                        query: self.id,
                        message: e.describe(),
                    });
                }
                return;
            }
        };
        self.pages += 1;
        self.discover(&fetched);
        let asked = ctx.api.page_size();
        let cursor = &mut self.cursors[k];
        cursor.read_page();
        cursor.total = fetched.total.or(cursor.total);
        let next = fetched.next.clone();
        cursor.given.clone_from(&next);
        let repeated = !next.is_empty() && !cursor.used.insert(next.clone());
        let events = fetched.entries.len() as u64;
        cursor.received += events;
        let sparse = events * 10 < u64::from(asked);
        cursor.sparse_run = if sparse { cursor.sparse_run + 1 } else { 0 };
        let stopped = paging_stops(cursor, &next, repeated, asked);
        let stops = stopped.is_some();
        cursor.next = Some(if stops { String::new() } else { next });
        let ended = cursor.next.as_deref() == Some("");
        if let Some(why) = &stopped {
            tracing::warn!(reason = %why, "paging stopped");
            cursor.state = CursorState::Failed {
                reason: why.clone(),
                retry: false,
            };
        } else if ended {
            cursor.state = CursorState::Ended;
        }
        if self.fanned {
            let retired = cursor.state == CursorState::Retired;
            let Fetched { blob, entries, .. } = fetched;
            self.merge.push(k, &blob, entries);
            if stops || ended || retired {
                self.merge.close(k);
            }
            return;
        }
        // One cursor: the page is reported as it came, less what was read before the query was
        // asked again.
        self.merge.observe(k, &fetched.entries);
        cursor.drop_owed(&mut fetched.entries);
        self.merge.passed(&fetched.entries);
        self.asked = false;
        ctx.report(Report::Page {
            query: self.id,
            page: fetched.into_page(),
        });
        self.report_tally(Vec::new(), ctx);
        if let Some(message) = stopped {
            self.load_all = false;
            ctx.report(Report::Failed {
                query: self.id,
                message,
            });
        } else if ended {
            self.load_all = false;
            self.finished = true;
            ctx.report(Report::Finished { query: self.id });
        } else {
            self.maybe_fan_out(ctx);
        }
    }
}
