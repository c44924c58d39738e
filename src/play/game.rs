//! The game loop: whose turn it is, the engine's moves, the person's commands, and the
//! record kept for `save`.
//!
//! Tengen moves whenever it is its turn, so the person is only ever asked to move or,
//! once the game is over, what to do next; with `--watch` Tengen has both turns and the
//! prompt appears only at the end. The record holds one entry per stone on the board
//! and is cut back with every `undo`, so a saved game is always the position shown.

use super::notation::{Input, parse_input, point_name, renju_name};
use super::options::Options;
use super::render;
use crate::arena::game::{GameRecord, MoveRecord, Outcome, Reason};
use crate::arena::record::{self, Replay};
use crate::arena::referee::Fault;
use crate::board::Board;
use crate::board::pattern::Pattern;
use crate::engine::{Engine, EngineError};
use crate::search::{Limits, SearchResult, score_to_string};
use crate::types::{Color, Pos, Rule};
use anyhow::{Context, Result, bail};
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Moves of the expected line shown with a hint.
const HINT_LINE: usize = 6;

const HELP: &str = "\
Moves: h8 (letter: column from a on the left; number: row from 1 at the bottom) or 7,7
(protocol x,y from 0, y from the top); any case.
Commands:
  undo        take back your last move and Tengen's reply
  restart     start a new game with the same settings
  hint        Tengen's suggestion for your move, with its evaluation
  save FILE   save the game: a name ending in .sgf is written as SGF, any other as
              PSQ (Piskvork's format)
  load FILE   go on from a game saved as SGF or PSQ, on its board and, when the
              file names one, under its rule
  help        this text
  quit        leave (so does the end of input, Ctrl-D)
Board: X black, O white, [ ] the last move, x a point forbidden for black (renju).";

/// Plays games on `input` and `out` until `quit` or the end of input.
pub fn run(
    options: Options,
    colour: bool,
    echo: bool,
    mut input: impl BufRead,
    out: impl Write,
) -> Result<()> {
    let load = options.load.clone();
    let mut game = Game::new(options, colour, out)?;
    // Loaded first, so that the introduction gives the record's rule and size.
    if let Some(path) = load {
        game.load(&path)??;
    }
    game.introduce()?;
    loop {
        if game.engine_to_move() {
            game.engine_move()?;
            if game.options.human.is_none() {
                game.draw()?;
                if game.outcome.is_none() {
                    std::thread::sleep(game.options.pause);
                }
            }
            continue;
        }
        if game.changed {
            game.draw()?;
        }
        game.prompt()?;
        let mut bytes = Vec::new();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            // End of input: end the prompt's line so the shell's prompt starts clean.
            writeln!(game.out)?;
            return Ok(());
        }
        let line = String::from_utf8_lossy(&bytes);
        if echo {
            writeln!(game.out, "{}", line.trim_end())?;
        }
        let (width, height) = game.size();
        match parse_input(&line, width, height) {
            Ok(None) => {}
            Ok(Some(command)) => {
                if !game.obey(command)? {
                    return Ok(());
                }
            }
            Err(why) => writeln!(game.out, "{why}")?,
        }
    }
}

struct Game<W: Write> {
    engine: Engine,
    options: Options,
    colour: bool,
    out: W,
    /// One entry per stone on the board, in play order.
    moves: Vec<MoveRecord>,
    outcome: Option<Outcome>,
    started: Instant,
    /// When the person was last shown a new position: their thinking time starts there.
    shown: Instant,
    /// Whether the position changed since the board was last drawn.
    changed: bool,
}

impl<W: Write> Game<W> {
    fn new(options: Options, colour: bool, out: W) -> Result<Game<W>> {
        // Nothing raises the flag: each search ends on its own clock.
        let mut engine = Engine::new(Arc::new(AtomicBool::new(false)));
        engine.set_rule(options.rule);
        // The only refusal is a memory limit too small for the threads; the engine still
        // plays, so it is worth a note, not an exit.
        if let Err(note) = engine.set_threads(options.threads) {
            eprintln!("note: {note}");
        }
        // Size the table now, while the person reads the board, rather than on the
        // engine's first move, whose clock it would eat.
        if let Err(note) = engine.set_memory(0) {
            eprintln!("note: {note}");
        }
        engine.new_game(options.width as i32, options.height as i32)?;
        Ok(Game {
            engine,
            options,
            colour,
            out,
            moves: Vec::new(),
            outcome: None,
            started: Instant::now(),
            shown: Instant::now(),
            changed: true,
        })
    }

