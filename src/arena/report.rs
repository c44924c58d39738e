//! What the arena prints: one progress line per finished game, and the final summary
//! (results and statistics per encounter, with the first engine's results as black and
//! as white, since the first move is worth so much in these games; the SPRT verdict, how
//! games ended, and per engine the thinking time and the games lost by fault). `pool`
//! prints the same lines for each encounter of the runs it pools.

use super::config::Config;
use super::game::{GameRecord, Reason};
use super::schedule::Job;
use super::stats::{Pentanomial, SprtState, Tally, elo_from_score};
use crate::types::Color;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;
use std::time::{Duration, Instant};

#[derive(Default)]
struct EngineStats {
    games: u32,
    moves: u64,
    think_micros: u64,
    max_micros: u64,
    /// Games lost by fault, by kind.
    faults: BTreeMap<&'static str, u32>,
    restarts: u32,
}

pub struct Report<'a> {
    config: &'a Config,
    encounters: Vec<[usize; 2]>,
    total_games: usize,
    finished: usize,
    /// The first engine's results by its colour, black's first; the encounter's score
    /// is their sum.
    colour_tallies: Vec<[Tally; 2]>,
    pairs: Vec<Pentanomial>,
    /// First engine's points in the first finished game of a pair still open.
    open_pairs: HashMap<usize, f64>,
    engines: Vec<EngineStats>,
    endings: BTreeMap<&'static str, u32>,
    long_games: Vec<usize>,
    game_time: Duration,
    think_time: Duration,
    startup_time: Duration,
    started: Instant,
    sprt_state: SprtState,
}

