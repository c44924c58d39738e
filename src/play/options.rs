//! The `play` command line.

use crate::arena::config::{parse_rule, parse_size};
use crate::platform;
use crate::types::{Color, Rule};
use anyhow::{Context, Result, bail};
use std::path::PathBuf;
use std::time::Duration;

pub const HELP: &str = "\
Usage: pbrain-tengen play [OPTIONS]

Play Tengen in the terminal: type moves as h8 (renju notation: letters from a on the
left, rows from 1 at the bottom) or 7,7 (protocol x,y from 0, y from the top).

Options:
  --rule R          freestyle, standard, renju or caro (or 0, 1, 4, 8; default freestyle)
  --size N | WxH    board size, 5..32 (default 15)
  --color C         your stones: black (moves first) or white (default black)
  --time SECONDS    Tengen's thinking time per move (default 1; fractions allowed)
  --depth N         search to exactly this depth instead of by time (weaker and
                    repeatable: the same moves every game on one thread)
  --threads N       search threads (default: the build profile's, every core in the
                    default build)
  --watch           Tengen plays both sides while you watch
  --pause SECONDS   with --watch, the pause after each move (default 0.5)
  --load FILE       start from a game saved as SGF or PSQ (see load below)
  --no-color        plain text (colour is also off when stdout is not a terminal or
                    NO_COLOR is set)
  --help            print this text

Commands during the game: a move, undo, restart, hint, save FILE, load FILE, help,
quit.";

/// Each search thread is an OS thread with a board and buffers of its own; a typo such
/// as `--threads 1000` should be refused, not obeyed.
const MAX_THREADS: usize = 256;

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub rule: Rule,
    pub width: usize,
    pub height: usize,
    /// The person's colour; `None` when Tengen plays both sides (`--watch`).
    pub human: Option<Color>,
    pub time: Duration,
    /// A fixed search depth instead of the clock.
    pub depth: Option<u32>,
    pub threads: usize,
    pub pause: Duration,
    pub no_color: bool,
    /// A saved game to go on from.
    pub load: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            rule: Rule::Freestyle,
            width: 15,
            height: 15,
            human: Some(Color::Black),
            time: Duration::from_secs(1),
            depth: None,
            threads: platform::default_threads(),
            pause: Duration::from_millis(500),
            no_color: false,
            load: None,
        }
    }
}

pub enum Command {
    Help,
    Play(Options),
}

pub fn parse(args: &[String]) -> Result<Command> {
    let mut options = Options::default();
    let mut colour = Color::Black;
    let mut watch = false;
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "--watch" => watch = true,
            "--no-color" => options.no_color = true,
            "--load" => {
                let path = args.next().context("--load needs a file name")?;
                options.load = Some(PathBuf::from(path));
            }
            "--rule" | "--size" | "--color" | "--time" | "--depth" | "--threads" | "--pause" => {
                let value = args
                    .next()
                    .with_context(|| format!("{flag} needs a value"))?;
                let context = || format!("{flag} {value}");
                match flag.as_str() {
                    "--rule" => options.rule = parse_rule(value).with_context(context)?,
                    "--size" => {
                        (options.width, options.height) = parse_size(value).with_context(context)?
                    }
                    "--color" => {
                        colour = match value.to_ascii_lowercase().as_str() {
                            "black" => Color::Black,
                            "white" => Color::White,
                            _ => bail!("{flag}: expected black or white, got {value:?}"),
                        }
                    }
                    "--time" => options.time = seconds(value).with_context(context)?,
                    "--pause" => options.pause = seconds(value).with_context(context)?,
                    "--depth" => {
                        options.depth = match value.parse() {
                            Ok(n) if (1..=60).contains(&n) => Some(n),
                            _ => bail!("{flag}: expected 1 to 60, got {value:?}"),
                        }
                    }
                    _ => {
                        options.threads = match value.parse() {
                            Ok(n) if (1..=MAX_THREADS).contains(&n) => n,
                            _ => bail!("{flag}: expected 1 to {MAX_THREADS}, got {value:?}"),
                        }
                    }
                }
            }
            other => bail!("unknown option {other:?}"),
        }
    }
    options.human = (!watch).then_some(colour);
    Ok(Command::Play(options))
}

/// A duration in seconds; an hour at most, because the search gets no other way to stop.
fn seconds(text: &str) -> Result<Duration> {
    match text.parse::<f64>() {
        Ok(s) if (0.0..=3600.0).contains(&s) => Ok(Duration::from_secs_f64(s)),
        _ => bail!("expected seconds from 0 to 3600"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(args: &[&str]) -> Result<Options> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        match parse(&args)? {
            Command::Play(options) => Ok(options),
            Command::Help => bail!("help"),
        }
    }

    #[test]
    fn defaults_are_freestyle_15_black_one_second() {
        let o = parsed(&[]).unwrap();
        assert_eq!(o, Options::default());
        assert_eq!((o.rule, o.width, o.height), (Rule::Freestyle, 15, 15));
        assert_eq!(o.human, Some(Color::Black));
        assert_eq!(o.time, Duration::from_secs(1));
        assert_eq!(o.threads, platform::default_threads());
    }

    #[test]
    fn every_flag_is_read() {
        let o = parsed(&[
            "--rule",
            "4",
            "--size",
            "20x15",
            "--color",
            "White",
            "--time",
            "0.05",
            "--threads",
            "3",
            "--no-color",
            "--load",
            "My Game.sgf",
        ])
        .unwrap();
        assert_eq!((o.rule, o.width, o.height), (Rule::Renju, 20, 15));
        assert_eq!(o.human, Some(Color::White));
        assert_eq!(o.time, Duration::from_millis(50));
        assert_eq!(o.threads, 3);
        assert!(o.no_color);
        assert_eq!(o.load, Some(PathBuf::from("My Game.sgf")));
        let o = parsed(&["--rule", "caro", "--size", "19", "--watch", "--pause", "0"]).unwrap();
        assert_eq!((o.rule, o.width, o.height), (Rule::Caro, 19, 19));
        assert_eq!(o.human, None);
        assert_eq!(o.pause, Duration::ZERO);
        assert_eq!(parsed(&["--depth", "6"]).unwrap().depth, Some(6));
    }

    #[test]
    fn bad_values_are_refused() {
        for args in [
            &["--rule", "gomoku"][..],
            &["--size", "4"],
            &["--size", "15x40"],
            &["--color", "red"],
            &["--time", "-1"],
            &["--time", "soon"],
            &["--threads", "0"],
            &["--threads", "257"],
            &["--depth", "0"],
            &["--depth", "deep"],
            &["--time"],
            &["--fast"],
        ] {
            assert!(parsed(args).is_err(), "{args:?}");
        }
        assert!(matches!(parse(&["--help".to_string()]), Ok(Command::Help)));
    }
}