    fn board(&self) -> &Board {
        self.engine.board().expect("the game starts in Game::new")
    }

    fn size(&self) -> (usize, usize) {
        (self.board().width(), self.board().height())
    }

    fn name(&self, pos: Pos) -> String {
        point_name(pos.x(), pos.y(), self.board().height())
    }

    /// A side as the messages name it: `black (you)`, `white (Tengen)`, or just the
    /// colour when Tengen plays both.
    fn side(&self, colour: Color) -> String {
        match self.options.human {
            Some(human) if human == colour => format!("{colour} (you)"),
            Some(_) => format!("{colour} (Tengen)"),
            None => colour.to_string(),
        }
    }

    fn engine_to_move(&self) -> bool {
        self.outcome.is_none() && self.options.human != Some(self.board().side_to_move())
    }

    fn introduce(&mut self) -> Result<()> {
        let o = &self.options;
        let players = match o.human {
            Some(Color::Black) => "you play black (X) and move first".to_string(),
            Some(Color::White) => "you play white (O); Tengen opens with black".to_string(),
            None => "Tengen plays both sides".to_string(),
        };
        writeln!(
            self.out,
            "Tengen: {} on {}x{}, {players}; Tengen thinks {} s per move on {} thread{}.",
            o.rule,
            o.width,
            o.height,
            o.time.as_secs_f64(),
            o.threads,
            if o.threads == 1 { "" } else { "s" }
        )?;
        if o.rule == Rule::Renju {
            writeln!(self.out, "Black's forbidden points are marked x.")?;
        }
        if o.human.is_some() {
            writeln!(
                self.out,
                "Type a move as {} or {},{}, or help for the commands.",
                renju_name(o.width / 2, o.height / 2, o.height),
                o.width / 2,
                o.height / 2
            )?;
        }
        Ok(())
    }

    /// Draws the board, and the result if the game has just ended.
    fn draw(&mut self) -> Result<()> {
        let text = render::board(self.board(), self.colour);
        write!(self.out, "{text}")?;
        if let Some(outcome) = &self.outcome {
            let text = self.describe(outcome);
            writeln!(self.out, "{text}.")?;
        }
        self.changed = false;
        self.shown = Instant::now();
        Ok(())
    }

    fn prompt(&mut self) -> Result<()> {
        let text = match self.outcome {
            Some(_) => "game over".to_string(),
            None => format!("{} to move", self.side(self.board().side_to_move())),
        };
        write!(self.out, "{text}> ")?;
        self.out.flush()?;
        Ok(())
    }

    fn limits(&self) -> Limits {
        if let Some(depth) = self.options.depth {
            return Limits::depth(depth);
        }
        // A per-move time, as a turn limit alone: what a move leaves unused is lost, so
        // the soft limit is the hard one (the search still stops early when its best
        // move holds). In-process there is no pipe to keep a margin for.
        Limits {
            soft: self.options.time,
            hard: self.options.time,
            max_depth: None,
            max_nodes: None,
            nbest: 1,
            threat_solvers: true,
        }
    }

    fn search(&mut self) -> Result<SearchResult> {
        let limits = self.limits();
        Ok(self.engine.go(&limits, &mut |_| {})?)
    }

    fn engine_move(&mut self) -> Result<()> {
        let mover = self.board().side_to_move();
        let result = self.search()?;
        let summary = format!(
            "eval {} for {mover}, depth {}",
            score_to_string(result.score),
            result.depth
        );
        writeln!(
            self.out,
            "{} plays {}: {summary} ({} nodes, {:.2} s)",
            self.side(mover),
            self.name(result.best),
            result.nodes,
            result.elapsed.as_secs_f64()
        )?;
        self.play(result.best, result.elapsed, vec![summary]);
        Ok(())
    }

