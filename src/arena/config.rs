//! The arena's command line: engines, game settings, match settings and output, parsed
//! into a checked [`Config`]. The syntax follows c-gomoku-cli (`-engine key=value …`)
//! with GNU-style double dashes; `HELP` is the reference.

use super::openings::Format;
use super::stats::Sprt;
use crate::types::{MAX_SIZE, MIN_SIZE, Rule};
use anyhow::{Context, Result, bail};
use std::path::PathBuf;
use std::time::Duration;

pub const HELP: &str = "\
Usage: pbrain-tengen arena [OPTIONS] --engine KEY=VALUE... --engine KEY=VALUE... [--engine ...]

Plays Piskvork (Gomocup protocol) brains against each other and reports the result.
Every opening is played twice, once with each engine as black.

Engines (keys as in c-gomoku-cli; an engine's own keys override --each):
  --engine KEY=VALUE...   add an engine (at least two)
  --each KEY=VALUE...     give keys to every engine
    cmd=COMMAND             command line, split at spaces; quote arguments holding spaces
                            (\"cmd=./pbrain-foo --opt 1\"). Required.
    name=NAME               name in reports (default: the command's file name)
    dir=DIR                 working directory of the engine (default: the current one)
    tc=MATCH[/TURN][+INC]   seconds per game, per move and increment per move; TURN
                            defaults to MATCH, MATCH 0 means no game limit (default 0/5)
    tolerance=SECONDS       lateness forgiven after the limit before the move is a time
                            loss (default 1); ABOUT and START get max(5 s, tolerance)
    maxmemory=BYTES         INFO max_memory (default 367001600, Gomocup's 350 MB; 0 = none)
    threads=N               INFO thread_num (sent only when given)
    depth=N, nodes=N        INFO max_depth, max_node (sent only when given)
    option.KEY=VALUE        also send INFO KEY VALUE

Game:
  --rule R                0 freestyle, 1 standard (exact five), 4 renju, 8 caro
                          (or the names; default 0)
  --size N | WxH          board size, 5..32 (default 15); RECTSTART is sent when W != H
  --drawafter N           draw once N stones are on the board (default 200 under renju,
                          otherwise 0 = only a full board)

Match:
  --games N               games per pair of engines, rounded up to even (default: two
                          per opening, or 2 without openings)
  --openings FILE         one opening per line: offset (\"0,0, 1,0, 1,3\", from the centre)
                          or pos (\"h8i8i11\"); openings are used in turn, one per game pair
  --opening-format F      auto (default: pos when a line starts with a letter), offset, pos
  --random                shuffle the openings
  --symmetry              play each opening pair under a random symmetry of the board
  --seed N                seed for --random and --symmetry (default: from the clock;
                          printed so a run can be repeated)
  --concurrency N         games played at the same time (default 1)
  --gauntlet              the first engine plays each other one (default: round robin)
  --sprt ELO0,ELO1[,ALPHA,BETA]
                          sequential probability ratio test of H1 (first engine is ELO1
                          stronger) against H0 (ELO0): prints the log-likelihood ratio
                          after every game and stops at a bound (--games is then the
                          cap). Two engines only; ALPHA and BETA default to 0.05.
                          Pentanomial GSPRT in logistic Elo, as fishtest.

Output:
  --out DIR               write every game as DIR/game-NNNN.sgf and DIR/game-NNNN.psq
  --log                   also write the engines' I/O as DIR/game-NNNN.log (needs --out)
  --long N                in the summary, count games longer than N stones (default 100)
  --help                  print this text

Each finished game prints one line: its number, the players (black first), the result
(1-0 black won, 0-1 white won, 1/2-1/2 drawn), why it ended and the running score of the
pair. At the end: wins-losses-draws, score, Elo difference with its 95% interval
(per-game model, as cutechess), LOS, draw ratio, game-pair counts with the score's 95%
interval and the Elo error bar from the pairs (as fishtest), the SPRT verdict, and per
engine the time per move (mean, max) and the games lost by fault.
Exit status: 0 when the match ran, 2 for a bad command line, 1 for other errors.";

/// Limits of one engine's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Per-move limit in milliseconds (`INFO timeout_turn`).
    pub turn_ms: u64,
    /// Per-game limit in milliseconds, 0 for none (`INFO timeout_match`).
    pub match_ms: u64,
    /// Added to the game clock after each move.
    pub inc_ms: u64,
}

impl TimeControl {
    fn parse(text: &str) -> Result<TimeControl> {
        let (times, inc) = match text.split_once('+') {
            Some((times, inc)) => (times, seconds_to_ms(inc)?),
            None => (text, 0),
        };
        let (match_ms, turn_ms) = match times.split_once('/') {
            Some((game, turn)) => (seconds_to_ms(game)?, seconds_to_ms(turn)?),
            None => {
                let game = seconds_to_ms(times)?;
                (game, game)
            }
        };
        if match_ms == 0 && turn_ms == 0 {
            bail!("tc={text} sets no limit at all");
        }
        Ok(TimeControl {
            turn_ms,
            match_ms,
            inc_ms: inc,
        })
    }
}

/// Everything needed to start and drive one engine.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    pub name: String,
    pub program: PathBuf,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    pub tc: TimeControl,
    pub tolerance: Duration,
    pub max_memory: u64,
    pub threads: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Extra `INFO key value` lines.
    pub options: Vec<(String, String)>,
}

impl EngineConfig {
    /// How long ABOUT and START may take.
    pub fn init_timeout(&self) -> Duration {
        self.tolerance.max(Duration::from_secs(5))
    }
}

/// A checked arena run.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub engines: Vec<EngineConfig>,
    pub rule: Rule,
    pub width: usize,
    pub height: usize,
    /// Stones on the board at which the game is drawn; 0 = only when the board is full.
    pub draw_after: usize,
    /// Games per pair of engines (even); `None`: two per opening.
    pub games: Option<usize>,
    pub openings: Option<PathBuf>,
    pub opening_format: Option<Format>,
    pub random_order: bool,
    pub symmetry: bool,
    pub seed: u64,
    pub concurrency: usize,
    pub gauntlet: bool,
    pub sprt: Option<Sprt>,
    pub out_dir: Option<PathBuf>,
    pub log_io: bool,
    pub long_game: usize,
}

impl Config {
    /// Whether games will repeat move for move: an engine searching to a fixed node
    /// count or depth on one thread plays the same move in the same position, so with
    /// every engine fixed, an opening played in both colours more than once replays
    /// the same two games unless a random symmetry turns it. Only `threads=1` counts
    /// as one thread: without it a brain may search with all its cores (Tengen's
    /// default build does), whose games vary.
    pub fn repeats_games(&self, openings: usize) -> bool {
        let fixed = self
            .engines
            .iter()
            .all(|e| (e.nodes.is_some() || e.depth.is_some()) && e.threads == Some(1));
        fixed && !self.symmetry && self.games.is_some_and(|g| g > 2 * openings.max(1))
    }
}

/// What the command line asks for.
#[derive(Debug)]
pub enum Command {
    Help,
    Run(Box<Config>),
}

pub fn parse(args: &[String]) -> Result<Command> {
    let mut engines: Vec<Vec<(String, String)>> = Vec::new();
    let mut each: Vec<(String, String)> = Vec::new();
    let mut rule = Rule::Freestyle;
    let mut size = (15, 15);
    let mut draw_after = None;
    let mut games = None;
    let mut openings = None;
    let mut opening_format = None;
    let mut random_order = false;
    let mut symmetry = false;
    let mut seed = None;
    let mut concurrency = 1;
    let mut gauntlet = false;
    let mut sprt = None;
    let mut out_dir = None;
    let mut log_io = false;
    let mut long_game = 100;

    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        i += 1;
        // Options that take the rest of the arguments up to the next option.
        if flag == "--engine" || flag == "--each" {
            let mut pairs = Vec::new();
            while i < args.len() && !args[i].starts_with("--") {
                let (key, value) = args[i]
                    .split_once('=')
                    .with_context(|| format!("{flag}: expected KEY=VALUE, got {:?}", args[i]))?;
                pairs.push((key.to_string(), value.to_string()));
                i += 1;
            }
            if flag == "--engine" {
                engines.push(pairs);
            } else {
                each.extend(pairs);
            }
            continue;
        }
        match flag {
            "--help" | "-h" => return Ok(Command::Help),
            "--random" => random_order = true,
            "--symmetry" => symmetry = true,
            "--gauntlet" => gauntlet = true,
            "--log" => log_io = true,
            _ => {
                let value = args
                    .get(i)
                    .with_context(|| format!("{flag} needs a value"))?;
                i += 1;
                let context = || format!("{flag} {value}");
                match flag {
                    "--rule" => rule = parse_rule(value).with_context(context)?,
                    "--size" | "--boardsize" => size = parse_size(value).with_context(context)?,
                    "--drawafter" => draw_after = Some(value.parse().with_context(context)?),
                    "--games" => games = Some(positive(value).with_context(context)?),
                    "--openings" => openings = Some(PathBuf::from(value)),
                    "--opening-format" => {
                        opening_format = match value.as_str() {
                            "auto" => None,
                            other => Some(Format::parse(other).with_context(|| {
                                format!("{flag}: expected auto, offset or pos, got {other:?}")
                            })?),
                        }
                    }
                    "--seed" => seed = Some(value.parse().with_context(context)?),
                    "--concurrency" => concurrency = positive(value).with_context(context)?,
                    "--sprt" => sprt = Some(parse_sprt(value).with_context(context)?),
                    "--out" => out_dir = Some(PathBuf::from(value)),
                    "--long" => long_game = value.parse().with_context(context)?,
                    _ => bail!("unknown option {flag:?}"),
                }
            }
        }
    }

    if engines.len() < 2 {
        bail!("at least two --engine are needed");
    }
    if sprt.is_some() && engines.len() != 2 {
        bail!("--sprt needs exactly two engines");
    }
    if log_io && out_dir.is_none() {
        bail!("--log needs --out DIR");
    }
    let mut configs = engines
        .iter()
        .enumerate()
        .map(|(index, own)| {
            let keys: Vec<&(String, String)> = each.iter().chain(own).collect();
            engine_config(&keys).with_context(|| format!("engine {}", index + 1))
        })
        .collect::<Result<Vec<_>>>()?;
    make_names_unique(&mut configs);

    let games = games.map(|n: usize| n.div_ceil(2) * 2);
    let seed = seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64 % 1_000_000_007)
    });
    Ok(Command::Run(Box::new(Config {
        engines: configs,
        rule,
        width: size.0,
        height: size.1,
        draw_after: draw_after.unwrap_or(if rule == Rule::Renju { 200 } else { 0 }),
        games,
        openings,
        opening_format,
        random_order,
        symmetry,
        seed,
        concurrency,
        gauntlet,
        sprt,
        out_dir,
        log_io,
        long_game,
    })))
}

