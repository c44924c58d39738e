//! One search thread: principal variation search over its own copy of the board.
//!
//! Each node first settles what the threats decide (a five to make or block, an open
//! four, a four-three or double three the opponent has no four against), then probes
//! the shared transposition table, then searches the generated moves in order: table
//! move, then the static ordering score plus history. Quiet moves late in the list are
//! reduced (killers less) or, near the leaves, pruned; leaves try a small VCF before the
//! static evaluation.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::params::*;
use crate::board::Board;
use crate::board::pattern::Shape;
use crate::eval::evaluate;
use crate::movegen::{self, Threat};
use crate::threat::vcf::Vcf;
use crate::tt::{Bound, TranspositionTable};
use crate::types::value::*;
use crate::types::{Color, GRID, Pos};

/// Limits a worker checks while it searches.
pub struct WorkerLimits<'a> {
    /// The caller's stop request (`YXSTOP`, `END`).
    pub stop: &'a AtomicBool,
    /// Set when the main thread has finished: helpers stop at once.
    pub finished: &'a AtomicBool,
    pub deadline: Option<Instant>,
    pub max_nodes: Option<u64>,
    /// Nodes of all threads, added in batches so threads rarely touch the shared line.
    pub shared_nodes: &'a AtomicU64,
}

pub struct Worker<'a> {
    pub board: Board,
    tt: &'a TranspositionTable,
    limits: WorkerLimits<'a>,
    pub nodes: u64,
    /// `nodes` at the last check of the limits. Leaf VCFs add their nodes in batches, so
    /// the count jumps: a check on exact multiples of the interval would be skipped for
    /// tens of thousands of nodes in tactical positions, past the deadline.
    checked_nodes: u64,
    /// Set once a limit is hit; every node then returns at once and the iteration is void.
    pub aborted: bool,
    /// Whether limits other than the stop flag may abort (off during the first iteration,
    /// so that there is always a searched move).
    pub may_abort: bool,
    /// Depth of the iteration under way.
    pub root_depth: i32,
    history: Vec<i32>,
    killers: [[Pos; 2]; MAX_PLY],
    pv: Vec<[Pos; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    /// Root moves the search must skip (for n-best).
    pub excluded: Vec<Pos>,
    /// Per-ply move lists, reused so that no node allocates.
    buffers: Vec<MoveBuffers>,
    /// The leaves' VCF solver, reused for the same reason.
    leaf_vcf: Vcf,
    /// Its answers, by position.
    leaf_answers: LeafAnswers,
    /// The move a singular-extension search at each ply must skip, or `Pos::NONE`.
    skipped: [Pos; MAX_PLY],
    /// Static value of the node at each ply of the current line, to tell whether the
    /// side to move is improving on its position two plies ago.
    evals: [i32; MAX_PLY],
}

/// A ply's generated moves and their ordering keys (see `order_key`).
type MoveBuffers = (Vec<Pos>, Vec<u64>);

/// A move's ordering score and its point in one key: a higher key comes first, and
/// among equal scores the lower point, so the order (and the bench) is deterministic.
#[inline]
fn order_key(score: i32, mv: Pos) -> u64 {
    ((score as i64 - i32::MIN as i64) as u64) << 16 | (u16::MAX as usize - mv.index()) as u64
}

/// The move of an `order_key`.
#[inline]
fn key_move(key: u64) -> Pos {
    Pos::from_index(u16::MAX as usize - (key & 0xFFFF) as usize)
}

/// Moves an ordering picks one at a time. Most nodes are cut by one of their first
/// moves: those are found by selection, and the rest sorted only when a node gets there.
const SELECTED_MOVES: usize = 3;

/// The window and facts of a node handed from `search` to `expand`.
#[derive(Clone, Copy)]
struct Node {
    alpha: i32,
    beta: i32,
    depth: i32,
    ply: usize,
    pv_node: bool,
    cut_node: bool,
    threat: Threat,
    tt_move: Pos,
    /// The table entry's value (ply-adjusted), depth and bound, when there is one.
    tt: Option<(i32, i32, Bound)>,
    key: u64,
    static_eval: i32,
    /// The static value, or the table's value where its bound makes it a better guess.
    eval: i32,
}

