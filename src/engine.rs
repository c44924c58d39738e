//! The engine façade: the game the protocol talks about, and the search that plays it.
//!
//! It owns the board, the rule and the searcher, and checks every change against the
//! game before making it, so a rejected request leaves the game exactly as it was. It
//! knows nothing of text: the protocol layer parses commands, calls these methods, and
//! prints what they return.
//!
//! Its promise is the legality guard in [`Engine::go`]: whatever the search answers, the
//! move returned is an empty point of the board and, under renju, never a forbidden
//! point for black (unless the board has nothing else left).

use crate::board::Board;
use crate::memory;
use crate::search::{Limits, SearchInfo, SearchResult, Searcher};
use crate::types::{Color, MAX_SIZE, MIN_SIZE, Pos, Rule};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// What a `BOARD` line says about a point, relative to the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// A stone of the side to move (the brain).
    Own,
    /// A stone of the other side.
    Opponent,
    /// A point out of play (continuous game: a finished line or a forbidden point).
    Blocked,
}

/// Why a request was refused. The game is unchanged whenever one is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// No `START` yet.
    NoGame,
    BadSize {
        width: i32,
        height: i32,
    },
    OffBoard {
        x: i32,
        y: i32,
    },
    Occupied {
        x: i32,
        y: i32,
    },
    NoStone {
        x: i32,
        y: i32,
    },
    Repeated {
        x: i32,
        y: i32,
    },
    /// `BEGIN` asks the brain to open, but stones are on the board.
    NotEmpty,
    /// Own and opponent stone counts that cannot occur with the brain to move.
    BadCounts {
        own: usize,
        opponent: usize,
    },
    /// No empty point is left to play.
    NoMove,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            EngineError::NoGame => write!(f, "no game started (send START first)"),
            EngineError::BadSize { width, height } => {
                write!(
                    f,
                    "unsupported board size {width}x{height} (sides {MIN_SIZE} to {MAX_SIZE})"
                )
            }
            EngineError::OffBoard { x, y } => write!(f, "{x},{y} is off the board"),
            EngineError::Occupied { x, y } => write!(f, "{x},{y} is not empty"),
            EngineError::NoStone { x, y } => write!(f, "no stone at {x},{y}"),
            EngineError::Repeated { x, y } => write!(f, "{x},{y} is listed twice"),
            EngineError::NotEmpty => write!(f, "the board is not empty"),
            EngineError::BadCounts { own, opponent } => write!(
                f,
                "{own} own and {opponent} opponent stones cannot be a position with us to move"
            ),
            EngineError::NoMove => write!(f, "no empty point left"),
        }
    }
}

impl std::error::Error for EngineError {}

/// The game and the search.
pub struct Engine {
    board: Option<Board>,
    /// Points out of play, kept apart so the board can be rebuilt (a rule change, a
    /// `TAKEBACK` of an older stone) with blocks laid before stones.
    blocked: Vec<Pos>,
    rule: Rule,
    searcher: Searcher,
    stop: Arc<AtomicBool>,
    /// `INFO max_memory` (0: the memory module's default) and Yixin-Board's
    /// `INFO hash_size` in KiB, as far as they were sent.
    max_memory: Option<u64>,
    hash_kib: Option<u64>,
    /// Whether the table may hold entries: a search ran since it was last cleared.
    /// GomocupJudge charges `START` and `INFO` work to the first move, so a clean table
    /// is not cleared again (`START` then `INFO rule` would clear it twice).
    table_used: bool,
}