fn engine_config(keys: &[&(String, String)]) -> Result<EngineConfig> {
    let mut cmd = None;
    let mut name = None;
    let mut dir = None;
    let mut tc = TimeControl {
        turn_ms: 5000,
        match_ms: 0,
        inc_ms: 0,
    };
    let mut tolerance = Duration::from_secs(1);
    let mut max_memory = 367_001_600;
    let mut threads = None;
    let mut depth = None;
    let mut nodes = None;
    let mut options: Vec<(String, String)> = Vec::new();
    for (key, value) in keys {
        let context = || format!("{key}={value}");
        match key.as_str() {
            "cmd" => cmd = Some(split_command(value).with_context(context)?),
            "name" => name = Some(value.clone()),
            "dir" => dir = Some(PathBuf::from(value)),
            "tc" => tc = TimeControl::parse(value).with_context(context)?,
            "tolerance" => {
                tolerance = Duration::from_millis(seconds_to_ms(value).with_context(context)?)
            }
            "maxmemory" => max_memory = value.parse().with_context(context)?,
            "threads" => threads = Some(positive(value).with_context(context)? as u32),
            "depth" => depth = Some(positive(value).with_context(context)? as u32),
            "nodes" => nodes = Some(positive(value).with_context(context)? as u64),
            _ => match key.strip_prefix("option.") {
                Some(option) if !option.is_empty() && !option.contains(char::is_whitespace) => {
                    options.retain(|(k, _)| k != option);
                    options.push((option.to_string(), value.clone()));
                }
                _ => bail!("unknown engine key {key:?}"),
            },
        }
    }
    let mut words = cmd.context("cmd=COMMAND is required")?;
    if words.is_empty() {
        bail!("cmd= is empty");
    }
    let program = PathBuf::from(words.remove(0));
    let name = name.unwrap_or_else(|| {
        program.file_stem().map_or_else(
            || "engine".to_string(),
            |s| s.to_string_lossy().into_owned(),
        )
    });
    Ok(EngineConfig {
        name,
        program,
        args: words,
        dir,
        tc,
        tolerance,
        max_memory,
        threads,
        depth,
        nodes,
        options,
    })
}