impl<'a> Worker<'a> {
    pub fn new(board: Board, tt: &'a TranspositionTable, limits: WorkerLimits<'a>) -> Worker<'a> {
        Worker {
            board,
            tt,
            limits,
            nodes: 0,
            checked_nodes: 0,
            aborted: false,
            may_abort: false,
            root_depth: 1,
            history: vec![0; 2 * GRID],
            killers: [[Pos::NONE; 2]; MAX_PLY],
            pv: vec![[Pos::NONE; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            excluded: Vec::new(),
            buffers: (0..MAX_PLY)
                .map(|_| (Vec::with_capacity(256), Vec::with_capacity(256)))
                .collect(),
            leaf_vcf: Vcf::new(LEAF_VCF_NODES),
            leaf_answers: LeafAnswers::new(),
            evals: [0; MAX_PLY],
            skipped: [Pos::NONE; MAX_PLY],
        }
    }

    /// The principal variation of the last completed root search.
    pub fn pv(&self) -> Vec<Pos> {
        self.pv[0][..self.pv_len[0]].to_vec()
    }

    /// Nodes of all threads so far: the batches they have added to the shared count,
    /// and this thread's nodes since its last batch (the other threads' last batches,
    /// under `CHECK_INTERVAL` each, are not yet in).
    pub fn all_nodes(&self) -> u64 {
        self.limits.shared_nodes.load(Ordering::Relaxed) + (self.nodes - self.checked_nodes)
    }

    fn check_limits(&mut self) {
        let batch = self.nodes - self.checked_nodes;
        self.checked_nodes = self.nodes;
        let all_nodes = self.limits.shared_nodes.fetch_add(batch, Ordering::Relaxed) + batch;
        if self.limits.stop.load(Ordering::Relaxed) || self.limits.finished.load(Ordering::Relaxed)
        {
            self.aborted = true;
        }
        if !self.may_abort {
            return;
        }
        if self.limits.max_nodes.is_some_and(|m| all_nodes >= m)
            || self.limits.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = true;
        }
    }

