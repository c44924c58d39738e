//! One engine process, driven over the Piskvork protocol without ever blocking the arena.
//!
//! A reader thread owns the engine's stdout and forwards each line, stamped with the
//! moment it arrived, through a channel; every wait on the engine is a receive with a
//! deadline, so a silent or hung engine costs at most its time limit. The thread ends
//! when stdout closes, which is how a crash shows up (a write to a dead engine fails too).
//! `MESSAGE`, `DEBUG`, `UNKNOWN`, `ERROR` and `SUGGEST` lines are skipped while a move is
//! awaited (MESSAGE text is kept for the game record); any other line must be a move,
//! exactly `int,int`. The process is killed when the `Engine` is dropped.

use super::config::EngineConfig;
use anyhow::{Context, Result};
use crossbeam_channel::{Receiver, RecvTimeoutError, bounded, unbounded};
use parking_lot::Mutex;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Some brains drop a command that arrives in the same instant as their previous reply
/// (Rapfi does); managers that pause a few milliseconds are safe.
const COMMAND_GAP: Duration = Duration::from_millis(3);
/// How long a process gets to exit after `END` before it is killed.
const END_GRACE: Duration = Duration::from_secs(1);

/// A line from the engine and when the reader thread received it.
struct Line {
    text: String,
    at: Instant,
}

/// A shared, timestamped transcript of the I/O of the engines in one game.
#[derive(Clone)]
pub struct Transcript {
    start: Instant,
    lines: Arc<Mutex<String>>,
}

impl Default for Transcript {
    fn default() -> Transcript {
        Transcript {
            start: Instant::now(),
            lines: Arc::new(Mutex::new(String::new())),
        }
    }
}

impl Transcript {
    fn note(&self, who: &str, arrow: &str, text: &str) {
        let ms = self.start.elapsed().as_secs_f64() * 1000.0;
        let _ = writeln!(self.lines.lock(), "{ms:10.1} {who} {arrow} {text}");
    }

    pub fn take(&self) -> String {
        std::mem::take(&mut self.lines.lock())
    }
}

/// Why an engine stopped answering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// No acceptable answer before the deadline.
    Timeout,
    /// The process exited, closed its output, or could not be written to.
    Crashed(String),
    /// A line that is neither a move nor a skippable reply.
    Malformed(String),
    /// `ERROR` (or something else than `OK`) in answer to START.
    Refused(String),
}

/// A move reply: the coordinates as sent, and when the line arrived.
#[derive(Clone, Debug)]
pub struct Reply {
    pub x: i64,
    pub y: i64,
    pub at: Instant,
    /// MESSAGE lines the engine sent with this move.
    pub messages: Vec<String>,
}

pub struct Engine {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Line>,
    /// When the engine last sent a line (for `COMMAND_GAP`).
    last_output: Instant,
    transcript: Option<Transcript>,
    /// The engine's answer to ABOUT.
    pub about: String,
}