/// Two engines with the same name get `#2`, `#3`… so reports can tell them apart.
fn make_names_unique(configs: &mut [EngineConfig]) {
    for i in 1..configs.len() {
        let base = configs[i].name.clone();
        let mut n = 2;
        while configs[..i].iter().any(|c| c.name == configs[i].name) {
            configs[i].name = format!("{base}#{n}");
            n += 1;
        }
    }
}

/// Splits a command line at unquoted whitespace; single and double quotes group, and a
/// backslash outside single quotes takes the next character literally.
pub fn split_command(text: &str) -> Result<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => word.push(c),
            (_, '\\') => {
                word.push(chars.next().context("command ends with a backslash")?);
                in_word = true;
            }
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        bail!("unterminated quote");
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// `--rule`, shared with `play` so both commands take the same words.
pub(crate) fn parse_rule(text: &str) -> Result<Rule> {
    Ok(match text {
        "0" | "freestyle" => Rule::Freestyle,
        "1" | "standard" => Rule::Standard,
        "4" | "renju" => Rule::Renju,
        "8" | "caro" => Rule::Caro,
        _ => bail!("expected 0, 1, 4 or 8"),
    })
}

/// `--size`, shared with `play` so both commands take the same forms.
pub(crate) fn parse_size(text: &str) -> Result<(usize, usize)> {
    let (w, h) = match text.split_once(['x', 'X']) {
        Some((w, h)) => (w.parse()?, h.parse()?),
        None => {
            let n = text.parse()?;
            (n, n)
        }
    };
    if !(MIN_SIZE..=MAX_SIZE).contains(&w) || !(MIN_SIZE..=MAX_SIZE).contains(&h) {
        bail!("board sides must be {MIN_SIZE}..{MAX_SIZE}");
    }
    Ok((w, h))
}