    fn update_pv(&mut self, ply: usize, mv: Pos) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = mv;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// Principal variation search. Scores are from the side to move's point of view;
    /// `ply` counts from the root.
    pub fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        self.nodes += 1;
        if self.nodes - self.checked_nodes >= CHECK_INTERVAL {
            self.check_limits();
        }
        if self.aborted {
            return 0;
        }
        let p = ply as i32;
        if ply >= MAX_PLY - 4 {
            return evaluate(&self.board);
        }
        if self.board.is_full() {
            return 0;
        }
        if ply > 0 {
            alpha = alpha.max(loss_in(p));
            beta = beta.min(win_in(p + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        let threat = movegen::threat(&mut self.board);
        match threat {
            Threat::Win(mv) => {
                if ply == 0 {
                    self.pv[0][0] = mv;
                    self.pv_len[0] = 1;
                }
                return win_in(p + 1);
            }
            Threat::Lost => return loss_in(p + 2),
            Threat::OpenFour if ply > 0 => return win_in(p + 3),
            Threat::BlockFive(mv) if ply > 0 => {
                // Forced: no branching, so no depth is spent. The node takes the value
                // the four's maker saw: its grandchildren compare against it to tell
                // whether they improve, and a value left from another line misleads them.
                self.evals[ply] = -self.evals[ply - 1];
                self.board.play(mv);
                let v = -self.search(
                    -beta,
                    -alpha,
                    depth,
                    ply + 1,
                    pv_node,
                    !pv_node && !cut_node,
                );
                self.board.undo();
                if v > alpha && !self.aborted {
                    self.update_pv(ply, mv);
                }
                return v;
            }
            _ => {}
        }
        // A win the shapes prove is worth its exact score here, at the horizon too, where
        // the leaf VCF finds a four-three but never a double three.
        if ply > 0
            && threat == Threat::Quiet
            && let Some(plies) = movegen::quick_win(&mut self.board)
        {
            return win_in(p + plies as i32);
        }
        let defending = threat == Threat::DefendFour;

        let key = self.board.hash();
        let skipping = !self.skipped[ply].is_none();
        let mut tt_move = Pos::NONE;
        let mut tt = None;
        if let Some(hit) = self.tt.probe(key).filter(|_| !skipping) {
            tt_move = hit.mv;
            let v = from_tt(hit.value, p);
            tt = Some((v, hit.depth, hit.bound));
            if !pv_node
                && ply > 0
                && hit.depth >= depth
                && match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                    Bound::None => false,
                }
            {
                return v;
            }
        }

        // An open three against the side to move at the horizon is left to the static
        // value, whose threat table prices it, as Rapfi's search does: searching its
        // defences one more ply took nearly half the bench's nodes and scored worse
        // against Rapfi.
        //
        // The static value leans towards the side to move (its own potential counts in
        // full, the opponent's at `OPPONENT_WEIGHT_16THS`), and reductions, extensions
        // and forced blocks end sibling lines at horizons with either side to move. A
        // share of the parent's static value, seen from here and so leaning the other
        // way, pulls each horizon value part of the way to where the leans cancel. It
        // is the same for all the children of one node, which still rank by their own
        // values.
        if depth <= 0 && ply > 0 {
            let parent = -self.evals[ply - 1];
            return self.horizon_win(p).unwrap_or_else(|| {
                let own = evaluate(&self.board);
                own + (parent - own) * HORIZON_PARENT_16THS / 16
            });
        }
        let static_eval = evaluate(&self.board);
        self.evals[ply] = static_eval;
        // The table's value comes from a search, shallower than this one or it would
        // have cut: where its bound puts the true value beyond the static one, it is
        // the better guess for the pruning below.
        let eval = match tt {
            Some((v, _, bound))
                if v.abs() < WIN_THRESHOLD
                    && match bound {
                        Bound::Lower => v > static_eval,
                        Bound::Upper => v < static_eval,
                        Bound::Exact => true,
                        Bound::None => false,
                    } =>
            {
                v
            }
            _ => static_eval,
        };

        if !pv_node
            && !defending
            && depth <= RFP_MAX_DEPTH
            && beta.abs() < WIN_THRESHOLD
            && eval - RFP_MARGIN * depth >= beta
        {
            return eval;
        }

        // Razoring: so far below alpha a ply or two from the horizon, a move short of a
        // four is unlikely to save the node, and the horizon's VCF tries the fours.
        if !pv_node
            && !defending
            && depth <= RAZOR_MAX_DEPTH
            && alpha.abs() < WIN_THRESHOLD
            && eval + RAZOR_BASE + RAZOR_PER_DEPTH * depth < alpha
        {
            return self.horizon_win(p).unwrap_or(eval);
        }

        // Without a table move the ordering is a guess: spend a ply less on it, and let
        // the next visit, which has the move, search it deeper.
        let depth = if tt_move.is_none() && depth >= IIR_MIN_DEPTH && (pv_node || cut_node) {
            depth - 1
        } else {
            depth
        };

        let mut bufs = std::mem::take(&mut self.buffers[ply]);
        let node = Node {
            alpha,
            beta,
            depth,
            ply,
            pv_node,
            cut_node,
            threat,
            tt_move,
            tt,
            key,
            static_eval,
            eval,
        };
        let v = self.expand(&node, &mut bufs.0, &mut bufs.1);
        self.buffers[ply] = bufs;
        v
    }

    /// Generates, orders and searches the moves of a node whose threats and table entry
    /// did not settle it. `moves` and `scored` are this ply's reusable buffers.
    fn expand(&mut self, node: &Node, moves: &mut Vec<Pos>, scored: &mut Vec<u64>) -> i32 {
        let Node {
            mut alpha,
            beta,
            depth,
            ply,
            pv_node,
            cut_node,
            threat,
            tt_move,
            tt: _,
            key,
            static_eval,
            eval,
        } = *node;
        let p = ply as i32;
        let defending = threat == Threat::DefendFour;
        let us = self.board.side_to_move();
        let them = us.opp();
        moves.clear();
        if defending {
            movegen::defences(&mut self.board, moves);
        } else if threat == Threat::OpenFour || matches!(threat, Threat::BlockFive(_)) {
            // Only at the root: the threat's own move, found by the generator below.
            movegen::legal_candidates(&mut self.board, moves);
            let wanted = match threat {
                Threat::BlockFive(mv) => Some(mv),
                _ => movegen::find_shape(&self.board, us, Shape::Flex4),
            };
            if let Some(mv) = wanted {
                moves.retain(|&m| m == mv);
            }
        } else {
            movegen::legal_candidates(&mut self.board, moves);
        }
        if ply == 0 {
            moves.retain(|m| !self.excluded.contains(m));
        }
        let skipped = self.skipped[ply];
        if !skipped.is_none() {
            moves.retain(|&m| m != skipped);
        }
        if moves.is_empty() {
            if !skipped.is_none() {
                // The skipped move was the only one: it is singular.
                return alpha;
            }
            return if defending { loss_in(p + 4) } else { 0 };
        }

        let killers = self.killers[ply];
        scored.clear();
        // Killers are not put first: a quiet move that refuted a sibling rarely refutes
        // here before the node's own threats do. In 133 early renju middle-game positions
        // searched to a million nodes each, the first move searched made 69% of the cuts
        // with killers first and 84% without.
        scored.extend(moves.iter().map(|&mv| {
            let s = if mv == tt_move {
                1 << 30
            } else {
                movegen::order_score(&self.board, mv, us) * 16
                    + self.history[us.index() * GRID + mv.index()] / 64
            };
            order_key(s, mv)
        }));

        let improving = ply < 2 || static_eval > self.evals[ply - 2];
        let move_limit = move_count_limit(depth, improving);
        let futile = !pv_node
            && depth <= FUTILITY_MAX_DEPTH
            && eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * depth <= alpha;
        // A node expected to fail high whose static value is already well above beta
        // needs only a shallower proof, except along its own fours.
        let likely_fail_high = !pv_node
            && cut_node
            && !defending
            && eval >= beta + FAIL_HIGH_BASE + FAIL_HIGH_PER_DEPTH * depth;
        let old_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = Pos::NONE;
        let mut searched = 0usize;
        let mut tried_quiet = [Pos::NONE; 32];
        let mut tried_quiet_len = 0;
        for next in 0..scored.len() {
            if next < SELECTED_MOVES {
                let rest = &mut scored[next..];
                let first = (0..rest.len()).max_by_key(|&i| rest[i]).unwrap_or(0);
                rest.swap(0, first);
            } else if next == SELECTED_MOVES {
                scored[next..].sort_unstable_by(|a, b| b.cmp(a));
            }
            let mv = key_move(scored[next]);
            // Moves that make no three or four of our own are quiet; the ones among them
            // that take a point where the opponent would make a three are reduced less.
            let (own, theirs) = (self.board.shape(mv, us), self.board.shape(mv, them));
            let quiet = !defending && own < Shape::Flex3 && mv != tt_move;
            let blocks = theirs >= Shape::Flex3;
            // With a move that does not lose in hand, trust the order: only the first
            // few moves are searched (more at depth, and where the position improves),
            // and near the leaves moves that make nothing for either side are skipped.
            if ply > 0 && searched > 0 && best > -WIN_THRESHOLD && mv != tt_move {
                // Neither `searched` nor `best` changes while moves are skipped, and the
                // table move came first: past the limit, every later move is skipped too.
                if searched >= move_limit {
                    break;
                }
                let trivial = own == Shape::None && theirs == Shape::None;
                if (trivial && depth < TRIVIAL_PRUNE_DEPTH) || (!pv_node && quiet && futile) {
                    continue;
                }
            }
            self.board.play(mv);
            self.tt.prefetch(self.board.hash());
            let mut extension = 0;
            if mv == tt_move && ply > 0 && depth >= SE_MIN_DEPTH && skipped.is_none() {
                match self.singular(node, mv) {
                    Singular::Extend => extension = 1,
                    Singular::Cut(v) => {
                        self.board.undo();
                        return v;
                    }
                    Singular::Reduce => extension = -1,
                    Singular::No => {}
                }
            }
            if likely_fail_high && own < Shape::Block4 {
                extension -= 1;
            }
            let new_depth = depth - 1 + extension;
            let v = if searched == 0 {
                -self.search(
                    -beta,
                    -alpha,
                    new_depth,
                    ply + 1,
                    pv_node,
                    !pv_node && !cut_node,
                )
            } else {
                let reducible = !defending && mv != tt_move;
                let r = if reducible && depth >= LMR_MIN_DEPTH && searched >= LMR_FULL_MOVES {
                    let killer = mv == killers[0] || mv == killers[1];
                    // Threats are reduced less: a three by one ply, a four by two.
                    let threat = (own >= Shape::Flex3) as i32 + (own >= Shape::Block4) as i32;
                    let base = reduction(depth, searched);
                    // A side that is not improving is more likely to fail low anyway.
                    let worsening = (!pv_node && !improving && base > 1) as i32;
                    // At a cut node one move is expected to refute: the late ones that
                    // are no killers are tried for form.
                    let unlikely = (cut_node && !killer) as i32;
                    (base + worsening + unlikely
                        - pv_node as i32
                        - killer as i32
                        - blocks as i32
                        - threat)
                        .clamp(0, (new_depth - 1).max(0))
                } else {
                    0
                };
                let mut v = if r > 0 {
                    -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, false, true)
                } else {
                    alpha + 1
                };
                if v > alpha {
                    v = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, false, !cut_node);
                }
                if v > alpha && v < beta && pv_node {
                    v = -self.search(-beta, -alpha, new_depth, ply + 1, true, false);
                }
                v
            };
            self.board.undo();
            if self.aborted {
                return 0;
            }
            searched += 1;
            if quiet && v < beta && tried_quiet_len < tried_quiet.len() {
                tried_quiet[tried_quiet_len] = mv;
                tried_quiet_len += 1;
            }
            if v > best {
                best = v;
                best_move = mv;
                if v > alpha {
                    alpha = v;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if v >= beta {
                        if quiet {
                            let k = &mut self.killers[ply];
                            if k[0] != mv {
                                k[1] = k[0];
                                k[0] = mv;
                            }
                            // The cut move gains, the quiet moves tried before it lose
                            // as much; each entry is pulled less the nearer its bound.
                            let bonus = (depth * depth * 16).min(HISTORY_MAX);
                            self.update_history(us, mv, bonus);
                            for &q in &tried_quiet[..tried_quiet_len] {
                                self.update_history(us, q, -bonus);
                            }
                        }
                        break;
                    }
                }
            }
        }
        if best == -INFINITE {
            // Every move was pruned: nothing learned here.
            return alpha;
        }
        if !skipped.is_none() {
            // The value without one of the moves is no value of the position.
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, to_tt(best, p), static_eval, depth, bound);
        best
    }

    /// Whether the table move `mv` (already played) is singular: the only move that
    /// reaches near its stored value, as a shallower search without it shows.
    fn singular(&mut self, node: &Node, mv: Pos) -> Singular {
        let Some((tt_value, tt_depth, bound)) = node.tt else {
            return Singular::No;
        };
        if tt_value.abs() >= WIN_THRESHOLD
            || !matches!(bound, Bound::Lower | Bound::Exact)
            || tt_depth < node.depth - SE_TT_DEPTH_SLACK
            || node.ply >= 2 * self.root_depth as usize
        {
            return Singular::No;
        }
        let singular_beta = tt_value - SE_MARGIN_PER_DEPTH * node.depth;
        self.board.undo();
        self.skipped[node.ply] = mv;
        let v = self.search(
            singular_beta - 1,
            singular_beta,
            (node.depth - 1) / 2,
            node.ply,
            false,
            node.cut_node,
        );
        self.skipped[node.ply] = Pos::NONE;
        self.board.play(mv);
        if self.aborted {
            Singular::No
        } else if v < singular_beta {
            Singular::Extend
        } else if singular_beta >= node.beta {
            Singular::Cut(singular_beta)
        } else if tt_value >= node.beta {
            Singular::Reduce
        } else {
            Singular::No
        }
    }

    /// Moves `color`'s history score of `mv` by `bonus`, less as it nears the bound.
    fn update_history(&mut self, color: Color, mv: Pos, bonus: i32) {
        let h = &mut self.history[color.index() * GRID + mv.index()];
        // The product reaches 2^36 at the bound: i32 would overflow at deep iterations.
        *h += bonus - (*h as i64 * bonus.abs() as i64 / HISTORY_MAX as i64) as i32;
    }

    /// The win a short VCF finds at a horizon node, if the side to move has a four to
    /// start one; the caller falls back on the static value.
    fn horizon_win(&mut self, p: i32) -> Option<i32> {
        // Most horizon nodes have no four to start one: the table is not worth a look.
        if self.board.count_block4(self.board.side_to_move()) == 0 {
            return None;
        }
        let key = self.board.hash();
        let plies = self.leaf_answers.get(key).unwrap_or_else(|| {
            let found = leaf_vcf(&mut self.leaf_vcf, &mut self.board, &mut self.nodes);
            self.leaf_answers.set(key, found);
            found
        });
        plies.map(|plies| win_in(p + plies as i32))
    }
}

