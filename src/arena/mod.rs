//! The `arena` subcommand: matches between Piskvork brains, with a referee, statistics
//! and game records.
//!
//! `config` parses the command line; `openings` reads opening files; `schedule` deals
//! the games to worker threads; `game` drives two `engine` processes through one game
//! and asks the `referee` about every move; `report` prints progress and the summary
//! using `stats`; `record` writes SGF and PSQ files. `pool` (its own subcommand) reads
//! the records of several runs back and sums them up as one match.
//!
//! The terminal game (`crate::play`) saves its games with `record`, so they share one
//! format, and takes `--rule` and `--size` as `config` does.

pub(crate) mod config;
mod engine;
pub(crate) mod game;
mod openings;
pub mod pool;
pub(crate) mod record;
pub(crate) mod referee;
mod report;
mod schedule;
mod stats;

use crate::console::show;
use anyhow::{Context, Result};
use config::{Command, Config};
use std::path::Path;

/// Runs `pbrain-tengen arena ARGS…` (`args` excludes the word `arena`) and returns the
/// process exit status: 0 when the match ran, 2 for a bad command line.
pub fn run(args: &[String]) -> Result<i32> {
    let config = match config::parse(args) {
        Ok(Command::Help) => {
            show(&format!("{}\n", config::HELP));
            return Ok(0);
        }
        Ok(Command::Run(config)) => *config,
        Err(error) => {
            eprintln!("arena: {error:#}\nSee: pbrain-tengen arena --help");
            return Ok(2);
        }
    };
    let openings = match &config.openings {
        Some(path) => openings::load(path, config.opening_format)?,
        None => Vec::new(),
    };
    let schedule = schedule::build(&config, &openings)?;
    if let Some(dir) = &config.out_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    if !show(&header(&config, openings.len(), schedule.jobs.len())) {
        return Ok(0);
    }

    let mut report = report::Report::new(&config, schedule.encounters.clone(), schedule.jobs.len());
    let mut write_error = None;
    let mut reader_gone = false;
    schedule::play(&config, &schedule.jobs, |job, game| {
        // Once the reader has gone (`arena … | head`) the match stops, its engines shut
        // down as after its last game.
        reader_gone = !show(&format!("{}\n", report.add(job, &game)));
        if let Some(dir) = &config.out_dir
            && let Err(error) = write_records(dir, &config, job, &game)
        {
            write_error = Some(error);
            return false;
        }
        !reader_gone && report.sprt_state() == stats::SprtState::Continue
    })?;
    if let Some(error) = write_error {
        return Err(error);
    }
    if !reader_gone {
        show(&report.summary());
    }
    Ok(0)
}

fn header(config: &Config, openings: usize, games: usize) -> String {
    let mut out = format!(
        "Arena: {} games, rule {} ({}), board {}x{}, {}concurrency {}, seed {}\n",
        games,
        config.rule.protocol_value(),
        config.rule,
        config.width,
        config.height,
        match config.draw_after {
            0 => String::new(),
            n => format!("draw at {n} stones, "),
        },
        config.concurrency,
        config.seed
    );
    if let Some(path) = &config.openings {
        out += &format!(
            "Openings: {} ({openings}, {}{})\n",
            path.display(),
            if config.random_order {
                "random order"
            } else {
                "in file order"
            },
            if config.symmetry {
                ", random symmetry"
            } else {
                ""
            }
        );
    }
    if config.repeats_games(openings) {
        out += "Note: every engine searches to fixed nodes or depth on one thread, so each \
                opening's games repeat move for move; --symmetry varies them\n";
    }
    for e in &config.engines {
        let mut line = format!("Engine {}: {}", e.name, e.program.display());
        for arg in &e.args {
            line += &format!(" {arg}");
        }
        out += &format!(
            "{line}; turn {} ms, game {} ms, increment {} ms, tolerance {} ms\n",
            e.tc.turn_ms,
            e.tc.match_ms,
            e.tc.inc_ms,
            e.tolerance.as_millis()
        );
    }
    out
}

fn write_records(
    dir: &Path,
    config: &Config,
    job: &schedule::Job,
    game: &game::GameRecord,
) -> Result<()> {
    let names = job.players.map(|e| config.engines[e].name.as_str());
    let summary = report::describe(game, names);
    let header = record::Header {
        application: "Tengen arena",
        number: job.number,
        black: names[0],
        white: names[1],
        width: config.width,
        height: config.height,
        rule: config.rule,
        summary: &summary,
    };
    let base = dir.join(format!("game-{:04}", job.number));
    let write = |ext: &str, text: &str| {
        let path = base.with_extension(ext);
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
    };
    write("sgf", &record::sgf(&header, game))?;
    write("psq", &record::psq(&header, game))?;
    if let Some(transcript) = &game.transcript {
        write("log", transcript)?;
    }
    Ok(())
}
