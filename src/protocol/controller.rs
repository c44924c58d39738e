//! The controller: takes commands in order, drives the engine, and writes the replies.
//!
//! The handlers live with their command family (`piskvork.rs` for the official protocol,
//! `yixin.rs` for the Yixin-Board extensions, `swap2.rs` for the Swap2 opening); this
//! module holds what they share: the settings from `INFO`, the deferred `INFO` errors,
//! and the think-and-reply path that turns limits into a search and a search into
//! `MESSAGE` lines and a move.

use super::command::Command;
use super::reader::{Received, StopControl};
use crate::engine::{Engine, EngineError};
use crate::output::Output;
use crate::search::{Limits, SearchInfo, SearchResult, score_to_string};
use crate::timeman::{self, TimeControl};
use crate::types::Pos;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Drives the engine from the manager's commands.
pub struct Controller {
    pub(super) engine: Engine,
    pub(super) out: Output,
    stop: Arc<StopControl>,
    pub(super) time: TimeControl,
    pub(super) max_depth: Option<u32>,
    pub(super) max_nodes: Option<u64>,
    /// Problems with `INFO` lines, reported after the next other command arrives (the
    /// manager does not read replies while it sends INFO).
    pub(super) info_errors: Vec<String>,
    /// Depth and node count of the last progress line printed, so the summary does not
    /// repeat it (only its clock-dependent speed and time would differ).
    last_progress: Option<(u32, u64)>,
}

impl Controller {
    pub fn new(out: Output, stop: Arc<StopControl>) -> Controller {
        Controller {
            engine: Engine::new(stop.flag()),
            out,
            stop,
            time: TimeControl::default(),
            max_depth: None,
            max_nodes: None,
            info_errors: Vec::new(),
            last_progress: None,
        }
    }

    /// Sets the search thread count before any command (the `--threads` flag).
    pub fn set_threads(&mut self, threads: usize) {
        if let Err(e) = self.engine.set_threads(threads) {
            self.info_errors.push(e);
        }
    }

    /// Plays every move from the static move order, without searching (`--one-ply`).
    pub fn set_one_ply(&mut self, on: bool) {
        self.engine.set_one_ply(on);
    }

    /// Handles one command.
    pub fn handle(&mut self, received: Received) {
        if !matches!(received.cmd, Command::Info(_)) && !self.info_errors.is_empty() {
            let errors = std::mem::take(&mut self.info_errors);
            self.out.error(&errors.join("; "));
        }
        let Received { at, think_seq, cmd } = received;
        let think = Think { at, seq: think_seq };
        match cmd {
            Command::Start { width, height } => self.start(width, height),
            Command::Restart => self.restart(),
            Command::Begin => self.begin(think),
            Command::Turn((x, y)) => self.turn(x, y, think),
            Command::Board { think: true, cells } => self.board(&cells, think),
            Command::Board {
                think: false,
                cells,
            } => self.yxboard(&cells),
            Command::Swap2Board(moves) => self.swap2board(&moves, think),
            Command::Info(info) => self.info(info),
            Command::About => self.about(),
            Command::Takeback((x, y)) => self.takeback(x, y),
            Command::Play((x, y)) => self.play(x, y),
            Command::ShowForbid => self.show_forbid(),
            Command::HashClear => self.engine.clear_hash(),
            Command::NBest(n) => self.nbest(n, think),
            Command::Bench(depth) => self.bench(depth),
            Command::Invalid(reason) => self.out.error(&reason),
            Command::Unknown(line) => self.out.unknown(&line),
            // The reader acts on these itself and never forwards them.
            Command::End | Command::Stop => {}
        }
    }

    /// Prints `ERROR` for a refused request.
    pub(super) fn refuse(&self, error: EngineError) {
        self.out.error(&error.to_string());
    }

    /// Arms the stop flag for this think command and returns the time it may use: the
    /// budget from the time manager, less what has passed since the command arrived.
    pub(super) fn begin_think(&self, think: Think) -> timeman::Budget {
        self.stop.begin(think.seq);
        let (stones, empty) = match self.engine.board() {
            Some(board) => (
                board.stone_count(),
                board.points().filter(|&p| board.is_empty(p)).count(),
            ),
            None => (0, 0),
        };
        timeman::budget(&self.time, stones, empty, think.at.elapsed())
    }

    /// Searches the current position within `soft`/`hard`, printing its progress as
    /// `MESSAGE` lines if `verbose`. On failure prints `ERROR` and returns `None`.
    pub(super) fn search(
        &mut self,
        soft: Duration,
        hard: Duration,
        nbest: usize,
        verbose: bool,
    ) -> Option<SearchResult> {
        let limits = Limits {
            soft,
            hard,
            max_depth: self.max_depth,
            max_nodes: self.max_nodes,
            nbest,
            threat_solvers: true,
        };
        let out = self.out.clone();
        let last = &mut self.last_progress;
        *last = None;
        let mut report = |info: &SearchInfo| {
            if verbose {
                let line = progress(info.depth, info.score, info.nodes, info.elapsed, &info.pv);
                out.message(&line);
                *last = Some((info.depth, info.nodes));
            }
        };
        match self.engine.go(&limits, &mut report) {
            Ok(result) => Some(result),
            Err(error) => {
                self.refuse(error);
                None
            }
        }
    }

    /// The reply to a think command: search, play the move on our board, print it.
    pub(super) fn think_and_move(&mut self, think: Think) {
        let budget = self.begin_think(think);
        if let Some(result) = self.search(budget.soft, budget.hard, 1, true) {
            self.report_result(&result);
            self.engine.play(result.best);
            self.out.line(&result.best.to_string());
        }
    }

    /// The summary `MESSAGE` line of a finished search, unless the last progress line
    /// already said the same.
    pub(super) fn report_result(&mut self, result: &SearchResult) {
        if self.last_progress.take() != Some((result.depth, result.nodes)) {
            let line = progress(
                result.depth,
                result.score,
                result.nodes,
                result.elapsed,
                &result.pv,
            );
            self.out.message(&line);
        }
    }
}

/// A think command's arrival time and number, for the time budget and the stop flag.
#[derive(Clone, Copy)]
pub(super) struct Think {
    pub at: Instant,
    pub seq: u64,
}

/// One progress line: depth, score, nodes, speed, time and principal variation.
fn progress(depth: u32, score: i32, nodes: u64, elapsed: Duration, pv: &[Pos]) -> String {
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64;
    let mut line = format!(
        "depth {depth} score {} nodes {nodes} nps {nps} time {}ms pv",
        score_to_string(score),
        elapsed.as_millis()
    );
    // A search that found no move may report `Pos::NONE`, which is no point to print.
    for pos in pv.iter().filter(|pos| !pos.is_none()) {
        line.push(' ');
        line.push_str(&pos.to_string());
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_line_has_every_figure() {
        let pv = [Pos::new(7, 7), Pos::new(8, 8)];
        let line = progress(9, 35, 2_000_000, Duration::from_millis(1_000), &pv);
        assert_eq!(
            line,
            format!(
                "depth 9 score {} nodes 2000000 nps 2000000 time 1000ms pv 7,7 8,8",
                score_to_string(35)
            )
        );
    }
}
