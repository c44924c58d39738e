//! `pbrain-tengen play`: a person plays Tengen (or watches it play itself) in a terminal.
//!
//! This is a tool for people, not the brain: nothing here talks to a manager, so it
//! writes plain text to its own writer instead of going through `crate::output`, whose
//! one-line-per-reply and silence-after-`END` rules serve managers and would break a
//! drawn board and a prompt left open for typing. The engine is driven through
//! [`crate::engine::Engine`], which guards legality, and the search prints nothing.
//!
//! `options` reads the command line, `notation` reads and writes points and typed
//! lines, `render` draws the board and `game` runs the game loop.

mod game;
mod notation;
mod options;
mod render;

use anyhow::Result;
use std::io::IsTerminal;

/// Runs `pbrain-tengen play ARGS…` (`args` excludes the word `play`) and returns the
/// exit status: 0 after a game session, 2 for a bad command line.
pub fn run(args: &[String]) -> Result<i32> {
    let options = match options::parse(args) {
        Ok(options::Command::Play(options)) => options,
        Ok(options::Command::Help) => {
            println!("{}", options::HELP);
            return Ok(0);
        }
        Err(error) => {
            eprintln!("play: {error:#}\nSee: pbrain-tengen play --help");
            return Ok(2);
        }
    };
    let stdout = std::io::stdout();
    let stdin = std::io::stdin();
    // Colours are escape codes: only a terminal shows them as colours, and NO_COLOR is
    // the common way to turn them off everywhere.
    let colour =
        !options.no_color && stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none();
    // A terminal echoes what is typed; without one, echoing keeps each command beside
    // its prompt in the transcript.
    let echo = !stdin.is_terminal();
    game::run(options, colour, echo, stdin.lock(), stdout.lock())?;
    Ok(0)
}