fn parse_sprt(text: &str) -> Result<Sprt> {
    let values = text
        .split(',')
        .map(|v| v.trim().parse::<f64>().map_err(anyhow::Error::from))
        .collect::<Result<Vec<f64>>>()?;
    let (elo0, elo1, alpha, beta) = match values[..] {
        [elo0, elo1] => (elo0, elo1, 0.05, 0.05),
        [elo0, elo1, alpha, beta] => (elo0, elo1, alpha, beta),
        _ => bail!("expected ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA"),
    };
    if elo0.is_nan() || elo1.is_nan() || elo0 >= elo1 {
        bail!("ELO0 must be below ELO1");
    }
    if !(0.0 < alpha && alpha < 0.5 && 0.0 < beta && beta < 0.5) {
        bail!("ALPHA and BETA must be between 0 and 0.5");
    }
    Ok(Sprt {
        elo0,
        elo1,
        alpha,
        beta,
    })
}

fn positive(text: &str) -> Result<usize> {
    let n: usize = text.parse()?;
    if n == 0 {
        bail!("must be at least 1");
    }
    Ok(n)
}

fn seconds_to_ms(text: &str) -> Result<u64> {
    let seconds: f64 = text
        .trim()
        .parse()
        .with_context(|| format!("{text:?} is not a number of seconds"))?;
    if !seconds.is_finite() || seconds < 0.0 {
        bail!("{text:?} is not a number of seconds");
    }
    Ok((seconds * 1000.0).round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        split_command(text).unwrap()
    }

    fn run(text: &str) -> Config {
        match parse(&args(text)).unwrap() {
            Command::Run(config) => *config,
            Command::Help => panic!("help"),
        }
    }

    #[test]
    fn splits_commands_like_a_shell() {
        assert_eq!(split_command("a b  c").unwrap(), ["a", "b", "c"]);
        assert_eq!(
            split_command(r#"./x "two words" 'it''s' a\ b"#).unwrap(),
            ["./x", "two words", "its", "a b"]
        );
        assert_eq!(split_command(r#"'' """#).unwrap(), ["", ""]);
        assert!(split_command("'open").is_err());
    }

    #[test]
    fn fixed_searches_without_symmetry_repeat_games() {
        let fixed = "--engine cmd=a --engine cmd=b --games 20 --each nodes=1000 threads=1";
        assert!(run(fixed).repeats_games(5));
        assert!(!run(fixed).repeats_games(10));
        assert!(!run(&format!("--symmetry {fixed}")).repeats_games(5));
        let unset = "--engine cmd=a --engine cmd=b --games 20 --each nodes=1000";
        assert!(!run(unset).repeats_games(5));
        assert!(!run(&format!("{unset} threads=2")).repeats_games(5));
        let mixed = "--games 4 --each threads=1 --engine cmd=a depth=6 --engine cmd=b";
        assert!(run(&format!("{mixed} nodes=9")).repeats_games(0));
        assert!(!run(mixed).repeats_games(0));
    }

    #[test]
    fn parses_a_full_command_line() {
        let c = run(
            "--rule 4 --size 15 --games 7 --concurrency 3 --seed 42 --random --symmetry \
             --each tc=60/5+0.5 tolerance=0.25 threads=2 option.pondering=0 \
             --engine 'cmd=./new -q' name=New maxmemory=0 \
             --engine cmd=/opt/old tc=10 \
             --sprt 0,5 --out games --log --long 80",
        );
        assert_eq!(c.rule, Rule::Renju);
        assert_eq!((c.width, c.height), (15, 15));
        assert_eq!(c.draw_after, 200);
        assert_eq!(c.games, Some(8));
        assert_eq!(c.concurrency, 3);
        assert_eq!(c.seed, 42);
        assert!(c.random_order && c.symmetry && c.log_io);
        assert_eq!(c.long_game, 80);
        assert_eq!(
            c.sprt,
            Some(Sprt {
                elo0: 0.0,
                elo1: 5.0,
                alpha: 0.05,
                beta: 0.05
            })
        );
        let new = &c.engines[0];
        assert_eq!(new.name, "New");
        assert_eq!(new.program, PathBuf::from("./new"));
        assert_eq!(new.args, ["-q"]);
        assert_eq!(
            new.tc,
            TimeControl {
                turn_ms: 5000,
                match_ms: 60000,
                inc_ms: 500
            }
        );
        assert_eq!(new.tolerance, Duration::from_millis(250));
        assert_eq!(new.max_memory, 0);
        assert_eq!(new.threads, Some(2));
        assert_eq!(new.options, [("pondering".to_string(), "0".to_string())]);
        let old = &c.engines[1];
        assert_eq!(old.name, "old");
        assert_eq!(
            old.tc,
            TimeControl {
                turn_ms: 10000,
                match_ms: 10000,
                inc_ms: 0
            }
        );
        assert_eq!(old.max_memory, 367_001_600);
    }

    #[test]
    fn defaults_and_rectangles() {
        let c = run("--size 20x15 --engine cmd=a --engine cmd=a");
        assert_eq!((c.width, c.height), (20, 15));
        assert_eq!(c.rule, Rule::Freestyle);
        assert_eq!(c.draw_after, 0);
        assert_eq!(c.games, None);
        assert_eq!(c.engines[0].name, "a");
        assert_eq!(c.engines[1].name, "a#2");
        assert_eq!(
            c.engines[0].tc,
            TimeControl {
                turn_ms: 5000,
                match_ms: 0,
                inc_ms: 0
            }
        );
        assert_eq!(
            run("--rule renju --drawafter 0 --engine cmd=a --engine cmd=b").draw_after,
            0
        );
    }

    #[test]
    fn rejects_bad_command_lines() {
        for bad in [
            "--engine cmd=a",
            "--engine cmd=a --engine name=b",
            "--engine cmd=a --engine cmd=b --rule 2",
            "--engine cmd=a --engine cmd=b --size 33",
            "--engine cmd=a --engine cmd=b --size 4x10",
            "--engine cmd=a --engine cmd=b --sprt 5,0",
            "--engine cmd=a --engine cmd=b --sprt 0,5,0.05",
            "--engine cmd=a --engine cmd=b --engine cmd=c --sprt 0,5",
            "--engine cmd=a --engine cmd=b --log",
            "--engine cmd=a tc=0/0 --engine cmd=b",
            "--engine cmd=a tc=-1 --engine cmd=b",
            "--engine cmd=a colour=red --engine cmd=b",
            "--engine cmd=a --engine cmd=b --bogus",
            "--engine cmd=a --engine cmd=b --games 0",
            "--engine cmd=a --engine cmd=b --opening-format csv",
        ] {
            assert!(parse(&args(bad)).is_err(), "{bad}");
        }
        assert!(matches!(parse(&args("--help")).unwrap(), Command::Help));
    }
}
