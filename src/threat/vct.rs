//! Victory by continuous threats: fours, threes and threats of a VCF.
//!
//! The attacker plays fours and moves that make an open three (a point where it would
//! then make an open four). After a three the defender may answer with any move that
//! stops the open four or with a four of its own; when the attacker instead threatens a
//! VCF (it would win by fours if the defender passed), every legal candidate is a
//! possible answer. Every answer must lose. A defender's four must be blocked, and the
//! attacker keeps the initiative only if a threat still stands after the block. When the
//! defender has an open three of its own, the attacker may only play fours. Each attacker
//! node first tries a short VCF. The search is bounded by the number of attacking
//! moves and by a node budget, and it deepens one attacking move at a time, so the first
//! win found is among the shortest.
//!
//! Everything it proves is proven: a line it cannot finish within its budget counts as
//! no win.

use super::vcf::{Vcf, four_moves};
use super::{Budget, KeyMap, MoveStack};
use crate::board::Board;
use crate::board::pattern::Shape;
use crate::movegen::{self, Threat, find_shape, is_legal};
use crate::types::{Color, Pos};

/// Attacking moves one VCF inside the VCT may spend, and the fours it may play.
const VCF_NODES: u64 = 2_000;
const VCF_FOURS: u32 = 12;

/// What the defender may answer a threat with.
#[derive(Clone, Copy)]
enum Replies {
    /// A four: only its five point.
    Block(Pos),
    /// An open three: the points that stop the open four, and counter-fours.
    StopThree,
    /// The threat of a VCF: any legal candidate might break it.
    Any,
}

/// Budget, counters and memory of one VCT search.
pub struct Vct {
    /// Attacking moves and defences searched.
    pub budget: Budget,
    /// Attacker-to-move positions shown to have no win within the stored number of
    /// attacking moves.
    refuted: KeyMap<u32>,
    /// The attacker's VCF, at every attacker node and for the threat of one.
    vcf: Vcf,
    moves: MoveStack,
}

impl Vct {
    pub fn new(max_nodes: u64) -> Vct {
        Vct {
            budget: Budget::new(max_nodes),
            refuted: KeyMap::default(),
            vcf: Vcf::new(0),
            moves: MoveStack::default(),
        }
    }

    /// Searches a win for the side to move within `max_threats` attacking moves. Returns
    /// the first move and the number of plies to the five along the longest defence.
    pub fn solve(&mut self, board: &mut Board, max_threats: u32) -> Option<(Pos, u32)> {
        let us = board.side_to_move();
        for threats in 1..=max_threats {
            if let Some(found) = self.attack(board, us, threats) {
                return Some(found);
            }
            if self.budget.exhausted() {
                break;
            }
        }
        None
    }

    /// Runs `f` with this level's move list.
    fn with_moves<R>(&mut self, f: impl FnOnce(&mut Self, &mut Vec<Pos>) -> R) -> R {
        let mut moves = self.moves.take();
        let result = f(self, &mut moves);
        self.moves.give_back(moves);
        result
    }

    /// The attacker `us` to move with `threats` attacking moves left.
    fn attack(&mut self, board: &mut Board, us: Color, threats: u32) -> Option<(Pos, u32)> {
        let fours_only = match movegen::threat(board) {
            Threat::Win(p) => return Some((p, 1)),
            Threat::Lost => return None,
            // Making the open four is an attacking move too (as puzzle sources count).
            Threat::OpenFour if threats > 0 => {
                return find_shape(board, us, Shape::Flex4).map(|p| (p, 3));
            }
            Threat::OpenFour => return None,
            Threat::BlockFive(block) => {
                // The defender's counter-four: block it (a move of the attacker's, so it
                // counts), and a threat must still stand after it.
                if threats == 0 || !self.budget.spend() {
                    return None;
                }
                board.place(block, us);
                let result = self.defend(board, us, threats - 1);
                board.undo();
                return result.map(|plies| (block, plies + 1));
            }
            Threat::DefendFour => true,
            Threat::Quiet => false,
        };
        if let Some(win) = self.vcf(board, us, threats) {
            return Some(win);
        }
        if threats == 0
            || self
                .refuted
                .get(&board.hash())
                .is_some_and(|&n| n >= threats)
        {
            return None;
        }
        let found = self.with_moves(|vct, moves| {
            attacking_moves(board, us, fours_only, moves);
            for &mv in moves.iter() {
                if !vct.budget.spend() {
                    return None;
                }
                board.place(mv, us);
                let result = vct.defend(board, us, threats - 1);
                board.undo();
                if let Some(plies) = result {
                    return Some((mv, plies + 1));
                }
            }
            None
        });
        if found.is_none() && !self.budget.exhausted() {
            self.refuted.insert(board.hash(), threats);
        }
        found
    }

