//! Victory by continuous threats: fours, threes and threats of a VCF, searched best
//! first by depth-first proof-number search (df-pn).
//!
//! The attacker plays fours and moves that make an open three or add a closed three to
//! another line. After a three the defender may answer with any move that stops the open
//! four or with a four of its own; when the attacker instead threatens a VCF (it would
//! win by fours if the defender passed), every legal candidate is a possible answer.
//! Every answer must lose. A defender's four must be blocked, and the attacker keeps the
//! initiative only if a threat still stands after the block. When the defender has an
//! open three of its own, the attacker may only play fours. Each attacker node first
//! tries a short VCF.
//!
//! For every position the search keeps how many positions are left to prove the win
//! (proof number) and to refute it (disproof number), and always goes on where the
//! fewest are left: lines where the defender has few replies are finished first, which
//! is where long threat sequences live. In nine positions of Tengen's renju games where
//! Rapfi saw a win Tengen missed, deepening one attacking move at a time and trying
//! every line in full, as this solver first did, proved one within five seconds; this
//! search proved five, wins in 13 to 18 moves.
//!
//! Everything it proves is proven. A refutation may come from the limit on attacking
//! moves along one path, or from the budget, and only means "no win found".

use super::vcf::{Vcf, four_moves};
use super::{Budget, MoveStack};
use crate::board::Board;
use crate::board::pattern::Shape;
use crate::movegen::{self, Threat, is_legal};
use crate::types::{Color, Pos};

/// A proof or disproof number that stands for "infinite": the node is decided.
const INF: u32 = u32::MAX / 4;

/// Attacking moves and fours each short VCF may spend.
const VCF_NODES: u64 = 500;
const VCF_FOURS: u32 = 10;

/// The attacking-move limit of the first round (see `solve`).
const FIRST_LIMIT: u32 = 3;

/// Bounds of the table's size in positions: 24 bytes each, 24 MiB at most.
const MIN_TABLE: usize = 1 << 10;
const MAX_TABLE: usize = 1 << 20;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    pn: u32,
    dn: u32,
    /// For a proven node, the plies to the five along the longest defence.
    plies: u32,
}

/// The table, the budget and the helpers of one proof-number VCT.
pub struct Vct {
    pub budget: Budget,
    table: Vec<Entry>,
    vcf: Vcf,
    moves: MoveStack,
    attacker: Color,
}

/// What a node is before its children are searched.
enum Node {
    Proven(u32),
    Disproven,
    /// The moves to search: the attacker's (an OR node) or the defender's (AND).
    Moves,
}

impl Vct {
    /// A solver that may spend `max_nodes`; its table holds about half as many positions
    /// (a node's short VCF counts its own nodes too), at most `MAX_TABLE` of them.
    pub fn new(max_nodes: u64) -> Vct {
        let entries = usize::try_from(max_nodes / 2)
            .unwrap_or(usize::MAX)
            .clamp(MIN_TABLE, MAX_TABLE)
            .next_power_of_two();
        Vct {
            budget: Budget::new(max_nodes),
            table: vec![Entry::default(); entries],
            vcf: Vcf::new(0),
            moves: MoveStack::default(),
            attacker: Color::Black,
        }
    }

    /// Searches a win for the side to move within `max_threats` attacking moves. Returns
    /// the first move and the plies to the five along the longest defence.
    pub fn solve(&mut self, board: &mut Board, max_threats: u32) -> Option<(Pos, u32)> {
        let us = board.side_to_move();
        self.attacker = us;
        // A win the root's own VCF finds is stored without its move: look for it first.
        match movegen::threat(board) {
            Threat::Win(p) => return Some((p, 1)),
            Threat::OpenFour if max_threats > 0 => {
                return movegen::find_shape(board, us, Shape::Flex4).map(|p| (p, 3));
            }
            _ => {}
        }
        let found = self.short_vcf(board, max_threats);
        if found.is_some() {
            return found;
        }
        // Short wins first: the proof-number search finds a win, not the shortest, and
        // a low limit keeps it from long detours where a short win exists. A refutation
        // under one limit may not hold under a higher one, so each round starts afresh.
        let mut limit = max_threats.min(FIRST_LIMIT);
        loop {
            self.table.fill(Entry::default());
            let (pn, _) = self.mid(board, true, INF - 1, INF - 1, limit);
            if pn == 0 {
                break;
            }
            if limit >= max_threats || self.budget.exhausted() {
                return None;
            }
            limit = (limit * 2).min(max_threats);
        }
        // The proving move: the proven child with the fastest win.
        let mut moves = Vec::new();
        if !matches!(self.expand(board, true, limit, &mut moves), Node::Moves) {
            return None;
        }
        moves
            .iter()
            .filter_map(|&mv| {
                let e = self.lookup(board.hash_with(mv, us))?;
                (e.pn == 0).then_some((mv, e.plies + 1))
            })
            .min_by_key(|&(_, plies)| plies)
    }