impl<'a> Report<'a> {
    pub fn new(config: &'a Config, encounters: Vec<[usize; 2]>, total_games: usize) -> Report<'a> {
        let n = encounters.len();
        Report {
            config,
            encounters,
            total_games,
            finished: 0,
            colour_tallies: vec![[Tally::default(); 2]; n],
            pairs: vec![Pentanomial::default(); n],
            open_pairs: HashMap::new(),
            engines: config
                .engines
                .iter()
                .map(|_| EngineStats::default())
                .collect(),
            endings: BTreeMap::new(),
            long_games: Vec::new(),
            game_time: Duration::ZERO,
            think_time: Duration::ZERO,
            startup_time: Duration::ZERO,
            started: Instant::now(),
            sprt_state: SprtState::Continue,
        }
    }

    pub fn sprt_state(&self) -> SprtState {
        self.sprt_state
    }

    /// Accounts for a finished game (not an abandoned one) and returns its progress line,
    /// after a note for each engine process started for it.
    pub fn add(&mut self, job: &Job, game: &GameRecord) -> String {
        let mut out = String::new();
        let names = job.players.map(|e| self.config.engines[e].name.as_str());
        for (side, about) in game.started.iter().enumerate() {
            if let Some(about) = about {
                let verb = if game.restarted[side] {
                    self.engines[job.players[side]].restarts += 1;
                    "Restarted"
                } else {
                    "Started"
                };
                let _ = writeln!(out, "{verb} {}: {about}", names[side]);
            }
        }
        let reason = &game.outcome.reason;
        self.finished += 1;
        *self.endings.entry(reason.kind()).or_default() += 1;
        if game.stones > self.config.long_game {
            self.long_games.push(job.number);
        }
        self.game_time += game.duration;
        self.startup_time += game.startup;
        for m in &game.moves {
            let stats = &mut self.engines[job.players[m.color.index()]];
            stats.moves += 1;
            stats.think_micros += m.micros;
            stats.max_micros = stats.max_micros.max(m.micros);
            self.think_time += Duration::from_micros(m.micros);
        }
        for &e in &job.players {
            self.engines[e].games += 1;
        }
        if let Some(winner) = game.outcome.winner
            && !matches!(reason, Reason::Five)
        {
            let loser = job.players[winner.opp().index()];
            *self.engines[loser].faults.entry(reason.kind()).or_default() += 1;
        }

        // The encounter's first engine's points in this game.
        let [first, _] = self.encounters[job.encounter];
        let points = match game.outcome.winner {
            None => 0.5,
            Some(color) if job.players[color.index()] == first => 1.0,
            Some(_) => 0.0,
        };
        let colour = usize::from(job.players[Color::Black.index()] != first);
        self.colour_tallies[job.encounter][colour].add(points);
        if let Some(other) = self.open_pairs.remove(&job.pair) {
            self.pairs[job.encounter].add(other, points);
        } else {
            self.open_pairs.insert(job.pair, points);
        }

        let result = match game.outcome.winner {
            Some(Color::Black) => "1-0",
            Some(Color::White) => "0-1",
            None => "1/2-1/2",
        };
        let [a, b] = self.encounters[job.encounter].map(|e| self.config.engines[e].name.as_str());
        let [black, white] = self.colour_tallies[job.encounter];
        let tally = black + white;
        let _ = write!(
            out,
            "[{}/{}] {} vs {}: {result} {{{}}} {} stones{} | {a}-{b} {}-{}-{} [{:.3}]",
            self.finished,
            self.total_games,
            names[0],
            names[1],
            describe(game, names),
            game.stones,
            match job.opening_source {
                Some((line, 0)) => format!(", opening {line}"),
                Some((line, symmetry)) => format!(", opening {line} sym {symmetry}"),
                None => String::new(),
            },
            tally.wins,
            tally.losses,
            tally.draws,
            tally.score(),
        );
        if let Some(sprt) = &self.config.sprt {
            let llr = sprt.llr(&self.pairs[0]);
            self.sprt_state = sprt.state(llr);
            let _ = write!(
                out,
                " | LLR {llr:.2} [{:.2}, {:.2}]",
                sprt.lower(),
                sprt.upper()
            );
        }
        out
    }

    /// The final summary.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        let config = self.config;
        let _ = writeln!(
            out,
            "\nFinished {} of {} games.",
            self.finished, self.total_games
        );
        for (e, &[a, b]) in self.encounters.iter().enumerate() {
            let (a, b) = (&config.engines[a].name, &config.engines[b].name);
            out += &encounter_summary(a, b, self.colour_tallies[e], &self.pairs[e]);
        }
        if let Some(sprt) = &config.sprt {
            let llr = sprt.llr(&self.pairs[0]);
            let verdict = match self.sprt_state {
                SprtState::AcceptH1 => "H1 accepted",
                SprtState::AcceptH0 => "H0 accepted",
                SprtState::Continue => "no decision yet",
            };
            let _ = writeln!(
                out,
                "SPRT (pentanomial, logistic Elo) elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} [{:.2}, {:.2}]: {verdict}",
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta,
                sprt.lower(),
                sprt.upper()
            );
        }
        let endings: Vec<String> = self
            .endings
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        let _ = writeln!(out, "Game endings: {}", endings.join(", "));
        let _ = writeln!(
            out,
            "Games longer than {} stones: {}{}",
            config.long_game,
            self.long_games.len(),
            if self.long_games.is_empty() {
                String::new()
            } else {
                let mut numbers = self.long_games.clone();
                numbers.sort();
                let list: Vec<String> = numbers.iter().map(|n| format!("#{n}")).collect();
                format!(" ({})", list.join(" "))
            }
        );
        let width = config
            .engines
            .iter()
            .map(|e| e.name.len())
            .max()
            .unwrap_or(6)
            .max(6);
        let _ = writeln!(
            out,
            "{:width$}  games  moves  ms/move   max ms  restarts  lost by fault",
            "Engine"
        );
        for (engine, stats) in config.engines.iter().zip(&self.engines) {
            let mean = if stats.moves == 0 {
                0.0
            } else {
                stats.think_micros as f64 / stats.moves as f64 / 1000.0
            };
            let faults: Vec<String> = stats
                .faults
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect();
            let _ = writeln!(
                out,
                "{:width$}  {:5}  {:5}  {:7.1}  {:7.1}  {:8}  {}",
                engine.name,
                stats.games,
                stats.moves,
                mean,
                stats.max_micros as f64 / 1000.0,
                stats.restarts,
                if faults.is_empty() {
                    "-".to_string()
                } else {
                    faults.join(", ")
                }
            );
        }
        let game_secs = self.game_time.as_secs_f64();
        let share = |d: f64| {
            if game_secs > 0.0 {
                100.0 * d / game_secs
            } else {
                0.0
            }
        };
        let startup = self.startup_time.as_secs_f64();
        let arena = (game_secs - self.think_time.as_secs_f64() - startup).max(0.0);
        let _ = writeln!(
            out,
            "Time: {:.1} s wall; {game_secs:.1} s in games: engines thinking {:.1} s, engines starting games {startup:.1} s ({:.1}%), arena {arena:.1} s ({:.1}%)",
            self.started.elapsed().as_secs_f64(),
            self.think_time.as_secs_f64(),
            share(startup),
            share(arena)
        );
        out
    }
}

