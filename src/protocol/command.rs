//! The typed commands the reader thread hands to the controller.
//!
//! Coordinates stay raw `(x, y)` integers here: whether a point is on the board or free
//! depends on the game, which only the controller knows.

use crate::engine::Field;
use crate::types::Rule;

/// A point as the manager wrote it: column `x`, row `y`, not yet checked against the board.
pub type Coord = (i32, i32);

/// One command from the manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n` (`width == height`) or `RECTSTART w,h`.
    Start {
        width: i32,
        height: i32,
    },
    Restart,
    Begin,
    Turn(Coord),
    /// `BOARD … DONE` (`think` is true) or `YXBOARD … DONE` (set the position only).
    Board {
        think: bool,
        cells: Vec<(Coord, Field)>,
    },
    /// `SWAP2BOARD … DONE`: the opening stones in move order.
    Swap2Board(Vec<Coord>),
    Info(Info),
    End,
    About,
    Takeback(Coord),
    Play(Coord),
    /// `YXSTOP` or `STOP`.
    Stop,
    ShowForbid,
    HashClear,
    /// `YXNBEST n`.
    NBest(usize),
    /// `BENCH [depth]` (Rapfi): the bench positions searched to a fixed depth.
    Bench(Option<u32>),
    /// A known command whose arguments cannot be used; the reason for the `ERROR` line.
    Invalid(String),
    /// A line that is no command the brain knows.
    Unknown(String),
}

impl Command {
    /// Whether the command starts a search, and so can be cut short by `YXSTOP`.
    pub fn thinks(&self) -> bool {
        match self {
            Command::Begin
            | Command::Turn(_)
            | Command::Swap2Board(_)
            | Command::NBest(_)
            | Command::Board { think: true, .. } => true,
            Command::Start { .. }
            | Command::Restart
            | Command::Board { think: false, .. }
            | Command::Info(_)
            | Command::End
            | Command::About
            | Command::Takeback(_)
            | Command::Play(_)
            | Command::Stop
            | Command::ShowForbid
            | Command::HashClear
            | Command::Bench(_)
            | Command::Invalid(_)
            | Command::Unknown(_) => false,
        }
    }
}

/// One `INFO key value` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// Milliseconds per move; 0 means "answer at once".
    TimeoutTurn(u64),
    /// Milliseconds per match; 0 means no limit.
    TimeoutMatch(u64),
    /// Milliseconds of match time left; may be negative.
    TimeLeft(i64),
    /// Bytes; 0 means no limit.
    MaxMemory(u64),
    GameType(i64),
    Rule(Rule),
    /// Search threads (Yixin-Board, c-gomoku-cli).
    ThreadNum(usize),
    /// Depth limit; `None` means no limit.
    MaxDepth(Option<u32>),
    /// Node limit; `None` means no limit.
    MaxNode(Option<u64>),
    /// Hash table size in KiB (Yixin-Board).
    HashSize(u64),
    /// Keys the brain accepts and has no use for (`evaluate`, `folder`, unknown keys).
    Ignored,
    /// A key with a value the brain cannot use; reported after the next non-INFO command.
    Invalid(String),
}
