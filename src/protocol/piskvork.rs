//! Handlers for the official Piskvork/Gomocup commands: game set-up, moves, `INFO`,
//! `ABOUT`, and the optional `RECTSTART`, `RESTART`, `TAKEBACK` and `PLAY`.

use super::command::Info;
use super::controller::{Controller, Think};
use crate::engine::{EngineError, Field};

/// The `ABOUT` line: `key="value"` pairs, as c-gomoku-cli and Piskvork parse them.
const ABOUT: &str = concat!(
    "name=\"Tengen\", version=\"",
    env!("CARGO_PKG_VERSION"),
    "\", author=\"The Tengen authors\""
);

impl Controller {
    /// `START n` / `RECTSTART w,h`: a new game; everything from the last one is reset.
    pub(super) fn start(&mut self, width: i32, height: i32) {
        match self.engine.new_game(width, height) {
            Ok(()) => self.new_game_ok(),
            Err(error) => self.refuse(error),
        }
    }

    /// `RESTART`: a new game on a board of the same size.
    pub(super) fn restart(&mut self) {
        match self.engine.restart() {
            Ok(()) => self.new_game_ok(),
            Err(error) => self.refuse(error),
        }
    }

    fn new_game_ok(&mut self) {
        // The match clock of the last game means nothing in this one; the limits stay
        // (c-gomoku-cli keeps the process between games and resends them anyway).
        self.time.left_ms = None;
        self.out.line("OK");
    }

    /// `BEGIN`: we open the game on the empty board.
    pub(super) fn begin(&mut self, think: Think) {
        match self.engine.board() {
            None => self.refuse(EngineError::NoGame),
            Some(board) if board.stone_count() > 0 => self.refuse(EngineError::NotEmpty),
            Some(_) => self.think_and_move(think),
        }
    }

    /// `TURN x,y`: the opponent's move, then ours.
    pub(super) fn turn(&mut self, x: i32, y: i32, think: Think) {
        match self.engine.empty_point(x, y) {
            Ok(pos) => {
                self.engine.play(pos);
                self.think_and_move(think);
            }
            Err(error) => self.refuse(error),
        }
    }

    /// `BOARD … DONE`: a whole new position, then our move.
    pub(super) fn board(&mut self, cells: &[((i32, i32), Field)], think: Think) {
        match self.engine.set_position(cells, true) {
            Ok(()) => self.think_and_move(think),
            Err(error) => self.refuse(error),
        }
    }

    /// `TAKEBACK x,y`: remove that stone.
    pub(super) fn takeback(&mut self, x: i32, y: i32) {
        match self.engine.takeback(x, y) {
            Ok(()) => self.out.line("OK"),
            Err(error) => self.refuse(error),
        }
    }

    /// `PLAY x,y`: the manager imposes our move; we play it and echo it.
    pub(super) fn play(&mut self, x: i32, y: i32) {
        match self.engine.empty_point(x, y) {
            Ok(pos) => {
                self.engine.play(pos);
                self.out.line(&pos.to_string());
            }
            Err(error) => self.refuse(error),
        }
    }

    pub(super) fn about(&self) {
        self.out.line(ABOUT);
    }

    /// `INFO key value`. Never answered; problems wait for the next other command.
    pub(super) fn info(&mut self, info: Info) {
        let result = match info {
            Info::TimeoutTurn(ms) => {
                self.time.turn_ms = Some(ms);
                Ok(())
            }
            Info::TimeoutMatch(ms) => {
                self.time.match_ms = ms;
                Ok(())
            }
            Info::TimeLeft(ms) => {
                self.time.left_ms = Some(ms);
                Ok(())
            }
            Info::MaxMemory(bytes) => self.engine.set_memory(bytes),
            Info::Rule(rule) => {
                self.engine.set_rule(rule);
                Ok(())
            }
            Info::ThreadNum(threads) => self.engine.set_threads(threads),
            Info::MaxDepth(depth) => {
                self.max_depth = depth;
                Ok(())
            }
            Info::MaxNode(nodes) => {
                self.max_nodes = nodes;
                Ok(())
            }
            Info::HashSize(kib) => self.engine.set_hash_size(kib),
            Info::GameType(_) | Info::Ignored => Ok(()),
            Info::Invalid(reason) => Err(reason),
        };
        if let Err(reason) = result {
            self.info_errors.push(reason);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn about_is_key_value_pairs() {
        let pairs: Vec<&str> = super::ABOUT.split(", ").collect();
        assert_eq!(pairs.len(), 3);
        for pair in pairs {
            let (key, value) = pair.split_once('=').expect("key=value");
            assert!(key.chars().all(|c| c.is_ascii_lowercase()), "{key}");
            assert!(
                value.len() >= 2 && value.starts_with('"') && value.ends_with('"'),
                "{value}"
            );
        }
        assert!(super::ABOUT.starts_with("name=\"Tengen\""));
    }
}