/// The leaf VCF's answers by position, in a table of fixed size where a new answer
/// replaces whatever shared its slot. The leaf VCF depends on the position alone (its
/// budget is fixed and its memory cleared), so a remembered answer is the one it would
/// give again. Horizon nodes recur, by transposition and from one iteration to the
/// next, and leaf VCFs take about half the search's time in renju middle games.
struct LeafAnswers(Vec<u64>);

/// Slots of `LeafAnswers`: 128 KiB, as fast as four times as many.
const LEAF_ANSWER_BITS: u32 = 14;

impl LeafAnswers {
    fn new() -> LeafAnswers {
        LeafAnswers(vec![0; 1 << LEAF_ANSWER_BITS])
    }

    /// The slot of `key`, from its low bits.
    #[inline]
    fn slot(key: u64) -> usize {
        key as usize & ((1 << LEAF_ANSWER_BITS) - 1)
    }

    /// A slot holds the key's upper 56 bits and, in the low byte, the plies to the
    /// five (0 for no win). An empty slot matches nothing, so the rare key whose slot
    /// word would be 0 is just never remembered.
    #[inline]
    fn get(&self, key: u64) -> Option<Option<u32>> {
        let entry = self.0[Self::slot(key)];
        (entry != 0 && (entry ^ key) >> 8 == 0).then(|| {
            let plies = (entry & 0xFF) as u32;
            (plies > 0).then_some(plies)
        })
    }