    /// The attacker's short VCF, whoever is to move, within the attacking moves left;
    /// its nodes count against the budget.
    fn short_vcf(&mut self, board: &mut Board, threats: u32) -> Option<(Pos, u32)> {
        self.vcf.reset(VCF_NODES);
        let found = self
            .vcf
            .solve_for(board, self.attacker, threats.min(VCF_FOURS));
        self.budget.nodes += self.vcf.budget.nodes;
        found
    }

    fn slot(&self, key: u64) -> usize {
        key as usize & (self.table.len() - 1)
    }

    fn lookup(&self, key: u64) -> Option<Entry> {
        let e = self.table[self.slot(key)];
        (e.key == key && (e.pn | e.dn) != 0).then_some(e)
    }

    fn store(&mut self, key: u64, pn: u32, dn: u32, plies: u32) {
        let i = self.slot(key);
        self.table[i] = Entry { key, pn, dn, plies };
    }

    /// Classifies the node with the side to move's threats and generates its moves.
    fn expand(
        &mut self,
        board: &mut Board,
        or_node: bool,
        threats: u32,
        out: &mut Vec<Pos>,
    ) -> Node {
        out.clear();
        let us = self.attacker;
        let key = board.hash();
        if or_node {
            let fours_only = match movegen::threat(board) {
                Threat::Win(_) => return Node::Proven(1),
                Threat::Lost => return Node::Disproven,
                // Making the open four is an attacking move too (as puzzle sources count).
                Threat::OpenFour if threats > 0 => return Node::Proven(3),
                Threat::OpenFour => return Node::Disproven,
                Threat::BlockFive(block) => {
                    if threats == 0 {
                        return Node::Disproven;
                    }
                    out.push(block);
                    return Node::Moves;
                }
                Threat::DefendFour => true,
                Threat::Quiet => false,
            };
            if threats == 0 {
                return Node::Disproven;
            }
            // A position in the table was expanded before, its short VCF with it.
            if self.lookup(key).is_none()
                && let Some((_, plies)) = self.short_vcf(board, threats)
            {
                return Node::Proven(plies);
            }
            attacking_moves(board, us, fours_only, out);
            if out.is_empty() {
                return Node::Disproven;
            }
        } else {
            match movegen::threat(board) {
                Threat::Win(_) | Threat::OpenFour => return Node::Disproven,
                Threat::Lost => return Node::Proven(2),
                Threat::BlockFive(block) => out.push(block),
                Threat::DefendFour => movegen::defences(board, out),
                Threat::Quiet => {
                    // Unless the attacker now threatens a VCF, it has lost the initiative.
                    if self.lookup(key).is_none() && self.short_vcf(board, threats).is_none() {
                        return Node::Disproven;
                    }
                    movegen::legal_candidates(board, out);
                }
            }
            // No legal defence at all (renju: every one forbidden) loses at once.
            if out.is_empty() {
                return Node::Proven(2);
            }
        }
        Node::Moves
    }

    /// Searches the node until its proof number reaches `th_pn` or its disproof number
    /// `th_dn`; returns both.
    fn mid(
        &mut self,
        board: &mut Board,
        or_node: bool,
        th_pn: u32,
        th_dn: u32,
        threats: u32,
    ) -> (u32, u32) {
        let key = board.hash();
        if !self.budget.spend() {
            return self.lookup(key).map_or((1, 1), |e| (e.pn, e.dn));
        }
        let mut moves = self.moves.take();
        let (pn, dn) = match self.expand(board, or_node, threats, &mut moves) {
            Node::Proven(plies) => {
                self.store(key, 0, INF, plies);
                (0, INF)
            }
            Node::Disproven => {
                self.store(key, INF, 0, 0);
                (INF, 0)
            }
            Node::Moves => self.search_children(board, or_node, th_pn, th_dn, threats, &moves),
        };
        self.moves.give_back(moves);
        (pn, dn)
    }

