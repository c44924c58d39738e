//! Drives a real brain process over pipes, the way a manager does.
//!
//! The brain is `pbrain-tengen` from this build, or the executable named by the
//! environment variable `TENGEN_BRAIN` (for example a wrapper that runs the Windows exe
//! under Wine). Reads never block forever: a thread reads stdout into a channel and every
//! wait has a generous deadline, long enough for a slow emulated start.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long any single reply may take before the test fails.
pub const REPLY_TIMEOUT: Duration = Duration::from_secs(20);

pub struct Brain {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Lines of stdout, line ending removed; `None` once stdout has closed.
    lines: Receiver<Option<String>>,
    closed: bool,
}

fn brain_path() -> String {
    std::env::var("TENGEN_BRAIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_pbrain-tengen").to_owned())
}

impl Brain {
    pub fn start() -> Brain {
        Brain::start_with_args(&[])
    }

    /// The brain's executable run with command-line arguments (a subcommand).
    pub fn start_with_args(args: &[&str]) -> Brain {
        let path = brain_path();
        let mut child = Command::new(&path)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start the brain {path}: {e}"));
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut raw = Vec::new();
            loop {
                raw.clear();
                match reader.read_until(b'\n', &mut raw) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(None);
                        return;
                    }
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&raw).into_owned();
                        // A reply may end in LF or CR LF; anything else stays, so that a
                        // trailing space in a move line is caught.
                        let text = text.strip_suffix('\n').unwrap_or(&text);
                        let text = text.strip_suffix('\r').unwrap_or(text);
                        if tx.send(Some(text.to_owned())).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Brain {
            child,
            stdin,
            lines: rx,
            closed: false,
        }
    }

    /// The brain's process id (of the wrapper, when `TENGEN_BRAIN` names one).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the brain is this build's own binary (not a wrapper named by
    /// `TENGEN_BRAIN`), so that its process can be inspected directly.
    pub fn is_native() -> bool {
        std::env::var_os("TENGEN_BRAIN").is_none()
    }

    /// A brain after `START size` (answered `OK`) with a short turn limit, so tests
    /// that think do not wait long.
    pub fn started(size: usize) -> Brain {
        let mut brain = Brain::start();
        brain.send(&format!("START {size}"));
        brain.expect("OK");
        brain.send("INFO timeout_turn 300");
        brain
    }

    /// Sends raw bytes.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to the brain");
        stdin.flush().expect("flush to the brain");
    }

    /// Sends one line ending in CR LF, as Piskvork and GomocupJudge do.
    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\r\n").as_bytes());
    }

    /// Sends several lines.
    pub fn send_all(&mut self, lines: &[&str]) {
        for line in lines {
            self.send(line);
        }
    }

    /// Closes the brain's stdin, as a manager that has gone away.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line of any kind, or `None` if stdout closed.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        if self.closed {
            return None;
        }
        match self.lines.recv_timeout(timeout) {
            Ok(Some(line)) => Some(line),
            Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                None
            }
            Err(RecvTimeoutError::Timeout) => panic!("no output from the brain within {timeout:?}"),
        }
    }

    /// The next line of any kind; fails the test if stdout closes.
    pub fn line(&mut self) -> String {
        self.next_line(REPLY_TIMEOUT)
            .expect("the brain closed its output")
    }

    /// The next line that is not `MESSAGE` or `DEBUG`, with the messages before it.
    pub fn reply_with_messages(&mut self) -> (Vec<String>, String) {
        let mut messages = Vec::new();
        loop {
            let line = self.line();
            if line.starts_with("MESSAGE ") || line.starts_with("DEBUG ") {
                messages.push(line);
            } else {
                return (messages, line);
            }
        }
    }

    /// The next line that is not `MESSAGE` or `DEBUG`.
    pub fn reply(&mut self) -> String {
        self.reply_with_messages().1
    }

    /// The next reply must be exactly `expected`.
    pub fn expect(&mut self, expected: &str) {
        let got = self.reply();
        assert_eq!(got, expected);
    }

    /// The next line, messages included, must start with `prefix`.
    pub fn expect_line_prefix(&mut self, prefix: &str) -> String {
        let line = self.line();
        assert!(
            line.starts_with(prefix),
            "expected a line starting with {prefix:?}, got {line:?}"
        );
        line
    }

    /// The next reply must be a move `x,y` and nothing else; returns it.
    pub fn expect_move(&mut self) -> (usize, usize) {
        let line = self.reply();
        parse_move(&line).unwrap_or_else(|| panic!("expected a move x,y, got {line:?}"))
    }

    /// Asks for `ABOUT` and checks that it is the very next line: nothing else (no reply
    /// to an INFO, no second ERROR line) was printed before it.
    pub fn expect_silence(&mut self) {
        self.send("ABOUT");
        let line = self.line();
        assert!(
            line.starts_with("name=\""),
            "expected only the ABOUT reply, got {line:?}"
        );
    }

    /// Checks that exactly one line starting with `prefix` is printed now.
    pub fn expect_one(&mut self, prefix: &str) -> String {
        let line = self.expect_line_prefix(prefix);
        self.expect_silence();
        line
    }

    /// Waits for the process to end.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("query the brain") {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Every line left on stdout until it closes.
    pub fn remaining_lines(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        while let Some(line) = self.next_line(REPLY_TIMEOUT) {
            lines.push(line);
        }
        lines
    }

    /// Which points hold a stone, found by taking back every point of a
    /// `width` × `height` board (`OK` means a stone was there). Empties the board.
    pub fn probe_stones(&mut self, width: usize, height: usize) -> BTreeSet<(usize, usize)> {
        for y in 0..height {
            for x in 0..width {
                self.send(&format!("TAKEBACK {x},{y}"));
            }
        }
        let mut stones = BTreeSet::new();
        for y in 0..height {
            for x in 0..width {
                let reply = self.reply();
                if reply == "OK" {
                    stones.insert((x, y));
                } else {
                    assert!(reply.starts_with("ERROR "), "TAKEBACK {x},{y}: {reply:?}");
                }
            }
        }
        stones
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// `x,y` with two non-negative integers and nothing else.
pub fn parse_move(line: &str) -> Option<(usize, usize)> {
    let (x, y) = line.split_once(',')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(x) || !digits(y) {
        return None;
    }
    Some((x.parse().ok()?, y.parse().ok()?))
}

/// A point in Gomocup's "pos" notation (`h8`: column h, row 8) as (x, y) from 0.
pub fn pos(name: &str) -> (usize, usize) {
    let x = (name.as_bytes()[0] - b'a') as usize;
    let y: usize = name[1..].parse().expect("row number");
    (x, y - 1)
}

/// Splits a run of "pos" points such as `h8h9i8` into points.
pub fn positions(run: &str) -> Vec<(usize, usize)> {
    let mut points = Vec::new();
    let mut start = 0;
    let bytes = run.as_bytes();
    for i in 1..=bytes.len() {
        if i == bytes.len() || bytes[i].is_ascii_alphabetic() {
            points.push(pos(&run[start..i]));
            start = i;
        }
    }
    points
}

/// `BOARD` lines for moves played in order from black, marked relative to the side to
/// move (1 = its stones, 2 = the other side's), then `DONE`.
pub fn board_lines(moves: &[(usize, usize)], header: &str) -> Vec<String> {
    let to_move_is_black = moves.len().is_multiple_of(2);
    let mut lines = vec![header.to_owned()];
    for (i, &(x, y)) in moves.iter().enumerate() {
        let black = i % 2 == 0;
        let field = if black == to_move_is_black { 1 } else { 2 };
        lines.push(format!("{x},{y},{field}"));
    }
    lines.push("DONE".to_owned());
    lines
}