    /// The defender to move after the attacker's threat: plies to the attacker's five
    /// when every defence loses.
    fn defend(&mut self, board: &mut Board, us: Color, threats: u32) -> Option<u32> {
        let them = us.opp();
        let replies = match movegen::threat(board) {
            // The defender makes five or an open four first.
            Threat::Win(_) | Threat::OpenFour => return None,
            Threat::Lost => return Some(2),
            Threat::BlockFive(block) => Replies::Block(block),
            Threat::DefendFour => Replies::StopThree,
            Threat::Quiet => {
                // Unless the attacker now threatens a VCF, it has lost the initiative.
                self.vcf(board, us, threats)?;
                Replies::Any
            }
        };
        self.with_moves(|vct, moves| {
            match replies {
                Replies::Block(block) => moves.push(block),
                Replies::StopThree => movegen::defences(board, moves),
                Replies::Any => movegen::legal_candidates(board, moves),
            }
            let mut longest = 0;
            for &d in moves.iter() {
                if !vct.budget.spend() {
                    return None;
                }
                board.place(d, them);
                let result = vct.attack(board, us, threats);
                board.undo();
                longest = longest.max(result?.1);
            }
            // No legal defence at all (renju: every one forbidden) loses at once.
            Some(if moves.is_empty() { 2 } else { longest + 1 })
        })
    }
}

impl Vct {
    /// A short VCF for the attacker `us`, whoever is to move, within the attacking moves
    /// left; its nodes count here.
    fn vcf(&mut self, board: &mut Board, us: Color, threats: u32) -> Option<(Pos, u32)> {
        if self.budget.exhausted() {
            return None;
        }
        let before = self.vcf.budget.nodes;
        self.vcf.budget.max_nodes = before + VCF_NODES;
        let found = self.vcf.solve_for(board, us, threats.min(VCF_FOURS));
        self.budget.nodes += self.vcf.budget.nodes - before;
        found
    }
}

/// The attacker's fours and, unless `fours_only`, its other threatening moves: best first.
fn attacking_moves(board: &mut Board, us: Color, fours_only: bool, out: &mut Vec<Pos>) {
    four_moves(board, us, out);
    if fours_only {
        return;
    }
    let fours = out.len();
    for p in board.area_points() {
        if board.near(p) == 0 || !board.is_empty(p) {
            continue;
        }
        // Threes, and the moves that add a closed three to another line: those can
        // threaten a VCF without a three (the defender's node checks that they do).
        let shape = board.shape(p, us);
        if matches!(
            shape,
            Shape::Flex3 | Shape::Flex3Plus | Shape::Flex3x2 | Shape::Block3Plus | Shape::Flex2x2
        ) && is_legal(board, p, us)
        {
            out.push(p);
        }
    }
    // Threats after fours: a double three first, then by the shape and the cell's value.
    out[fours..].sort_by_key(|&p| std::cmp::Reverse((board.shape(p, us), board.cell_value(p, us))));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Searcher;
    use crate::testdata::{records, renju_board};
    use crate::threat::CHECK_INTERVAL;
    use crate::types::value::WIN_THRESHOLD;

    #[test]
    fn solves_every_shared_vct_puzzle_within_its_limit() {
        let puzzles: Vec<_> = records("renju_puzzles.jsonl")
            .into_iter()
            .filter(|r| r.get("type").as_str() == "vct")
            .collect();
        assert_eq!(puzzles.len(), 12);
        for r in &puzzles {
            let id = r.get("id").as_str();
            let mut b = renju_board(r);
            let limit = r.get("attacker_moves_limit").as_i64() as u32;
            let (mv, plies) = Vct::new(5_000_000)
                .solve(&mut b, limit)
                .unwrap_or_else(|| panic!("{id} unsolved"));
            assert!(plies % 2 == 1, "{id}: {plies} plies");
            // The answers listed are not all the winning moves: check the move itself. The
            // search, which sees every defender move, must find the defender lost.
            if mv != r.get("answers").as_points()[0] {
                b.play(mv);
                let reply = Searcher::new().bench_search(&b, 2 * limit + 2);
                assert!(reply.score <= -WIN_THRESHOLD, "{id}: {mv} does not win");
            }
        }
    }

    #[test]
    fn finds_no_win_where_the_sources_say_there_is_none() {
        let mut checked = 0;
        for r in records("renju_puzzles.jsonl") {
            if r.get("type").as_str() != "vct" {
                continue;
            }
            let n = r.get("no_win_within_attacker_moves").as_i64();
            if n == 0 {
                continue;
            }
            let mut b = renju_board(&r);
            let mut vct = Vct::new(5_000_000);
            assert!(
                vct.solve(&mut b, n as u32).is_none(),
                "{} won within {n}",
                r.get("id").as_str()
            );
            assert!(
                !vct.budget.exhausted(),
                "{}: budget spent",
                r.get("id").as_str()
            );
            checked += 1;
        }
        assert_eq!(checked, 3);
    }

    #[test]
    fn a_passed_deadline_stops_the_search_within_one_check() {
        // The inner VCFs add their nodes in batches; the clock must still be read in time.
        for r in records("renju_puzzles.jsonl") {
            let mut b = renju_board(&r);
            let mut vct = Vct::new(5_000_000);
            vct.budget.deadline = Some(std::time::Instant::now());
            vct.solve(&mut b, 20);
            assert!(
                vct.budget.nodes <= CHECK_INTERVAL + VCF_NODES + 1,
                "{}: {} nodes",
                r.get("id").as_str(),
                vct.budget.nodes
            );
        }
    }
}
