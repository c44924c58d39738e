//! One game between two engines, driven the way the Gomocup managers drive them.
//!
//! Per engine: `START` (or `RECTSTART`) and its `OK`, then the INFO lines (limits, memory,
//! rule). Per move: `INFO time_left`, then `BEGIN` on an empty board, `BOARD … DONE` for a
//! side's first move after an opening, and `TURN x,y` afterwards. Engine processes live
//! in slots owned by the caller and are reused from game to game (as c-gomoku-cli does);
//! a slot is emptied, killing the process, after a crash, a time loss or a failed start,
//! and the next game starts a fresh process.
//!
//! Time: the clock runs from the moment the command is written until the move line is
//! read. The limit for a move is the turn limit, or the time left on the game clock if
//! that is smaller; a move within the tolerance after the limit counts (the lateness is
//! charged to the game clock), later ones lose on time. `YXSTOP` is sent half-way into
//! the tolerance, and at its end the engine is killed.

use super::config::EngineConfig;
use super::engine::{Engine, Failure, Transcript};
use super::referee::{Fault, Referee, Verdict};
use crate::types::{Color, Rule};
use anyhow::Result;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// `INFO time_left` when there is no game clock.
const NO_CLOCK: i64 = 2_147_483_647;

/// The board a game is played on and the stones it starts from.
pub struct Setup<'a> {
    pub width: usize,
    pub height: usize,
    pub rule: Rule,
    pub draw_after: usize,
    pub opening: &'a [(usize, usize)],
}

/// An engine's configuration and the slot holding its process, if one is running.
pub struct Player<'a> {
    pub config: &'a EngineConfig,
    pub engine: &'a mut Option<Engine>,
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    Five,
    DrawAfter(usize),
    BoardFull,
    /// The loser's move was off the board, occupied, or forbidden.
    Fault(Fault),
    /// The loser sent a line that is not a move.
    Malformed(String),
    /// The loser's move came after the limit plus the tolerance (`elapsed_ms`), or never
    /// (`None`).
    Timeout {
        elapsed_ms: Option<u64>,
        allowed_ms: u64,
    },
    Crash(String),
    /// The loser could not be started, or did not accept START.
    StartFailed(String),
    /// The match was stopped while the game was running; it does not count.
    Aborted,
}

impl Reason {
    /// A short name for counting endings.
    pub fn kind(&self) -> &'static str {
        match self {
            Reason::Five => "five",
            Reason::DrawAfter(_) => "draw-after",
            Reason::BoardFull => "board-full",
            Reason::Fault(Fault::OffBoard { .. }) => "off-board",
            Reason::Fault(Fault::Occupied { .. }) => "occupied",
            Reason::Fault(Fault::Forbidden { .. }) => "forbidden",
            Reason::Malformed(_) => "malformed",
            Reason::Timeout { .. } => "timeout",
            Reason::Crash(_) => "crash",
            Reason::StartFailed(_) => "start-failed",
            Reason::Aborted => "aborted",
        }
    }
}

/// How a game ended: the winner (none for a draw or an aborted game) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Option<Color>,
    pub reason: Reason,
}

/// A move as the engine sent it.
#[derive(Clone, Debug)]
pub struct MoveRecord {
    pub x: i64,
    pub y: i64,
    pub color: Color,
    /// Thinking time in microseconds.
    pub micros: u64,
    pub messages: Vec<String>,
}

/// Everything that happened in a game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub opening: Vec<(usize, usize)>,
    /// Moves after the opening, including a losing forbidden move (which is on the board
    /// in the record but not in the referee's position).
    pub moves: Vec<MoveRecord>,
    pub outcome: Outcome,
    /// Stones on the board at the end.
    pub stones: usize,
    /// The ABOUT answer of each engine whose process was started for this game.
    pub started: [Option<String>; 2],
    /// Which of those replaced a process of the same worker (set by the scheduler, which
    /// knows the worker's history).
    pub restarted: [bool; 2],
    /// Wall time from the first command to the end.
    pub duration: Duration,
    /// Of that, the time the engines took to start (process, `ABOUT`) and to set up the
    /// game (`START` and the INFO lines): theirs, not the arena's.
    pub startup: Duration,
    pub transcript: Option<String>,
}