    #[inline]
    fn set(&mut self, key: u64, plies: Option<u32>) {
        // A leaf VCF plays at most `LEAF_VCF_FOURS` fours, two plies each, and a five.
        debug_assert!(plies.is_none_or(|p| (1..256).contains(&p)));
        self.0[Self::slot(key)] = key & !0xFF | plies.unwrap_or(0) as u64;
    }
}

/// The short VCF a horizon node tries before its static value: the plies to the five it
/// finds for the side to move, which needs a four to start one. The nodes it spends are
/// added to `nodes`. `tune` leaves out the positions it wins, as the search never
/// evaluates them.
#[inline]
pub fn leaf_vcf(vcf: &mut Vcf, board: &mut Board, nodes: &mut u64) -> Option<u32> {
    if board.count_block4(board.side_to_move()) == 0 {
        return None;
    }
    vcf.reset(LEAF_VCF_NODES);
    let found = vcf.solve(board, LEAF_VCF_FOURS);
    *nodes += vcf.budget.nodes;
    found.map(|(_, plies)| plies)
}

/// What a singular-extension search says about the table move.
enum Singular {
    /// Only it holds the value: search it a ply deeper.
    Extend,
    /// Another move also beats beta: the node fails high with this value.
    Cut(i32),
    /// Others come close and it is expected to fail high anyway: a ply shallower.
    Reduce,
    No,
}

