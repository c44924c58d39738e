//! The search: iterative deepening with aspiration windows over `worker::Worker`'s
//! principal variation search, VCF and VCT attempts at the root, and n-best root
//! analysis.
//!
//! `Searcher` owns what lives across moves (the transposition table, the thread and memory
//! settings). It never prints: progress goes to a callback, and the caller decides what
//! to show.

pub mod params;
mod worker;

pub use worker::leaf_vcf;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::board::Board;
use crate::memory;
use crate::movegen::{self, Threat};
use crate::threat::vcf::Vcf;
use crate::threat::vct::Vct;
use crate::tt::TranspositionTable;
use crate::types::Pos;
use crate::types::value::*;
use params::*;
use worker::{Worker, WorkerLimits};

/// What one search may spend.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Stop starting new iterations after this.
    pub soft: Duration,
    /// Abort the search at this point.
    pub hard: Duration,
    pub max_depth: Option<u32>,
    pub max_nodes: Option<u64>,
    /// 1 normally; `YXNBEST n` asks for the n best moves.
    pub nbest: usize,
    /// Whether the root VCF and VCT run before the search (always in play; off only to
    /// see what the search finds by itself).
    pub threat_solvers: bool,
}

impl Limits {
    /// A fixed-depth search with no clock, as the bench runs.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            soft: Duration::MAX,
            hard: Duration::MAX,
            max_depth: Some(depth),
            max_nodes: None,
            nbest: 1,
            threat_solvers: true,
        }
    }
}

/// A progress report after each completed iteration.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    pub depth: u32,
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Pos>,
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Pos,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Pos>,
    /// The best moves with their scores, best first (one entry unless n-best was asked).
    pub nbest: Vec<(Pos, i32)>,
}

/// The search state kept across moves.
pub struct Searcher {
    tt: TranspositionTable,
    threads: usize,
    /// Whether the table has been sized for a memory limit yet.
    sized: bool,
    /// Answer from the static move order alone (the one-ply baseline).
    one_ply: bool,
}

impl Default for Searcher {
    fn default() -> Self {
        Self::new()
    }
}

/// Table size of the bench, fixed so that the signature does not depend on memory
/// settings.
pub const BENCH_TT_BYTES: usize = 64 << 20;

impl Searcher {
    /// A searcher with a minimal table: the real one is allocated once the memory limit
    /// is known (`set_memory`), or at the first search with the default limit, so that
    /// the process never holds a table larger than the limit it is about to receive.
    pub fn new() -> Searcher {
        Searcher {
            tt: TranspositionTable::new(memory::MIN_TABLE_BYTES),
            threads: 1,
            sized: false,
            one_ply: false,
        }
    }