    /// Carries out a command; `false` means the session ends.
    fn obey(&mut self, command: Input) -> Result<bool> {
        match command {
            Input::Move(x, y) => self.person_move(x, y)?,
            Input::Undo => self.undo()?,
            Input::Restart => self.restart()?,
            Input::Hint => self.hint()?,
            Input::Save(path) => self.save(&path)?,
            Input::Load(path) => {
                if let Err(error) = self.load(&path)? {
                    writeln!(self.out, "{error:#}")?;
                }
            }
            Input::Help => writeln!(self.out, "{HELP}")?,
            Input::Quit => return Ok(false),
        }
        Ok(true)
    }

    fn game_over(&mut self) -> Result<()> {
        writeln!(
            self.out,
            "The game is over; type undo, restart, save FILE, load FILE or quit."
        )?;
        Ok(())
    }

    fn person_move(&mut self, x: usize, y: usize) -> Result<()> {
        if self.outcome.is_some() {
            return self.game_over();
        }
        let pos = match self.engine.empty_point(x as i32, y as i32) {
            Ok(pos) => pos,
            Err(EngineError::Occupied { .. }) => {
                let name = point_name(x, y, self.board().height());
                writeln!(self.out, "{name} is already taken.")?;
                return Ok(());
            }
            Err(error) => return Err(error.into()),
        };
        let board = self.board();
        if board.side_to_move() == Color::Black && board.is_forbidden(pos) {
            // With nothing else left black must play a forbidden point, and loses by
            // it, as Tengen would in the same place.
            if board.forbidden_points().len() < board.empty_count() {
                let text = format!(
                    "{} is forbidden for black under renju: it makes {}. The x marks show \
                     every forbidden point.",
                    self.name(pos),
                    forbidden_kind(board, pos)
                );
                writeln!(self.out, "{text}")?;
                return Ok(());
            }
        }
        let text = format!(
            "{} plays {}",
            self.side(board.side_to_move()),
            self.name(pos)
        );
        writeln!(self.out, "{text}")?;
        self.play(pos, self.shown.elapsed(), Vec::new());
        Ok(())
    }

    /// Plays the side to move's stone and records it and what it did to the game.
    fn play(&mut self, pos: Pos, thought: Duration, messages: Vec<String>) {
        let board = self.board();
        let colour = board.side_to_move();
        let forbidden = colour == Color::Black && board.is_forbidden(pos);
        self.engine.play(pos);
        let (x, y) = (pos.x() as i64, pos.y() as i64);
        self.moves.push(MoveRecord {
            x,
            y,
            color: colour,
            micros: thought.as_micros() as u64,
            messages,
        });
        let board = self.board();
        self.outcome = if forbidden {
            Some(Outcome {
                winner: Some(Color::White),
                reason: Reason::Fault(Fault::Forbidden { x, y }),
            })
        } else if let Some(winner) = board.winner() {
            Some(Outcome {
                winner: Some(winner),
                reason: Reason::Five,
            })
        } else if board.is_full() {
            Some(Outcome {
                winner: None,
                reason: Reason::BoardFull,
            })
        } else {
            None
        };
        self.changed = true;
    }

    fn describe(&self, outcome: &Outcome) -> String {
        match (&outcome.reason, outcome.winner) {
            (Reason::Five, Some(winner)) => {
                format!(
                    "{} wins with five in a row",
                    capitalised(&self.side(winner))
                )
            }
            (Reason::Fault(Fault::Forbidden { x, y }), _) => format!(
                "{} wins: {} had only forbidden points left and played {}",
                capitalised(&self.side(Color::White)),
                self.side(Color::Black),
                point_name(*x as usize, *y as usize, self.board().height())
            ),
            _ => "Draw: the board is full".to_string(),
        }
    }

    fn undo(&mut self) -> Result<()> {
        let Some(human) = self.options.human else {
            writeln!(
                self.out,
                "undo takes back your moves; with --watch there are none."
            )?;
            return Ok(());
        };
        let board = self.board();
        let history = board.history();
        let Some(first) = history
            .iter()
            .rposition(|&pos| board.stone(pos) == Some(human))
        else {
            writeln!(self.out, "Nothing to take back: you have not moved yet.")?;
            return Ok(());
        };
        // Back to before the person's last stone: it and whatever Tengen answered.
        let removed: Vec<Pos> = history[first..].to_vec();
        let names: Vec<String> = removed.iter().map(|&pos| self.name(pos)).collect();
        for pos in removed.into_iter().rev() {
            self.engine.takeback(pos.x() as i32, pos.y() as i32)?;
            self.moves.pop();
        }
        self.outcome = None;
        self.changed = true;
        writeln!(self.out, "Took back {}.", names.join(" and "))?;
        Ok(())
    }