impl Engine {
    /// Starts the engine and asks it `ABOUT` (once per process, as c-gomoku-cli does).
    /// Errors only when the program cannot be started at all; an engine that starts but
    /// does not answer is reported as a `Failure`.
    pub fn spawn(
        config: &EngineConfig,
        transcript: Option<Transcript>,
    ) -> Result<std::result::Result<Engine, Failure>> {
        // A relative program path with a '/' is taken from the arena's directory even when
        // the engine runs elsewhere (`dir=`), where the OS would look for it otherwise.
        let program = if config.dir.is_some() && config.program.components().count() > 1 {
            std::path::absolute(&config.program)?
        } else {
            config.program.clone()
        };
        let mut command = Command::new(&program);
        command
            .args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        if let Some(dir) = &config.dir {
            command.current_dir(dir);
        }
        let mut child = command.spawn().with_context(|| {
            format!(
                "cannot start engine {} ({})",
                config.name,
                program.display()
            )
        })?;
        let stdin = child.stdin.take().context("engine stdin")?;
        let stdout = child.stdout.take().context("engine stdout")?;
        let (sender, lines) = unbounded();
        std::thread::Builder::new()
            .name(format!("{}-stdout", config.name))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buffer = Vec::new();
                loop {
                    buffer.clear();
                    match reader.read_until(b'\n', &mut buffer) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let at = Instant::now();
                            let text = String::from_utf8_lossy(&buffer);
                            let text = text.trim_end_matches(['\n', '\r']).to_string();
                            if sender.send(Line { text, at }).is_err() {
                                break;
                            }
                        }
                    }
                }
            })
            .context("cannot start a reader thread")?;
        let mut engine = Engine {
            name: config.name.clone(),
            child,
            stdin,
            lines,
            last_output: Instant::now(),
            transcript,
            about: String::new(),
        };
        let deadline = Instant::now() + config.init_timeout();
        if let Err(failure) = engine.send("ABOUT") {
            return Ok(Err(failure));
        }
        loop {
            match engine.next_line(deadline) {
                Ok(line)
                    if matches!(
                        skippable(&line.text),
                        Some(Skip::Message | Skip::Debug | Skip::Empty)
                    ) => {}
                Ok(line) => {
                    engine.about = line.text;
                    return Ok(Ok(engine));
                }
                Err(failure) => return Ok(Err(failure)),
            }
        }
    }

    pub fn set_transcript(&mut self, transcript: Option<Transcript>) {
        self.transcript = transcript;
    }

    /// Sends one command line.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        self.send_all(&[line]).map(|_| ())
    }

    /// Sends several lines in one write (a BOARD block, or INFO time_left + TURN) and
    /// returns when the write began: the engine's clock starts then.
    pub fn send_all(&mut self, lines: &[&str]) -> Result<Instant, Failure> {
        let gap = self.last_output.elapsed();
        if gap < COMMAND_GAP {
            std::thread::sleep(COMMAND_GAP - gap);
        }
        let mut text = String::new();
        for line in lines {
            if let Some(t) = &self.transcript {
                t.note(&self.name, "<", line);
            }
            text.push_str(line);
            text.push('\n');
        }
        let at = Instant::now();
        match self
            .stdin
            .write_all(text.as_bytes())
            .and_then(|()| self.stdin.flush())
        {
            Ok(()) => Ok(at),
            Err(_) => Err(self.crash_failure("stopped reading its input")),
        }
    }

    /// Throws away anything the engine printed that no command asked for yet, so a late
    /// or doubled reply is never taken as the answer to the next command.
    pub fn discard_pending(&mut self) {
        while let Ok(line) = self.lines.try_recv() {
            self.last_output = line.at;
            if let Some(t) = &self.transcript {
                t.note(&self.name, "> (stale)", &line.text);
            }
        }
    }

    /// Sends START (or RECTSTART) and waits for `OK`.
    pub fn start(&mut self, width: usize, height: usize, deadline: Instant) -> Result<(), Failure> {
        self.discard_pending();
        let command = if width == height {
            format!("START {width}")
        } else {
            format!("RECTSTART {width},{height}")
        };
        self.send(&command)?;
        loop {
            let line = self.next_line(deadline)?;
            let text = line.text.trim();
            if text.eq_ignore_ascii_case("OK") {
                return Ok(());
            }
            match skippable(text) {
                Some(Skip::Message | Skip::Debug | Skip::Empty) => {}
                _ => return Err(Failure::Refused(line.text)),
            }
        }
    }

    /// Waits for a move. `stop_at` is when `YXSTOP` is sent to an engine that is still
    /// thinking (as c-gomoku-cli does); `deadline` is when waiting ends.
    pub fn read_move(&mut self, stop_at: Instant, deadline: Instant) -> Result<Reply, Failure> {
        let mut messages = Vec::new();
        let mut stop_sent = false;
        loop {
            let wait_until = if stop_sent {
                deadline
            } else {
                stop_at.min(deadline)
            };
            let line = match self.next_line(wait_until) {
                Ok(line) => line,
                Err(Failure::Timeout) if !stop_sent && Instant::now() < deadline => {
                    stop_sent = true;
                    self.send("YXSTOP")?;
                    continue;
                }
                Err(failure) => return Err(failure),
            };
            match skippable(&line.text) {
                Some(Skip::Message) => {
                    let text = line.text.trim();
                    messages.push(
                        text.split_once(char::is_whitespace)
                            .map_or("", |(_, rest)| rest.trim())
                            .to_string(),
                    );
                }
                Some(_) => {}
                None => {
                    return match parse_move(&line.text) {
                        Some((x, y)) => Ok(Reply {
                            x,
                            y,
                            at: line.at,
                            messages,
                        }),
                        None => Err(Failure::Malformed(line.text)),
                    };
                }
            }
        }
    }

    /// Asks the engine to exit, waits up to the grace period, then kills it.
    pub fn shutdown(mut self) {
        let _ = self.send("END");
        let deadline = Instant::now() + END_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn next_line(&mut self, deadline: Instant) -> Result<Line, Failure> {
        match self.lines.recv_deadline(deadline) {
            Ok(line) => {
                self.last_output = line.at;
                if let Some(t) = &self.transcript {
                    t.note(&self.name, ">", &line.text);
                }
                Ok(line)
            }
            Err(crossbeam_channel::RecvTimeoutError::Timeout) => Err(Failure::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(self.crash_failure("closed its output")),
        }
    }

    /// Describes how the process ended (waiting briefly for it to be reaped), or what was
    /// seen if it is still running.
    fn crash_failure(&mut self, seen: &str) -> Failure {
        let deadline = Instant::now() + Duration::from_millis(500);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                _ => break None,
            }
        };
        let what = match status {
            Some(status) => format!("exited ({status})"),
            None => seen.to_string(),
        };
        if let Some(t) = &self.transcript {
            t.note(&self.name, "!", &what);
        }
        Failure::Crashed(what)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Ends several engines at once, so their grace periods overlap.
pub fn shutdown_all(engines: Vec<Engine>) {
    let (done, finished) = bounded::<()>(engines.len());
    let count = engines.len();
    for engine in engines {
        let done = done.clone();
        std::thread::spawn(move || {
            engine.shutdown();
            let _ = done.send(());
        });
    }
    for _ in 0..count {
        let _ = finished.recv();
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Skip {
    Message,
    Debug,
    Unknown,
    Error,
    Suggest,
    Empty,
}

/// Classifies a line that is not an answer: informational output is recognised by its
/// first word, without regard to case (as Piskvork does).
fn skippable(text: &str) -> Option<Skip> {
    let text = text.trim_start();
    if text.trim_end().is_empty() {
        return Some(Skip::Empty);
    }
    let word = text.split_whitespace().next().unwrap_or("");
    [
        ("MESSAGE", Skip::Message),
        ("DEBUG", Skip::Debug),
        ("UNKNOWN", Skip::Unknown),
        ("ERROR", Skip::Error),
        ("SUGGEST", Skip::Suggest),
    ]
    .into_iter()
    .find(|(name, _)| word.eq_ignore_ascii_case(name))
    .map(|(_, skip)| skip)
}

/// A move is exactly two decimal integers joined by a comma: no spaces, no other text.
fn parse_move(text: &str) -> Option<(i64, i64)> {
    let (x, y) = text.split_once(',')?;
    Some((parse_int(x)?, parse_int(y)?))
}

fn parse_int(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_must_be_exactly_two_integers() {
        assert_eq!(parse_move("7,7"), Some((7, 7)));
        assert_eq!(parse_move("-1,14"), Some((-1, 14)));
        assert_eq!(parse_move("10,0"), Some((10, 0)));
        for bad in [
            "7,7 ", " 7,7", "7, 7", "7,7,7", "7;7", "+7,7", "7,", ",7", "a,b", "7", "", "-,1",
        ] {
            assert_eq!(parse_move(bad), None, "{bad:?}");
        }
        assert_eq!(parse_move("99999999999999999999,1"), None);
    }

    #[test]
    fn informational_lines_are_recognised() {
        assert_eq!(skippable("MESSAGE depth 7"), Some(Skip::Message));
        assert_eq!(skippable("message hi"), Some(Skip::Message));
        assert_eq!(skippable("DEBUG x"), Some(Skip::Debug));
        assert_eq!(skippable("UNKNOWN YXSTOP"), Some(Skip::Unknown));
        assert_eq!(skippable("ERROR bad"), Some(Skip::Error));
        assert_eq!(skippable("SUGGEST 7,7"), Some(Skip::Suggest));
        assert_eq!(skippable("   "), Some(Skip::Empty));
        assert_eq!(skippable("7,7"), None);
        assert_eq!(skippable("MESSAGES"), None);
        assert_eq!(skippable("hello"), None);
    }
}
