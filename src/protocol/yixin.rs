//! Handlers for the Yixin-Board extensions (`YXBOARD`, `YXSHOWFORBID`, `YXNBEST`) and
//! Rapfi's `BENCH`. (`YXSTOP` is the reader's; `YXHASHCLEAR` is a single engine call in
//! the dispatch.)

use super::controller::{Controller, Think};
use crate::bench;
use crate::engine::{EngineError, Field};
use crate::search::score_to_string;

impl Controller {
    /// `YXBOARD … DONE`: set the position and wait. Any stone counts are accepted, as a
    /// GUI may set up a position for analysis.
    pub(super) fn yxboard(&mut self, cells: &[((i32, i32), Field)]) {
        if let Err(error) = self.engine.set_position(cells, false) {
            self.refuse(error);
        }
    }

    /// `YXSHOWFORBID`: `FORBID ` then black's forbidden points as `xxyy` groups, then `.`.
    pub(super) fn show_forbid(&self) {
        let Some(board) = self.engine.board() else {
            return self.refuse(EngineError::NoGame);
        };
        let mut line = String::from("FORBID ");
        for pos in board.forbidden_points() {
            line.push_str(&format!("{:02}{:02}", pos.x(), pos.y()));
        }
        line.push('.');
        self.out.line(&line);
    }

    /// `YXNBEST n`: think, list the `n` best moves as `MESSAGE` lines, then play the best.
    pub(super) fn nbest(&mut self, n: usize, think: Think) {
        let budget = self.begin_think(think);
        let Some(result) = self.search(budget.soft, budget.hard, n, true) else {
            return;
        };
        self.report_result(&result);
        for (rank, &(pos, score)) in result.nbest.iter().enumerate() {
            self.out.message(&format!(
                "nbest {} {pos} {}",
                rank + 1,
                score_to_string(score)
            ));
        }
        self.engine.play(result.best);
        self.out.line(&result.best.to_string());
    }

    /// `BENCH [depth]`: the bench, as `pbrain-tengen bench` runs it, with its position
    /// lines as `MESSAGE`s and the `Bench: <nodes> nodes <nps> nps` line as the reply.
    pub(super) fn bench(&self, depth: Option<u32>) {
        let (mut lines, _) = bench::run_search(depth.unwrap_or(bench::BENCH_DEPTH));
        let signature = lines.pop().unwrap_or_default();
        for line in &lines {
            self.out.message(line);
        }
        self.out.line(&signature);
    }
}