    fn restart(&mut self) -> Result<()> {
        self.engine.restart()?;
        self.moves.clear();
        self.outcome = None;
        self.started = Instant::now();
        self.changed = true;
        writeln!(self.out, "New game.")?;
        Ok(())
    }

    fn hint(&mut self) -> Result<()> {
        if self.outcome.is_some() {
            return self.game_over();
        }
        let mover = self.board().side_to_move();
        let result = self.search()?;
        let line: Vec<String> = result
            .pv
            .iter()
            .take(HINT_LINE)
            .map(|&pos| renju_name(pos.x(), pos.y(), self.board().height()))
            .collect();
        writeln!(
            self.out,
            "Hint: {}: eval {} for {mover}, depth {}; expected line {}",
            self.name(result.best),
            score_to_string(result.score),
            result.depth,
            line.join(" ")
        )?;
        Ok(())
    }

    /// Replaces the game with the one saved in `path`. The inner `Err` says why the
    /// file cannot be loaded; the game shown is then kept as it was.
    fn load(&mut self, path: &Path) -> Result<Result<()>> {
        let (replay, rule) = match read_record(path, self.options.rule) {
            Ok(read) => read,
            Err(error) => return Ok(Err(error)),
        };
        self.engine.set_rule(rule);
        self.engine
            .new_game(replay.width as i32, replay.height as i32)?;
        self.options.rule = rule;
        self.options.width = replay.width;
        self.options.height = replay.height;
        self.moves.clear();
        self.outcome = None;
        self.started = Instant::now();
        for &(x, y) in &replay.moves {
            self.play(Pos::new(x, y), Duration::ZERO, Vec::new());
        }
        writeln!(
            self.out,
            "Loaded {} moves from {}: {rule} on {}x{}.",
            replay.moves.len(),
            path.display(),
            replay.width,
            replay.height
        )?;
        Ok(Ok(()))
    }

    fn save(&mut self, path: &Path) -> Result<()> {
        let board = self.board();
        let name = |colour: Color| match self.options.human {
            Some(human) if human == colour => "Human",
            _ => "Tengen",
        };
        let summary = match &self.outcome {
            Some(outcome) => self.describe(outcome),
            None => format!("unfinished, {} to move", board.side_to_move()),
        };
        let header = record::Header {
            application: "Tengen play",
            number: 1,
            black: name(Color::Black),
            white: name(Color::White),
            width: board.width(),
            height: board.height(),
            rule: board.rule(),
            summary: &summary,
        };
        let game = GameRecord {
            opening: Vec::new(),
            moves: self.moves.clone(),
            // SGF writes an unfinished game's result as Void: no result yet.
            outcome: self.outcome.clone().unwrap_or(Outcome {
                winner: None,
                reason: Reason::Aborted,
            }),
            stones: board.stone_count(),
            started: [None, None],
            restarted: [false; 2],
            duration: self.started.elapsed(),
            startup: std::time::Duration::ZERO,
            transcript: None,
        };
        let sgf = path
            .extension()
            .is_some_and(|ext| ext.eq_ignore_ascii_case("sgf"));
        let (text, format) = if sgf {
            (record::sgf(&header, &game), "SGF")
        } else {
            (record::psq(&header, &game), "PSQ")
        };
        let written =
            std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()));
        match written {
            Ok(()) => writeln!(
                self.out,
                "Saved {} moves to {} ({format}).",
                self.moves.len(),
                path.display()
            )?,
            Err(error) => writeln!(self.out, "{error:#}")?,
        }
        Ok(())
    }
}