impl Engine {
    /// An engine with no game yet, searching until `stop` is raised or time is up.
    pub fn new(stop: Arc<AtomicBool>) -> Engine {
        let mut searcher = Searcher::new();
        searcher.set_threads(crate::platform::default_threads());
        Engine {
            board: None,
            blocked: Vec::new(),
            rule: Rule::Freestyle,
            searcher,
            stop,
            max_memory: None,
            hash_kib: None,
            table_used: false,
        }
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The current position, once a game has started.
    pub fn board(&self) -> Option<&Board> {
        self.board.as_ref()
    }

    fn board_or_err(&self) -> Result<&Board, EngineError> {
        self.board.as_ref().ok_or(EngineError::NoGame)
    }

    /// Starts a new game on an empty `width` × `height` board.
    pub fn new_game(&mut self, width: i32, height: i32) -> Result<(), EngineError> {
        let side = MIN_SIZE as i32..=MAX_SIZE as i32;
        if !side.contains(&width) || !side.contains(&height) {
            return Err(EngineError::BadSize { width, height });
        }
        self.board = Some(Board::new(width as usize, height as usize, self.rule));
        self.blocked.clear();
        self.clear_hash();
        Ok(())
    }

    /// Starts a new game on a board of the current size.
    pub fn restart(&mut self) -> Result<(), EngineError> {
        let board = self.board_or_err()?;
        let (width, height) = (board.width() as i32, board.height() as i32);
        self.new_game(width, height)
    }

    /// Changes the rule, keeping the stones of a game in progress.
    pub fn set_rule(&mut self, rule: Rule) {
        if rule == self.rule {
            return;
        }
        self.rule = rule;
        if let Some(board) = &self.board {
            let stones = board.stones().to_vec();
            self.board = Some(self.rebuilt(board.width(), board.height(), &self.blocked, &stones));
        }
        // Stored values were computed under the old rule.
        self.clear_hash();
    }

    fn rebuilt(
        &self,
        width: usize,
        height: usize,
        blocked: &[Pos],
        stones: &[(Pos, Color)],
    ) -> Board {
        let mut board = Board::new(width, height, self.rule);
        // Blocks first: the board does not log them for undo.
        for &pos in blocked {
            board.block(pos);
        }
        for &(pos, color) in stones {
            board.place(pos, color);
        }
        board
    }

    /// The point (x, y) of the current board.
    pub fn point(&self, x: i32, y: i32) -> Result<Pos, EngineError> {
        let board = self.board_or_err()?;
        if !board.contains(x, y) {
            return Err(EngineError::OffBoard { x, y });
        }
        Ok(Pos::new(x as usize, y as usize))
    }

    /// The point (x, y), which must be empty.
    pub fn empty_point(&self, x: i32, y: i32) -> Result<Pos, EngineError> {
        let pos = self.point(x, y)?;
        if !self.board_or_err()?.is_empty(pos) {
            return Err(EngineError::Occupied { x, y });
        }
        Ok(pos)
    }

    /// Plays the side to move's stone on `pos`, an empty point from [`Engine::empty_point`]
    /// or [`Engine::go`].
    pub fn play(&mut self, pos: Pos) {
        let board = self.board.as_mut().expect("play needs a game");
        assert!(board.is_empty(pos), "play on a non-empty point {pos}");
        board.play(pos);
    }

    /// Removes the stone at (x, y), the last one placed or any other.
    pub fn takeback(&mut self, x: i32, y: i32) -> Result<(), EngineError> {
        let pos = self.point(x, y)?;
        let board = self.board.as_mut().ok_or(EngineError::NoGame)?;
        if board.stone(pos).is_none() {
            return Err(EngineError::NoStone { x, y });
        }
        if board.last_move() == Some(pos) {
            board.undo();
        } else {
            let stones: Vec<_> = board
                .stones()
                .iter()
                .copied()
                .filter(|&(p, _)| p != pos)
                .collect();
            let (width, height) = (board.width(), board.height());
            self.board = Some(self.rebuilt(width, height, &self.blocked, &stones));
        }
        Ok(())
    }

    /// Replaces the position with the stones and blocks of a `BOARD` command, listed in
    /// play order (renju needs the order; other rules accept any).
    ///
    /// The side to move comes from the counts: as many own stones as the opponent's
    /// means we are black, one fewer means white. With `strict` false (Yixin-Board's
    /// `YXBOARD`, which may set up any position for analysis) other counts are accepted
    /// and the first stone listed is black.
    pub fn set_position(
        &mut self,
        cells: &[((i32, i32), Field)],
        strict: bool,
    ) -> Result<(), EngineError> {
        let board = self.board_or_err()?;
        let (width, height) = (board.width(), board.height());
        let mut seen = vec![false; width * height];
        let mut blocked = Vec::new();
        let mut listed = Vec::new();
        for &((x, y), field) in cells {
            let pos = self.point(x, y)?;
            let slot = &mut seen[y as usize * width + x as usize];
            if *slot {
                return Err(EngineError::Repeated { x, y });
            }
            *slot = true;
            match field {
                Field::Blocked => blocked.push(pos),
                Field::Own | Field::Opponent => listed.push((pos, field == Field::Own)),
            }
        }
        let own = listed.iter().filter(|&&(_, own)| own).count();
        let opponent = listed.len() - own;
        let own_color = if own == opponent {
            Color::Black
        } else if own + 1 == opponent {
            Color::White
        } else if (!blocked.is_empty() || !strict) && own < opponent {
            // Finished lines of a continuous game (or an analysis setup) upset the
            // counts; black, the side with fewer stones, is to move.
            Color::Black
        } else if !strict {
            // More own stones than the opponent's cannot be shown with us to move; take
            // the first stone as black, as Yixin-Board does.
            if listed.first().is_some_and(|&(_, own)| own) {
                Color::Black
            } else {
                Color::White
            }
        } else {
            return Err(EngineError::BadCounts { own, opponent });
        };
        let stones: Vec<(Pos, Color)> = listed
            .into_iter()
            .map(|(pos, own)| (pos, if own { own_color } else { own_color.opp() }))
            .collect();
        self.board = Some(self.rebuilt(width, height, &blocked, &stones));
        self.blocked = blocked;
        Ok(())
    }

    /// Replaces the position with `moves` played in turn from black (a Swap2 opening).
    pub fn set_opening(&mut self, moves: &[(i32, i32)]) -> Result<(), EngineError> {
        let black_first = [Field::Own, Field::Opponent];
        let cells: Vec<_> = moves
            .iter()
            .enumerate()
            .map(|(i, &xy)| (xy, black_first[i % 2]))
            .collect();
        // Alternating from black gives equal counts or one more black stone; either way
        // the lenient colouring (first stone black) is exactly the move order.
        self.set_position(&cells, false)
    }

    /// Whether the side to move may play `pos`: empty, and not forbidden for black.
    pub fn is_legal(&self, pos: Pos) -> bool {
        self.board.as_ref().is_some_and(|board| legal(board, pos))
    }

    /// Searches the position and returns the result with a move that is legal to play.
    pub fn go(
        &mut self,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> Result<SearchResult, EngineError> {
        let board = self.board.as_ref().ok_or(EngineError::NoGame)?;
        if !board.points().any(|p| board.is_empty(p)) {
            return Err(EngineError::NoMove);
        }
        self.table_used = true;
        let mut result = self.searcher.think(board, limits, &self.stop, report);
        if !legal(board, result.best) {
            result.best = result
                .nbest
                .iter()
                .map(|&(pos, _)| pos)
                .chain(result.pv.first().copied())
                .find(|&pos| legal(board, pos))
                .unwrap_or_else(|| fallback_move(board));
        }
        Ok(result)
    }

    /// Sets the number of search threads. Each thread needs memory of its own, so a
    /// table sized under a memory limit is sized again; an error says the limit is now
    /// too small to play well (the engine still plays).
    pub fn set_threads(&mut self, threads: usize) -> Result<(), String> {
        self.searcher.set_threads(threads.max(1));
        if self.max_memory.is_some() || self.hash_kib.is_some() {
            self.apply_memory()
        } else {
            Ok(())
        }
    }

    /// Makes every move the static move order's first choice, without search: the
    /// one-ply baseline that matches measure the search against.
    pub fn set_one_ply(&mut self, on: bool) {
        self.searcher.set_one_ply(on);
    }

    /// Sets the process memory limit in bytes (0: the default limit). An error says the
    /// limit is too small to play well; the engine still plays.
    pub fn set_memory(&mut self, bytes: u64) -> Result<(), String> {
        self.max_memory = Some(bytes);
        self.apply_memory()
    }

    /// Sets the hash table size in KiB, as Yixin-Board's `INFO hash_size` does. The
    /// search takes a process limit, so this asks for the limit that leaves a table of
    /// that size (rounded down to a power of two), within `max_memory` if one was set.
    pub fn set_hash_size(&mut self, kib: u64) -> Result<(), String> {
        self.hash_kib = Some(kib);
        self.apply_memory()
    }

    fn apply_memory(&mut self) -> Result<(), String> {
        let limit = self.max_memory.unwrap_or(0);
        let Some(kib) = self.hash_kib else {
            return self.searcher.set_memory(limit);
        };
        let process =
            memory::limit_for_table_bytes(kib.saturating_mul(1024), self.searcher.threads());
        self.searcher.set_memory(if limit == 0 {
            process
        } else {
            process.min(limit)
        })
    }

    /// Forgets everything the search has learnt (`YXHASHCLEAR`).
    pub fn clear_hash(&mut self) {
        if std::mem::take(&mut self.table_used) {
            self.searcher.clear();
        }
    }
}

fn legal(board: &Board, pos: Pos) -> bool {
    board.is_empty(pos) && !(board.side_to_move() == Color::Black && board.is_forbidden(pos))
}

/// A move when the search gave none that is legal: a win, else a block of the
/// opponent's five, else the point with most stones around it (nearest the centre on
/// ties). Under renju black may be left with forbidden points only; then any empty one.
fn fallback_move(board: &Board) -> Pos {
    let me = board.side_to_move();
    let candidates: Vec<Pos> = board.points().filter(|&p| legal(board, p)).collect();
    let Some(&first) = candidates.first() else {
        return board
            .points()
            .find(|&p| board.is_empty(p))
            .unwrap_or(Pos::NONE);
    };
    if let Some(&win) = candidates.iter().find(|&&p| board.is_winning_move(p, me)) {
        return win;
    }
    if let Some(&block) = candidates
        .iter()
        .find(|&&p| board.is_winning_move(p, me.opp()))
    {
        return block;
    }
    let centre = |p: Pos| {
        let dx = (2 * p.x() as i32 + 1 - board.width() as i32).abs();
        let dy = (2 * p.y() as i32 + 1 - board.height() as i32).abs();
        dx.max(dy)
    };
    candidates
        .into_iter()
        .min_by_key(|&p| (std::cmp::Reverse(board.near(p)), centre(p)))
        .unwrap_or(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine() -> Engine {
        Engine::new(Arc::new(AtomicBool::new(false)))
    }

    fn started(size: i32, rule: Rule) -> Engine {
        let mut e = engine();
        e.set_rule(rule);
        e.new_game(size, size).unwrap();
        e
    }

    fn stones(e: &Engine) -> Vec<(usize, usize, Color)> {
        let mut v: Vec<_> = e
            .board()
            .unwrap()
            .stones()
            .iter()
            .map(|&(p, c)| (p.x(), p.y(), c))
            .collect();
        v.sort();
        v
    }

    type Placed = ((i32, i32), Field);

    fn own(x: i32, y: i32) -> ((i32, i32), Field) {
        ((x, y), Field::Own)
    }

    fn opp(x: i32, y: i32) -> ((i32, i32), Field) {
        ((x, y), Field::Opponent)
    }

    #[test]
    fn sizes_outside_5_to_32_are_refused() {
        let mut e = engine();
        for (w, h) in [(4, 4), (33, 33), (0, 15), (15, -1), (20, 40)] {
            assert_eq!(
                e.new_game(w, h),
                Err(EngineError::BadSize {
                    width: w,
                    height: h
                })
            );
            assert!(e.board().is_none());
        }
        e.new_game(5, 32).unwrap();
        assert_eq!(
            (e.board().unwrap().width(), e.board().unwrap().height()),
            (5, 32)
        );
        assert!(e.new_game(3, 3).is_err());
        assert_eq!(
            e.board().unwrap().width(),
            5,
            "a refused START keeps the old game"
        );
    }

    #[test]
    fn nothing_works_before_start() {
        let mut e = engine();
        assert_eq!(e.point(1, 1), Err(EngineError::NoGame));
        assert_eq!(e.takeback(1, 1), Err(EngineError::NoGame));
        assert_eq!(e.set_position(&[], true), Err(EngineError::NoGame));
        assert_eq!(e.restart(), Err(EngineError::NoGame));
    }

    #[test]
    fn points_are_checked_against_the_board() {
        let mut e = started(15, Rule::Freestyle);
        assert_eq!(e.point(15, 0), Err(EngineError::OffBoard { x: 15, y: 0 }));
        assert_eq!(e.point(0, -1), Err(EngineError::OffBoard { x: 0, y: -1 }));
        let p = e.empty_point(7, 7).unwrap();
        e.play(p);
        assert_eq!(
            e.empty_point(7, 7),
            Err(EngineError::Occupied { x: 7, y: 7 })
        );
    }

    #[test]
    fn side_to_move_comes_from_the_counts() {
        let mut e = started(15, Rule::Freestyle);
        // Listed out of move order: the counts still make us white.
        e.set_position(&[own(1, 1), opp(2, 2), opp(3, 3)], true)
            .unwrap();
        assert_eq!(
            stones(&e),
            [
                (1, 1, Color::White),
                (2, 2, Color::Black),
                (3, 3, Color::Black)
            ]
        );
        assert_eq!(e.board().unwrap().side_to_move(), Color::White);
        e.set_position(&[opp(2, 2), own(1, 1)], true).unwrap();
        assert_eq!(stones(&e), [(1, 1, Color::Black), (2, 2, Color::White)]);
        assert_eq!(e.board().unwrap().side_to_move(), Color::Black);
    }

    #[test]
    fn bad_positions_leave_the_game_unchanged() {
        let mut e = started(15, Rule::Freestyle);
        e.set_position(&[own(7, 7), opp(8, 8)], true).unwrap();
        let before = stones(&e);
        let bad: [(&[Placed], EngineError); 4] = [
            (
                &[own(1, 1), own(2, 2)],
                EngineError::BadCounts {
                    own: 2,
                    opponent: 0,
                },
            ),
            (
                &[own(1, 1), opp(2, 2), opp(3, 3), opp(4, 4)],
                EngineError::BadCounts {
                    own: 1,
                    opponent: 3,
                },
            ),
            (
                &[own(1, 1), opp(1, 1)],
                EngineError::Repeated { x: 1, y: 1 },
            ),
            (
                &[own(1, 1), opp(15, 1)],
                EngineError::OffBoard { x: 15, y: 1 },
            ),
        ];
        for (cells, error) in bad {
            assert_eq!(e.set_position(cells, true), Err(error));
            assert_eq!(stones(&e), before);
        }
    }

    #[test]
    fn lenient_positions_take_the_first_stone_as_black() {
        let mut e = started(15, Rule::Renju);
        e.set_position(&[own(1, 1), own(2, 2), own(3, 3), opp(9, 9)], false)
            .unwrap();
        assert!(stones(&e).iter().filter(|s| s.2 == Color::Black).count() == 3);
        e.set_position(&[opp(1, 1), opp(2, 2), own(3, 3)], false)
            .unwrap();
        assert_eq!(e.board().unwrap().stone(Pos::new(1, 1)), Some(Color::Black));
    }

    #[test]
    fn blocked_points_are_out_of_play_and_survive_rebuilds() {
        let mut e = started(15, Rule::Freestyle);
        let cells = [
            ((0, 0), Field::Blocked),
            own(7, 7),
            opp(8, 8),
            own(9, 9),
            opp(10, 10),
        ];
        e.set_position(&cells, true).unwrap();
        assert_eq!(
            e.empty_point(0, 0),
            Err(EngineError::Occupied { x: 0, y: 0 })
        );
        assert_eq!(e.takeback(0, 0), Err(EngineError::NoStone { x: 0, y: 0 }));
        e.takeback(8, 8).unwrap();
        e.set_rule(Rule::Standard);
        assert!(!e.board().unwrap().is_empty(Pos::new(0, 0)));
        assert_eq!(stones(&e).len(), 3);
    }

    #[test]
    fn takeback_removes_any_stone_and_refuses_empty_points() {
        let mut e = started(15, Rule::Freestyle);
        for (x, y) in [(7, 7), (8, 8), (9, 9)] {
            let p = e.empty_point(x, y).unwrap();
            e.play(p);
        }
        assert_eq!(e.takeback(0, 0), Err(EngineError::NoStone { x: 0, y: 0 }));
        assert_eq!(
            e.takeback(20, 0),
            Err(EngineError::OffBoard { x: 20, y: 0 })
        );
        assert_eq!(stones(&e).len(), 3);
        e.takeback(9, 9).unwrap();
        e.takeback(7, 7).unwrap();
        assert_eq!(stones(&e), [(8, 8, Color::White)]);
        assert_eq!(e.board().unwrap().side_to_move(), Color::Black);
    }

    #[test]
    fn a_rule_change_keeps_the_stones_in_order() {
        let mut e = started(15, Rule::Freestyle);
        e.set_position(&[own(7, 7), opp(7, 8), own(8, 8), opp(9, 9)], true)
            .unwrap();
        let order: Vec<Pos> = e.board().unwrap().history().to_vec();
        e.set_rule(Rule::Renju);
        assert_eq!(e.board().unwrap().rule(), Rule::Renju);
        assert_eq!(e.board().unwrap().history(), order);
        e.restart().unwrap();
        assert_eq!(e.board().unwrap().stone_count(), 0);
        assert_eq!(e.board().unwrap().rule(), Rule::Renju);
    }

    #[test]
    fn openings_alternate_from_black() {
        let mut e = started(15, Rule::Standard);
        e.set_opening(&[(7, 7), (8, 7), (9, 9)]).unwrap();
        assert_eq!(
            stones(&e),
            [
                (7, 7, Color::Black),
                (8, 7, Color::White),
                (9, 9, Color::Black)
            ]
        );
        assert_eq!(
            e.set_opening(&[(7, 7), (7, 7)]),
            Err(EngineError::Repeated { x: 7, y: 7 })
        );
    }

    #[test]
    fn memory_limits_too_small_to_play_are_reported() {
        let mut e = engine();
        assert!(e.set_memory(1).is_err());
        assert!(e.set_memory(0).is_ok(), "0 is the default limit");
        assert!(e.set_memory(367_001_600).is_ok());
        assert!(e.set_threads(2).is_ok());
    }

    #[test]
    fn more_threads_may_not_fit_a_tight_limit() {
        let mut e = engine();
        assert!(e.set_threads(4).is_ok(), "no limit given: nothing to fit");
        assert!(e.set_threads(1).is_ok());
        e.set_memory(30 << 20).unwrap();
        assert!(
            e.set_threads(2).is_err(),
            "each thread needs memory of its own"
        );
        assert!(e.set_threads(1).is_ok());
    }

    #[test]
    fn hash_size_asks_for_a_table_of_that_size() {
        let mut e = engine();
        assert!(
            e.set_hash_size(1024).is_ok(),
            "a 1 MiB table is the smallest playable"
        );
        assert!(e.set_hash_size(512).is_err());
        let mut e = engine();
        // One thread: the default build's default (every core) needs more memory.
        e.set_threads(1).unwrap();
        e.set_memory(30 << 20).unwrap();
        assert!(
            e.set_hash_size(1 << 20).is_ok(),
            "1 GiB asked, capped by max_memory"
        );
    }

    fn board_from(rule: Rule, black: &[(usize, usize)], white: &[(usize, usize)]) -> Board {
        let mut b = Board::new(15, 15, rule);
        for &(x, y) in black {
            b.place(Pos::new(x, y), Color::Black);
        }
        for &(x, y) in white {
            b.place(Pos::new(x, y), Color::White);
        }
        b
    }

    #[test]
    fn fallback_wins_then_blocks() {
        let b = board_from(
            Rule::Freestyle,
            &[(3, 3), (4, 3), (5, 3), (6, 3)],
            &[(3, 9), (4, 9), (5, 9), (6, 9)],
        );
        assert_eq!(b.side_to_move(), Color::Black);
        let win = fallback_move(&b);
        assert!(win == Pos::new(2, 3) || win == Pos::new(7, 3), "{win}");

        let b = board_from(
            Rule::Freestyle,
            &[(0, 0), (14, 14), (0, 14), (14, 0)],
            &[(3, 9), (4, 9), (5, 9), (6, 9)],
        );
        let block = fallback_move(&b);
        assert!(
            block == Pos::new(2, 9) || block == Pos::new(7, 9),
            "{block}"
        );
    }

    #[test]
    fn fallback_on_an_empty_board_takes_the_centre() {
        assert_eq!(
            fallback_move(&Board::new(15, 15, Rule::Freestyle)),
            Pos::new(7, 7)
        );
    }

    #[test]
    fn fallback_never_takes_a_forbidden_point() {
        // Black to move; (7,7) would be a double three, and it is the most crowded point.
        let b = board_from(
            Rule::Renju,
            &[(5, 7), (6, 7), (7, 5), (7, 6)],
            &[(0, 0), (14, 0), (0, 14), (14, 14)],
        );
        assert!(b.is_forbidden(Pos::new(7, 7)));
        let m = fallback_move(&b);
        assert!(b.is_empty(m) && !b.is_forbidden(m), "{m}");
    }
}
