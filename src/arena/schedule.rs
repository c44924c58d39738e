//! The match schedule and the workers that play it.
//!
//! Each pair of engines (an encounter) plays its games in pairs: one opening, each
//! engine black once. Pair k of every encounter uses the k-th opening of the (possibly
//! shuffled) list, wrapping around, under the same random symmetry, so every encounter
//! sees the same positions. Games are dealt in order to `concurrency` worker threads;
//! each worker keeps its own engine processes alive between games. Results come back
//! to the calling thread over a channel; when it asks to stop, the workers abandon their
//! games at the next move and end their engines.

use super::config::Config;
use super::engine::{Engine, Transcript, shutdown_all};
use super::game::{self, GameRecord, Player, Setup};
use super::openings::{Opening, symmetry_count, transform};
use super::referee::Referee;
use anyhow::{Context, Result, bail};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// One game to play.
#[derive(Clone, Debug)]
pub struct Job {
    /// From 1, in schedule order.
    pub number: usize,
    /// Index into the encounter list.
    pub encounter: usize,
    /// Engine indices: black, white.
    pub players: [usize; 2],
    /// Both games of a pair share this number.
    pub pair: usize,
    pub opening: Vec<(usize, usize)>,
    /// File line of the opening and the symmetry applied, if openings are used.
    pub opening_source: Option<(usize, u8)>,
}

/// The pairs of engines that meet, and every game they play.
pub struct Schedule {
    pub encounters: Vec<[usize; 2]>,
    pub jobs: Vec<Job>,
}

pub fn build(config: &Config, openings: &[Opening]) -> Result<Schedule> {
    let n = config.engines.len();
    let encounters: Vec<[usize; 2]> = if config.gauntlet {
        (1..n).map(|j| [0, j]).collect()
    } else {
        (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| [i, j]))
            .collect()
    };
    let games = config.games.unwrap_or(2 * openings.len().max(1));
    let mut rng = fastrand::Rng::with_seed(config.seed);
    let mut order: Vec<usize> = (0..openings.len()).collect();
    if config.random_order {
        rng.shuffle(&mut order);
    }
    let symmetries = symmetry_count(config.width, config.height);
    let mut jobs = Vec::new();
    for round in 0..games / 2 {
        let (opening, source) = match openings.len() {
            0 => (Vec::new(), None),
            count => {
                let chosen = &openings[order[round % count]];
                let symmetry = if config.symmetry {
                    rng.u8(0..symmetries)
                } else {
                    0
                };
                let stones = chosen
                    .place(config.width, config.height)
                    .map_err(anyhow::Error::msg)?
                    .into_iter()
                    .map(|p| transform(symmetry, p, config.width, config.height))
                    .collect::<Vec<_>>();
                Referee::from_opening(
                    config.width,
                    config.height,
                    config.rule,
                    config.draw_after,
                    &stones,
                )
                .map_err(anyhow::Error::msg)
                .with_context(|| format!("opening on line {}", chosen.line))?;
                (stones, Some((chosen.line, symmetry)))
            }
        };
        for (e, &[a, b]) in encounters.iter().enumerate() {
            let pair = round * encounters.len() + e;
            for players in [[a, b], [b, a]] {
                jobs.push(Job {
                    number: jobs.len() + 1,
                    encounter: e,
                    players,
                    pair,
                    opening: opening.clone(),
                    opening_source: source,
                });
            }
        }
    }
    if jobs.is_empty() {
        bail!("nothing to play");
    }
    Ok(Schedule { encounters, jobs })
}

/// Plays the jobs on `config.concurrency` threads. `on_game` sees each finished game on
/// the calling thread, in the order they finish, and returns false to stop the match.
pub fn play(
    config: &Config,
    jobs: &[Job],
    mut on_game: impl FnMut(&Job, GameRecord) -> bool,
) -> Result<()> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let workers = config.concurrency.min(jobs.len());
    let (sender, results) = crossbeam_channel::unbounded::<Result<(usize, GameRecord)>>();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let sender = sender.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                let mut slots: Vec<Option<Engine>> = config.engines.iter().map(|_| None).collect();
                let mut spawned = vec![false; config.engines.len()];
                while !stop.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = jobs.get(index) else { break };
                    let result = play_job(config, job, &mut slots, &mut spawned, stop)
                        .map(|record| (index, record));
                    let failed = result.is_err();
                    if sender.send(result).is_err() || failed {
                        break;
                    }
                }
                shutdown_all(slots.into_iter().flatten().collect());
            });
        }
        drop(sender);
        let mut outcome = Ok(());
        for result in results {
            match result {
                Ok((index, record)) => {
                    if !stop.load(Ordering::Relaxed) && !on_game(&jobs[index], record) {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                Err(error) => {
                    stop.store(true, Ordering::Relaxed);
                    if outcome.is_ok() {
                        outcome = Err(error);
                    }
                }
            }
        }
        outcome
    })
}