/// The record in `path` with the rule to play it under (its own, or `rule` when it
/// names none), once its moves are known to make a game: each on an empty point, and
/// none after a five or a forbidden point has ended it.
fn read_record(path: &Path, rule: Rule) -> Result<(Replay, Rule)> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let replay = record::read(&text).with_context(|| format!("cannot load {}", path.display()))?;
    let rule = replay.rule.unwrap_or(rule);
    let mut board = Board::new(replay.width, replay.height, rule);
    let mut ended = false;
    for (i, &(x, y)) in replay.moves.iter().enumerate() {
        let pos = Pos::new(x, y);
        let name = point_name(x, y, replay.height);
        if ended {
            bail!(
                "cannot load {}: the game is over after move {i}, but move {}, {name}, follows",
                path.display(),
                i + 1
            );
        }
        if !board.is_empty(pos) {
            bail!(
                "cannot load {}: move {}, {name}, is on a taken point",
                path.display(),
                i + 1
            );
        }
        ended = board.side_to_move() == Color::Black && board.is_forbidden(pos);
        board.play(pos);
        ended |= board.winner().is_some();
    }
    Ok((replay, rule))
}

/// Which renju rule a black stone on forbidden `pos` breaks.
fn forbidden_kind(board: &Board, pos: Pos) -> &'static str {
    let patterns = (0..4).map(|dir| board.pattern(pos, Color::Black, dir));
    if patterns.clone().any(|p| p == Pattern::Overline) {
        "an overline (six or more in a row)"
    } else if patterns.map(Pattern::four_count).sum::<u32>() >= 2 {
        "a double four"
    } else {
        "a double three"
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forbidden_points_are_explained_by_kind() {
        type Case<'a> = (&'a [(usize, usize)], (usize, usize), &'a str);
        let cases: [Case; 3] = [
            (&[(5, 7), (6, 7), (7, 5), (7, 6)], (7, 7), "a double three"),
            (
                &[(4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6)],
                (7, 7),
                "a double four",
            ),
            (
                &[(3, 7), (4, 7), (5, 7), (7, 7), (8, 7)],
                (6, 7),
                "an overline (six or more in a row)",
            ),
        ];
        for (black, (x, y), kind) in cases {
            let mut board = Board::new(15, 15, Rule::Renju);
            for &(x, y) in black {
                board.place(Pos::new(x, y), Color::Black);
            }
            let key = Pos::new(x, y);
            assert!(board.is_forbidden(key), "{kind}");
            assert_eq!(forbidden_kind(&board, key), kind);
        }
    }

    #[test]
    fn records_that_are_no_game_are_refused() {
        let file = std::env::temp_dir().join(format!("tengen-read-{}.psq", std::process::id()));
        let error = |moves: &str, rule: Rule| {
            std::fs::write(&file, format!("Piskvorky 15x15, 11:11, 0\n{moves}-1\n")).unwrap();
            let result = read_record(&file, rule);
            result
                .map(|(replay, _)| replay.moves.len())
                .map_err(|e| format!("{e:#}"))
        };
        let taken = error("8,8,0\n9,9,0\n8,8,0\n", Rule::Freestyle).unwrap_err();
        assert!(
            taken.ends_with("move 3, h8 (7,7), is on a taken point"),
            "{taken}"
        );
        // Black makes five on the tenth move; an eleventh is one too many.
        let five: String = (1..=5).map(|x| format!("{x},1,0\n{x},2,0\n")).collect();
        assert_eq!(error(&five[..five.len() - 6], Rule::Freestyle), Ok(9));
        let after = error(&five, Rule::Freestyle).unwrap_err();
        assert!(
            after.ends_with("the game is over after move 9, but move 10, e14 (4,1), follows"),
            "{after}"
        );
        // Under renju a black stone on a forbidden point ends the game (white wins).
        let double_three = "6,8,0\n1,1,0\n7,8,0\n1,3,0\n8,6,0\n1,5,0\n8,7,0\n1,7,0\n8,8,0\n";
        assert_eq!(error(double_three, Rule::Renju), Ok(9));
        assert_eq!(
            error(&format!("{double_three}3,3,0\n"), Rule::Freestyle),
            Ok(10)
        );
        let forbidden = error(&format!("{double_three}3,3,0\n"), Rule::Renju).unwrap_err();
        assert!(
            forbidden.contains("over after move 9, but move 10, c13 (2,2), follows"),
            "{forbidden}"
        );
        std::fs::remove_file(&file).unwrap();
    }

    #[test]
    fn sides_start_sentences() {
        assert_eq!(capitalised("white (Tengen)"), "White (Tengen)");
        assert_eq!(capitalised(""), "");
    }
}