    /// Gives the table exactly `bytes` (rounded down to whole buckets), whatever the
    /// memory limit: for the bench and tools, not for games.
    pub fn resize_table(&mut self, bytes: usize) {
        self.tt.resize(bytes);
        self.sized = true;
    }

    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
    }

    pub fn set_one_ply(&mut self, on: bool) {
        self.one_ply = on;
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Sizes the table for a process-wide memory limit (0: the default limit). An error
    /// means the limit is too small to play within; the table then stays as small as
    /// the engine can play with.
    pub fn set_memory(&mut self, bytes: u64) -> Result<(), String> {
        self.sized = true;
        match memory::table_bytes_for_limit(bytes, self.threads) {
            Some(size) => {
                self.tt.resize(size);
                Ok(())
            }
            None => {
                self.tt.resize(memory::MIN_TABLE_BYTES);
                Err(format!(
                    "max_memory {bytes} is too small; playing with a minimal table"
                ))
            }
        }
    }

    /// Forgets everything learned (new game, `YXHASHCLEAR`).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Searches `board` for the side to move.
    pub fn think(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        if self.one_ply {
            return self.fallback(board);
        }
        if !self.sized {
            // No limit was given: the default one. The time it takes is taken from this
            // move's budget, which counts from `start`.
            let _ = self.set_memory(0);
        }
        let nbest = limits.nbest.max(1);
        let mut excluded = Vec::new();
        let mut result = None;
        for i in 0..nbest {
            // Later n-best rounds share what is left of the time.
            let share = |d: Duration| {
                d.checked_sub(start.elapsed())
                    .map_or(Duration::ZERO, |left| left / (nbest - i) as u32)
            };
            let round_limits = Limits {
                soft: share(limits.soft),
                hard: share(limits.hard),
                ..limits.clone()
            };
            let r = self.think_one(board, &round_limits, stop, &excluded, &mut *report);
            if r.best.is_none() || excluded.contains(&r.best) {
                break;
            }
            excluded.push(r.best);
            match &mut result {
                None => result = Some(r),
                Some(first) => {
                    let first: &mut SearchResult = first;
                    first.nodes += r.nodes;
                    first.nbest.push((r.best, r.score));
                }
            }
        }
        let mut result = result.unwrap_or_else(|| self.fallback(board));
        // Each round is its own search, with its own windows and so its own pruning: a
        // later round may score its move above an earlier one's. The list is shown best
        // first, and the move played is the best-scored one.
        result
            .nbest
            .sort_by_key(|&(_, score)| std::cmp::Reverse(score));
        if let Some(&(best, score)) = result.nbest.first()
            && best != result.best
        {
            result.best = best;
            result.score = score;
            result.pv = vec![best];
        }
        result.elapsed = start.elapsed();
        result
    }

    /// A legal move when no search could choose one (no iteration finished in time), and
    /// every move of the one-ply baseline: the first in the search's own static order,
    /// which weighs threats made and stopped (a five made scores above a five blocked).
    fn fallback(&self, board: &Board) -> SearchResult {
        let mut b = board.clone();
        let us = b.side_to_move();
        let mut moves = Vec::new();
        movegen::legal_candidates(&mut b, &mut moves);
        let best = moves
            .iter()
            .copied()
            .max_by_key(|&m| (movegen::order_score(&b, m, us), std::cmp::Reverse(m)))
            .unwrap_or(Pos::NONE);
        SearchResult {
            best,
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: vec![best],
            nbest: vec![(best, 0)],
        }
    }

    fn think_one(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        excluded: &[Pos],
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        self.tt.new_search();
        let mut b = board.clone();
        let done = |best: Pos, score: i32, depth: u32, nodes: u64, pv: Vec<Pos>| SearchResult {
            best,
            score,
            depth,
            nodes,
            elapsed: start.elapsed(),
            pv,
            nbest: vec![(best, score)],
        };

        // Decided positions need no search.
        let mut solver_nodes = 0;
        let mut forced = false;
        if excluded.is_empty() && limits.threat_solvers {
            match movegen::threat(&mut b) {
                Threat::Win(mv) => return done(mv, win_in(1), 1, 1, vec![mv]),
                // Two fives wait (or one the side to move may not block): no search can
                // save it, and the fallback's best-valued point blocks one of them.
                Threat::Lost => {
                    let mv = self.fallback(board).best;
                    return done(mv, loss_in(2), 1, 1, vec![mv]);
                }
                Threat::BlockFive(mv) => {
                    let mut moves = Vec::new();
                    movegen::legal_candidates(&mut b, &mut moves);
                    if moves.len() == 1 {
                        return done(mv, 0, 1, 1, vec![mv]);
                    }
                    forced = true;
                }
                _ => {}
            }
            let mut vcf = Vcf::new(ROOT_VCF_NODES);
            vcf.budget.deadline = start.checked_add(limits.hard / ROOT_VCF_TIME_SHARE);
            let mut found = vcf.solve(&mut b, ROOT_VCF_FOURS);
            let mut nodes = vcf.budget.nodes;
            if found.is_none() {
                let mut vct = Vct::new(ROOT_VCT_NODES.min(limits.max_nodes.unwrap_or(u64::MAX)));
                vct.budget.deadline = start.checked_add(limits.hard / ROOT_VCT_TIME_SHARE);
                found = vct.solve(&mut b, ROOT_VCT_THREATS);
                nodes += vct.budget.nodes;
            }
            if let Some((mv, plies)) = found {
                let score = win_in(plies as i32);
                report(&SearchInfo {
                    depth: plies,
                    score,
                    nodes,
                    elapsed: start.elapsed(),
                    pv: vec![mv],
                });
                return done(mv, score, plies, nodes, vec![mv]);
            }
            solver_nodes = nodes;
        }

        let forced_limits;
        let limits = if forced {
            forced_limits = forced_budget(limits);
            &forced_limits
        } else {
            limits
        };
        let deadline = start.checked_add(limits.hard);
        let max_depth = limits
            .max_depth
            .map_or(MAX_DEPTH, |d| (d as i32).clamp(1, MAX_DEPTH));
        let finished = AtomicBool::new(false);
        let shared_nodes = AtomicU64::new(0);
        let worker_limits = || WorkerLimits {
            stop,
            finished: &finished,
            deadline,
            max_nodes: limits.max_nodes,
            shared_nodes: &shared_nodes,
        };
        let tt = &self.tt;
        let (main, helpers) = std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..self.threads)
                .map(|id| {
                    let mut worker = Worker::new(b.clone(), tt, worker_limits());
                    worker.excluded = excluded.to_vec();
                    scope.spawn(move || helper_iterate(&mut worker, id, max_depth))
                })
                .collect();
            let mut worker = Worker::new(b.clone(), tt, worker_limits());
            worker.excluded = excluded.to_vec();
            let main = main_iterate(
                &mut worker,
                limits,
                max_depth,
                start,
                solver_nodes,
                &mut *report,
            );
            finished.store(true, Ordering::Relaxed);
            let helpers: Vec<Outcome> = helpers.into_iter().filter_map(|h| h.join().ok()).collect();
            (main, helpers)
        });
        let nodes = solver_nodes + main.nodes + helpers.iter().map(|h| h.nodes).sum::<u64>();
        let chosen = vote(&main, &helpers);
        if chosen.best.is_none() {
            return SearchResult {
                nodes,
                ..self.fallback(board)
            };
        }
        let pv = if chosen.best == main.best {
            main.pv.clone()
        } else {
            chosen.pv.clone()
        };
        done(chosen.best, chosen.score, chosen.depth, nodes, pv)
    }

    /// Runs a fixed-depth search from a cleared table, as the bench does.
    pub fn bench_search(&mut self, board: &Board, depth: u32) -> SearchResult {
        self.resize_table(BENCH_TT_BYTES);
        self.clear();
        let stop = AtomicBool::new(false);
        self.think(board, &Limits::depth(depth), &stop, &mut |_| {})
    }
}