/// Late move reduction in plies for a quiet move, by depth and by how many moves were
/// searched before it: it grows with both, slowly.
fn reduction(depth: i32, searched: usize) -> i32 {
    static TABLE: OnceLock<Vec<[i8; 64]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..=MAX_DEPTH as usize + 1)
            .map(|d| {
                std::array::from_fn(|m| {
                    if d == 0 || m == 0 {
                        return 0;
                    }
                    let r = (d as f64).ln() * (m as f64).ln() * 10_000.0 / LMR_DIVISOR as f64;
                    ((r + LMR_BASE as f64) / 100.0) as i8
                })
            })
            .collect()
    });
    table[(depth.max(0) as usize).min(table.len() - 1)][searched.min(63)] as i32
}

/// Moves searched at a node before the rest are pruned: `3 + depth^1.32`, doubled where
/// the side to move is improving.
fn move_count_limit(depth: i32, improving: bool) -> usize {
    let limit = |d: usize| MOVE_COUNT_BASE + (d as f64).powf(MOVE_COUNT_EXPONENT) as usize;
    // A power per node showed in the profile; extensions rarely take a node past the
    // deepest iteration, and there it is computed.
    static TABLE: OnceLock<Vec<usize>> = OnceLock::new();
    let table = TABLE.get_or_init(|| (0..=MAX_DEPTH as usize + 1).map(limit).collect());
    let d = depth.max(0) as usize;
    let base = table.get(d).copied().unwrap_or_else(|| limit(d));
    if improving { 2 * base } else { base }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::random_empty;
    use crate::threat::vcf::four_moves;
    use crate::types::Rule;

    /// What `LeafAnswers` rests on: the leaf VCF gives a position the same answer for
    /// the same nodes, whatever the solver searched before.
    #[test]
    fn leaf_vcf_answers_depend_on_the_position_alone() {
        let mut rng = fastrand::Rng::with_seed(20261206);
        let mut used = Vcf::new(LEAF_VCF_NODES);
        let mut fours = Vec::new();
        let (mut asked, mut won) = (0, 0);
        for rule in Rule::ALL {
            for _ in 0..40 {
                let mut b = Board::new(15, 15, rule);
                while b.winner().is_none() && b.stone_count() < 120 {
                    let mut check = |b: &mut Board| {
                        let mut fresh_nodes = 0;
                        let fresh = leaf_vcf(&mut Vcf::new(0), b, &mut fresh_nodes);
                        for _ in 0..2 {
                            let mut used_nodes = 0;
                            let again = leaf_vcf(&mut used, b, &mut used_nodes);
                            assert_eq!((fresh, fresh_nodes), (again, used_nodes), "{b:?}");
                        }
                        asked += (fresh_nodes > 0) as u32;
                        won += fresh.is_some() as u32;
                    };
                    check(&mut b);
                    // A position the last leaf VCF passed through: after the first four
                    // it tried and its block.
                    let us = b.side_to_move();
                    four_moves(&mut b, us, &mut fours);
                    if let Some(&four) = fours.first() {
                        b.place(four, us);
                        let block = movegen::find_shape(&b, us, Shape::Five);
                        if let Some(block) = block.filter(|_| b.winner().is_none()) {
                            b.place(block, us.opp());
                            if b.winner().is_none() {
                                check(&mut b);
                            }
                            b.undo();
                        }
                        b.undo();
                    }
                    b.play(random_empty(&b, &mut rng).expect("fewer stones than points"));
                }
            }
        }
        assert!(asked >= 1000 && won >= 100, "{asked} asked, {won} won");
    }

    #[test]
    fn leaf_answers_tell_keys_of_one_slot_apart() {
        let mut answers = LeafAnswers::new();
        let a = 0x1234_5678_9abc_def0;
        let b = a ^ 1 << 40;
        assert_eq!(answers.get(a), None);
        answers.set(a, Some(5));
        assert_eq!(answers.get(a), Some(Some(5)));
        assert_eq!(answers.get(b), None);
        answers.set(b, None);
        assert_eq!(answers.get(b), Some(None));
        assert_eq!(answers.get(a), None);
    }
}