/// Plays one game. `players` are black then white. Errors only when an engine's program
/// cannot be started at all.
pub fn play(
    setup: &Setup,
    mut players: [Player; 2],
    stop: &AtomicBool,
    transcript: Option<Transcript>,
) -> Result<GameRecord> {
    let began = Instant::now();
    let mut referee = Referee::from_opening(
        setup.width,
        setup.height,
        setup.rule,
        setup.draw_after,
        setup.opening,
    )
    .map_err(anyhow::Error::msg)?;
    let mut record = GameRecord {
        opening: setup.opening.to_vec(),
        moves: Vec::new(),
        outcome: Outcome {
            winner: None,
            reason: Reason::Aborted,
        },
        stones: referee.stone_count(),
        started: [None, None],
        restarted: [false; 2],
        duration: Duration::ZERO,
        startup: Duration::ZERO,
        transcript: None,
    };
    let outcome = run(
        setup,
        &mut players,
        &mut referee,
        &mut record,
        stop,
        &transcript,
    )?;
    for player in &mut players {
        if let Some(engine) = player.engine.as_mut() {
            engine.set_transcript(None);
        }
    }
    record.outcome = outcome;
    record.stones = referee.stone_count();
    record.duration = began.elapsed();
    record.transcript = transcript.map(|t| t.take());
    Ok(record)
}

fn run(
    setup: &Setup,
    players: &mut [Player; 2],
    referee: &mut Referee,
    record: &mut GameRecord,
    stop: &AtomicBool,
    transcript: &Option<Transcript>,
) -> Result<Outcome> {
    let loss = |color: Color, reason: Reason| Outcome {
        winner: Some(color.opp()),
        reason,
    };
    let setup_began = Instant::now();
    for color in [Color::Black, Color::White] {
        let player = &mut players[color.index()];
        match player.engine.as_mut() {
            Some(engine) => engine.set_transcript(transcript.clone()),
            None => match Engine::spawn(player.config, transcript.clone())? {
                Ok(engine) => {
                    record.started[color.index()] = Some(engine.about.clone());
                    *player.engine = Some(engine);
                }
                Err(failure) => return Ok(loss(color, start_failure(failure, "ABOUT"))),
            },
        }
        if let Err(failure) = start(setup, player) {
            *player.engine = None;
            return Ok(loss(color, start_failure(failure, "START")));
        }
    }
    record.startup = setup_began.elapsed();

    let mut time_left = players.each_ref().map(|p| p.config.tc.match_ms as i64);
    // A side that has seen every stone but the opponent's last gets TURN; otherwise BOARD.
    let mut synced = [setup.opening.is_empty(); 2];
    loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(Outcome {
                winner: None,
                reason: Reason::Aborted,
            });
        }
        let color = referee.to_move();
        let side = color.index();
        let player = &mut players[side];
        let tc = player.config.tc;
        let tolerance = player.config.tolerance;
        let Some(engine) = player.engine.as_mut() else {
            unreachable!("both engines were started above");
        };

        let mut lines = vec![format!(
            "INFO time_left {}",
            if tc.match_ms > 0 {
                time_left[side]
            } else {
                NO_CLOCK
            }
        )];
        if !synced[side] {
            lines.push("BOARD".to_string());
            for &(pos, stone) in referee.stones() {
                lines.push(format!(
                    "{},{},{}",
                    pos.x(),
                    pos.y(),
                    if stone == color { 1 } else { 2 }
                ));
            }
            lines.push("DONE".to_string());
        } else if let Some(&(last, _)) = referee.stones().last() {
            lines.push(format!("TURN {},{}", last.x(), last.y()));
        } else {
            lines.push("BEGIN".to_string());
        }
        engine.discard_pending();
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let limit_ms = if tc.match_ms > 0 {
            (tc.turn_ms as i64).min(time_left[side].max(0)) as u64
        } else {
            tc.turn_ms
        };
        let limit = Duration::from_millis(limit_ms);
        let allowed = limit + tolerance;
        let reply = engine.send_all(&lines).and_then(|sent| {
            let reply = engine.read_move(sent + limit + tolerance / 2, sent + allowed)?;
            Ok((sent, reply))
        });
        let (sent, reply) = match reply {
            Ok(sent_and_reply) => sent_and_reply,
            Err(failure) => {
                let reason = match failure {
                    Failure::Timeout => Reason::Timeout {
                        elapsed_ms: None,
                        allowed_ms: allowed.as_millis() as u64,
                    },
                    Failure::Crashed(what) => Reason::Crash(what),
                    Failure::Malformed(line) | Failure::Refused(line) => Reason::Malformed(line),
                };
                if matches!(reason, Reason::Timeout { .. } | Reason::Crash(_)) {
                    *player.engine = None;
                }
                return Ok(loss(color, reason));
            }
        };
        let elapsed = reply.at.saturating_duration_since(sent);
        if elapsed > allowed {
            // The line arrived just as the wait ended.
            *player.engine = None;
            return Ok(loss(
                color,
                Reason::Timeout {
                    elapsed_ms: Some(elapsed.as_millis() as u64),
                    allowed_ms: allowed.as_millis() as u64,
                },
            ));
        }
        if tc.match_ms > 0 {
            time_left[side] += tc.inc_ms as i64 - elapsed.as_millis() as i64;
        }
        let verdict = referee.play(reply.x, reply.y);
        if !matches!(
            verdict,
            Verdict::Fault(Fault::OffBoard { .. } | Fault::Occupied { .. })
        ) {
            record.moves.push(MoveRecord {
                x: reply.x,
                y: reply.y,
                color,
                micros: elapsed.as_micros() as u64,
                messages: reply.messages,
            });
        }
        synced[side] = true;
        match verdict {
            Verdict::Continue => {}
            Verdict::Five => {
                return Ok(Outcome {
                    winner: Some(color),
                    reason: Reason::Five,
                });
            }
            Verdict::DrawAfter(n) => {
                return Ok(Outcome {
                    winner: None,
                    reason: Reason::DrawAfter(n),
                });
            }
            Verdict::BoardFull => {
                return Ok(Outcome {
                    winner: None,
                    reason: Reason::BoardFull,
                });
            }
            Verdict::Fault(fault) => return Ok(loss(color, Reason::Fault(fault))),
        }
    }
}