/// What one thread's iterative deepening ended with.
#[derive(Clone, Debug, Default)]
struct Outcome {
    best: Pos,
    score: i32,
    /// Depth of the last completed iteration.
    depth: u32,
    nodes: u64,
    pv: Vec<Pos>,
}

/// The main thread: iterative deepening under the time manager, reporting each
/// completed iteration. The reports count `solver_nodes`, the root solvers' before the
/// search, and every thread's, as the final result does.
fn main_iterate(
    worker: &mut Worker,
    limits: &Limits,
    max_depth: i32,
    start: Instant,
    solver_nodes: u64,
    report: &mut dyn FnMut(&SearchInfo),
) -> Outcome {
    let mut out = Outcome::default();
    let mut stable = 0;
    for depth in 1..=max_depth {
        // The first iteration runs to its end unless the hard limit itself is reached:
        // a move from a finished search beats the static fallback.
        worker.may_abort = depth > 1 || limits.hard < Duration::MAX;
        let iteration_start = start.elapsed();
        let previous_score = out.score;
        worker.root_depth = depth;
        let score = aspiration(worker, depth, out.score);
        if worker.aborted {
            // A root move that beat the window in full in the unfinished iteration has
            // seen deeper than the last completed one: it is played, with the score of
            // the last complete iteration.
            let line = worker.pv();
            if depth > 1
                && let Some(&mv) = line.first()
            {
                out.best = mv;
                out.pv = line;
            }
            break;
        }
        let line = worker.pv();
        if let Some(&mv) = line.first() {
            stable = if mv == out.best { stable + 1 } else { 0 };
            out.best = mv;
            out.score = score;
            out.depth = depth as u32;
            out.pv = line;
        }
        report(&SearchInfo {
            depth: depth as u32,
            score: out.score,
            nodes: solver_nodes + worker.all_nodes(),
            elapsed: start.elapsed(),
            pv: out.pv.clone(),
        });
        let decided = is_decisive(out.score) && depth >= 2;
        let falling = depth > 1 && out.score < previous_score - TIME_FALLING_SCORE;
        // The next iteration takes a few times as long as this one: if it cannot
        // finish before the hard limit, its time is better saved, when the budget's soft
        // limit is below its hard one (a match clock with time to bank). Where the two
        // are equal (a turn limit alone, or a match share at its cap) the move may use
        // all of it, and an unfinished iteration may still find a better root move.
        let elapsed = start.elapsed();
        let next_iteration = (elapsed - iteration_start).saturating_mul(NEXT_ITERATION_FACTOR);
        let saves_time = limits.soft < limits.hard;
        if decided
            || elapsed >= time_target(limits, stable, falling)
            || (saves_time && elapsed.saturating_add(next_iteration) > limits.hard)
            || limits.max_nodes.is_some_and(|m| worker.nodes >= m)
        {
            break;
        }
    }
    out.nodes = worker.nodes;
    out
}