/// The summary of one encounter: the first engine's score, Elo with its error bar, LOS
/// and draw ratio, its results with each colour, and the game pairs with their interval.
pub(super) fn encounter_summary(
    a: &str,
    b: &str,
    colours: [Tally; 2],
    pairs: &Pentanomial,
) -> String {
    let mut out = String::new();
    let [black, white] = colours;
    let t = black + white;
    let _ = writeln!(out, "Score of {a} vs {b}: {}", results(&t));
    let _ = writeln!(
        out,
        "Elo difference: {} +/- {} (95%), LOS: {:.1}%, draw ratio: {:.1}%",
        signed(t.elo()),
        unsigned(t.elo_error95()),
        100.0 * t.los(),
        100.0 * t.draw_ratio()
    );
    let _ = writeln!(
        out,
        "{a} as black: {}; as white: {}",
        results(&black),
        results(&white)
    );
    let p = pairs.0;
    let _ = writeln!(
        out,
        "Game pairs by {a}'s points (0, 1/2, 1, 3/2, 2): [{}, {}, {}, {}, {}]",
        p[0], p[1], p[2], p[3], p[4]
    );
    if pairs.pairs() > 0 {
        let (low, high) = pairs.score_interval95();
        let _ = writeln!(
            out,
            "From the {} pairs: score {:.3} (95%: {:.3} to {:.3}), Elo {} +/- {}",
            pairs.pairs(),
            pairs.score(),
            low,
            high,
            signed(elo_from_score(pairs.score())),
            unsigned(pairs.elo_error95())
        );
    }
    out
}

/// `{black wins: …}`-style text for how a game ended.
pub fn describe(game: &GameRecord, names: [&str; 2]) -> String {
    let side = |color: Color| format!("{} ({color})", names[color.index()]);
    let reason = &game.outcome.reason;
    match (game.outcome.winner, reason) {
        (_, Reason::Aborted) => "match stopped".to_string(),
        (None, Reason::DrawAfter(n)) => format!("draw: {n} stones on the board"),
        (None, _) => "draw: board full".to_string(),
        (Some(winner), Reason::Five) => format!("{} makes five", side(winner)),
        (Some(winner), _) => {
            let loser = side(winner.opp());
            match reason {
                Reason::Fault(fault) => format!("{loser} {fault}"),
                Reason::Malformed(line) => format!("{loser} sent malformed move {line:?}"),
                Reason::Timeout {
                    elapsed_ms: Some(elapsed_ms),
                    allowed_ms,
                } => {
                    format!(
                        "{loser} lost on time: moved after {elapsed_ms} ms, allowed {allowed_ms} ms"
                    )
                }
                Reason::Timeout {
                    elapsed_ms: None,
                    allowed_ms,
                } => {
                    format!("{loser} lost on time: no move within {allowed_ms} ms")
                }
                Reason::Crash(what) => format!("{loser} crashed: {what}"),
                Reason::StartFailed(what) => format!("{loser} failed to start: {what}"),
                _ => unreachable!("handled above"),
            }
        }
    }
}

/// `wins - losses - draws  [score] games`, as c-gomoku-cli writes a score.
pub(super) fn results(t: &Tally) -> String {
    format!(
        "{} - {} - {}  [{:.3}] {}",
        t.wins,
        t.losses,
        t.draws,
        t.score(),
        t.games()
    )
}

fn signed(v: f64) -> String {
    if v.is_finite() {
        // Adding zero turns −0 (an even score) into 0.
        format!("{:.1}", v + 0.0)
    } else if v > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

fn unsigned(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.1}")
    } else {
        "inf".into()
    }
}