/// Plays one job with the worker's engine `slots`; `spawned` says which engines this
/// worker has started a process for before.
fn play_job(
    config: &Config,
    job: &Job,
    slots: &mut [Option<Engine>],
    spawned: &mut [bool],
    stop: &AtomicBool,
) -> Result<GameRecord> {
    let [black, white] = job.players;
    let mut black_slot = slots[black].take();
    let mut white_slot = slots[white].take();
    let setup = Setup {
        width: config.width,
        height: config.height,
        rule: config.rule,
        draw_after: config.draw_after,
        opening: &job.opening,
    };
    let players = [
        Player {
            config: &config.engines[black],
            engine: &mut black_slot,
        },
        Player {
            config: &config.engines[white],
            engine: &mut white_slot,
        },
    ];
    let transcript = config.log_io.then(Transcript::default);
    let record = game::play(&setup, players, stop, transcript);
    slots[black] = black_slot;
    slots[white] = white_slot;
    let mut record = record?;
    for (side, &engine) in job.players.iter().enumerate() {
        if record.started[side].is_some() {
            record.restarted[side] = spawned[engine];
            spawned[engine] = true;
        }
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::config::{Command, parse, split_command};
    use crate::arena::openings;

    fn config(text: &str) -> Config {
        match parse(&split_command(text).unwrap()).unwrap() {
            Command::Run(config) => *config,
            Command::Help => unreachable!(),
        }
    }

    #[test]
    fn every_opening_is_played_with_both_colours() {
        let c = config("--engine cmd=a --engine cmd=b --engine cmd=c --seed 5 --random --symmetry");
        let list = openings::parse("0,0\n0,0, 1,0, 1,3\n2,2, 0,1\n", None).unwrap();
        let s = build(&c, &list).unwrap();
        assert_eq!(s.encounters, [[0, 1], [0, 2], [1, 2]]);
        // Default: two games per opening for each of the three encounters.
        assert_eq!(s.jobs.len(), 3 * 3 * 2);
        for pair in s.jobs.chunks(2) {
            assert_eq!(pair[0].pair, pair[1].pair);
            assert_eq!(pair[0].opening, pair[1].opening);
            assert_eq!(pair[0].players, [pair[1].players[1], pair[1].players[0]]);
        }
        let mut lines: Vec<usize> = s.jobs.iter().map(|j| j.opening_source.unwrap().0).collect();
        lines.sort();
        lines.dedup();
        assert_eq!(lines, [1, 2, 3]);
        // The same seed gives the same schedule.
        let again = build(&c, &list).unwrap();
        assert!(
            s.jobs
                .iter()
                .zip(&again.jobs)
                .all(|(a, b)| a.opening == b.opening)
        );
    }

    #[test]
    fn gauntlet_counts_and_games_without_openings() {
        let c = config("--engine cmd=a --engine cmd=b --engine cmd=c --gauntlet --games 3");
        let s = build(&c, &[]).unwrap();
        assert_eq!(s.encounters, [[0, 1], [0, 2]]);
        assert_eq!(s.jobs.len(), 2 * 4);
        assert!(
            s.jobs
                .iter()
                .all(|j| j.opening.is_empty() && j.opening_source.is_none())
        );
        assert_eq!(
            s.jobs.iter().map(|j| j.number).collect::<Vec<_>>(),
            (1..=8).collect::<Vec<_>>()
        );
    }

    #[test]
    fn openings_that_do_not_fit_are_refused_before_play() {
        let c = config("--engine cmd=a --engine cmd=b --size 15");
        let far = openings::parse("8,0\n", None).unwrap();
        assert!(build(&c, &far).is_err());
        let won = openings::parse("0,0, 0,5, 1,0, 1,5, 2,0, 2,5, 3,0, 3,5, 4,0\n", None).unwrap();
        assert!(build(&c, &won).is_err());
    }
}