/// A helper thread of Lazy SMP: the same search on its own board and history, sharing
/// the table, until the main thread finishes. Helpers skip some depths (by their id)
/// so that the threads spread over different iterations and fill the table with
/// different lines instead of repeating the main thread's work.
fn helper_iterate(worker: &mut Worker, id: usize, max_depth: i32) -> Outcome {
    let mut out = Outcome::default();
    let (size, phase) = HELPER_SKIP[(id - 1) % HELPER_SKIP.len()];
    worker.may_abort = true;
    for depth in 1..=max_depth {
        if depth > 1 && ((depth + phase) / size) % 2 != 0 {
            continue;
        }
        worker.root_depth = depth;
        let score = aspiration(worker, depth, out.score);
        if worker.aborted {
            break;
        }
        if let Some(&mv) = worker.pv().first() {
            out.best = mv;
            out.score = score;
            out.depth = depth as u32;
            out.pv = worker.pv();
        }
        if is_decisive(score) {
            break;
        }
    }
    out.nodes = worker.nodes;
    out
}

/// The move of a Lazy SMP search: a proven win wins (the fastest), then the deepest
/// completed iteration, the main thread breaking ties.
fn vote<'a>(main: &'a Outcome, helpers: &'a [Outcome]) -> &'a Outcome {
    let candidates = std::iter::once(main)
        .chain(helpers)
        .filter(|o| !o.best.is_none());
    let fastest_win = candidates
        .clone()
        .filter(|o| o.score >= WIN_THRESHOLD)
        .max_by_key(|o| o.score);
    if let Some(win) = fastest_win {
        return win;
    }
    candidates.fold(
        main,
        |chosen, o| if o.depth > chosen.depth { o } else { chosen },
    )
}

/// When to stop starting iterations: early once the best move has held for a few
/// iterations, later (towards the hard limit) while the score is falling. Where the soft
/// limit is the hard one (a turn limit alone), time a move does not use is lost, so a
/// stable move does not stop the search: only the hard limit or a decided result do.
fn time_target(limits: &Limits, stable: u32, falling: bool) -> Duration {
    let scaled = |percent: u32| limits.soft.saturating_mul(percent) / 100;
    if falling {
        scaled(TIME_FALLING_PERCENT).min(limits.hard)
    } else if stable >= TIME_STABLE_ITERATIONS && limits.soft < limits.hard {
        scaled(TIME_STABLE_PERCENT)
    } else {
        limits.soft
    }
}

/// The budget of a search whose move is forced (a five to block, with other points to
/// play): the block is played whatever the search finds, which only scores it. Under a
/// match clock (soft limit below the hard one) the time is banked for the moves that
/// need it: a short search at a tenth of the soft limit. With a turn limit alone, time a
/// move does not use is lost, so the budget is unchanged and the search fills the table
/// for the next move.
fn forced_budget(limits: &Limits) -> Limits {
    let mut forced = limits.clone();
    if limits.soft < limits.hard {
        forced.soft = limits.soft / FORCED_SOFT_DIVISOR;
        // Three tenths of the soft limit, which is itself below the hard one.
        forced.hard = forced.soft.saturating_mul(HARD_OVER_FORCED_SOFT);
    }
    forced
}

/// One iteration with a window around the previous score, widened on failure.
fn aspiration(worker: &mut Worker, depth: i32, previous: i32) -> i32 {
    if depth < ASPIRATION_MIN_DEPTH || is_decisive(previous) {
        return worker.search(-INFINITE, INFINITE, depth, 0, true, false);
    }
    let mut delta = ASPIRATION_DELTA;
    let (mut alpha, mut beta) = (previous - delta, previous + delta);
    loop {
        let v = worker.search(alpha, beta, depth, 0, true, false);
        if worker.aborted {
            return v;
        }
        if v <= alpha {
            alpha = (v - delta).max(-INFINITE);
        } else if v >= beta {
            beta = (v + delta).min(INFINITE);
        } else {
            return v;
        }
        delta *= 2;
        if delta > 1000 {
            alpha = -INFINITE;
            beta = INFINITE;
        }
    }
}

/// A score as people read it: `+35`, `win in 4` (own moves), `loss in 3`.
pub fn score_to_string(score: i32) -> String {
    if score >= WIN_THRESHOLD {
        format!("win in {}", (WIN - score + 1) / 2)
    } else if score <= -WIN_THRESHOLD {
        format!("loss in {}", (WIN + score) / 2)
    } else {
        format!("{score:+}")
    }
}

#[cfg(test)]
mod tests;