    fn search_children(
        &mut self,
        board: &mut Board,
        or_node: bool,
        th_pn: u32,
        th_dn: u32,
        threats: u32,
        moves: &[Pos],
    ) -> (u32, u32) {
        let key = board.hash();
        let mover = if or_node {
            self.attacker
        } else {
            self.attacker.opp()
        };
        // An attacking move spends one of the threats left.
        let child_threats = if or_node { threats - 1 } else { threats };
        loop {
            // From the children's numbers: an OR node needs one child proven and all
            // refuted, an AND node the reverse. `phi` is what this node's side to move
            // wants to reach zero, `delta` the other.
            let mut best = 0;
            let mut best_phi = INF;
            let mut second_phi = INF;
            let mut best_delta = 0;
            let mut sum_delta = 0u32;
            let mut plies = 0;
            for (i, &mv) in moves.iter().enumerate() {
                let (pn, dn, p) = self
                    .lookup(board.hash_with(mv, mover))
                    .map_or((1, 1, 0), |e| (e.pn, e.dn, e.plies));
                let (phi, delta) = if or_node { (pn, dn) } else { (dn, pn) };
                if phi < best_phi {
                    second_phi = best_phi;
                    best_phi = phi;
                    best_delta = delta;
                    best = i;
                } else if phi < second_phi {
                    second_phi = phi;
                }
                sum_delta = sum_delta.saturating_add(delta).min(INF);
                if or_node {
                    if pn == 0 && (plies == 0 || p < plies) {
                        plies = p;
                    }
                } else {
                    plies = plies.max(p);
                }
            }
            let (pn, dn) = if or_node {
                (best_phi, sum_delta)
            } else {
                (sum_delta, best_phi)
            };
            let (th_phi, th_delta) = if or_node {
                (th_pn, th_dn)
            } else {
                (th_dn, th_pn)
            };
            if best_phi >= th_phi || sum_delta >= th_delta || self.budget.exhausted() {
                let plies = if pn == 0 { plies + 1 } else { 0 };
                self.store(key, pn, dn, plies);
                return (pn, dn);
            }
            let child_phi = th_phi.min(second_phi.saturating_add(1));
            let child_delta = (th_delta - sum_delta)
                .saturating_add(best_delta)
                .min(INF - 1);
            let (child_pn, child_dn) = if or_node {
                (child_phi, child_delta)
            } else {
                (child_delta, child_phi)
            };
            let mv = moves[best];
            board.place(mv, mover);
            self.mid(board, !or_node, child_pn, child_dn, child_threats);
            board.undo();
        }
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

    /// Black to move in a renju game Tengen lost to Rapfi at 0.25 s a move (opening 3 of
    /// the 26, Tengen black). Rapfi, given 2 s, reports mate in 37 plies starting at 7,5
    /// (H6); the solver that deepened one attacking move at a time found no win in five
    /// seconds and 6 million nodes.
    #[test]
    fn proves_a_long_win_rapfi_found_in_a_game() {
        let moves = [
            (7, 7),
            (7, 6),
            (7, 8),
            (6, 8),
            (6, 6),
            (8, 7),
            (8, 9),
            (9, 9),
            (9, 10),
            (10, 11),
            (6, 5),
            (8, 5),
            (8, 4),
            (6, 7),
            (9, 4),
            (7, 4),
            (6, 3),
            (6, 4),
        ];
        let mut b = Board::new(15, 15, crate::types::Rule::Renju);
        for (x, y) in moves {
            b.play(Pos::new(x, y));
        }
        let mut vct = Vct::new(2_000_000);
        let (mv, plies) = vct.solve(&mut b, 30).expect("a win");
        assert_eq!(mv, Pos::new(7, 5));
        assert!((21..=41).contains(&plies), "{plies} plies");
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