/// START (or RECTSTART) and the INFO lines that set up a game.
fn start(setup: &Setup, player: &mut Player) -> Result<(), Failure> {
    let config = player.config;
    let Some(engine) = player.engine.as_mut() else {
        unreachable!("the engine was started before START");
    };
    engine.start(
        setup.width,
        setup.height,
        Instant::now() + config.init_timeout(),
    )?;
    let mut info = vec![
        format!("INFO timeout_turn {}", config.tc.turn_ms),
        format!("INFO timeout_match {}", config.tc.match_ms),
        format!("INFO max_memory {}", config.max_memory),
        "INFO game_type 1".to_string(),
        format!("INFO rule {}", setup.rule.protocol_value()),
    ];
    if config.tc.inc_ms > 0 {
        info.push(format!("INFO time_increment {}", config.tc.inc_ms));
    }
    if let Some(threads) = config.threads {
        info.push(format!("INFO thread_num {threads}"));
    }
    if let Some(depth) = config.depth {
        info.push(format!("INFO max_depth {depth}"));
    }
    if let Some(nodes) = config.nodes {
        info.push(format!("INFO max_node {nodes}"));
    }
    for (key, value) in &config.options {
        info.push(format!("INFO {key} {value}"));
    }
    let info: Vec<&str> = info.iter().map(String::as_str).collect();
    engine.send_all(&info).map(|_| ())
}

fn start_failure(failure: Failure, command: &str) -> Reason {
    Reason::StartFailed(match failure {
        Failure::Timeout => format!("no answer to {command}"),
        Failure::Crashed(what) => format!("{what} before answering {command}"),
        Failure::Malformed(line) | Failure::Refused(line) => {
            format!("answered {command} with {line:?}")
        }
    })
}
