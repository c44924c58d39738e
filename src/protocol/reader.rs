//! The stdin reader thread.
//!
//! It owns stdin for the life of the process, so the brain can react while it thinks:
//! `YXSTOP`/`STOP` (and `INFO timeout_turn 0`, a GUI's stop button) set the search's stop
//! flag at once, and `END` silences the output and ends the process at once, whatever
//! the controller is doing. Every other command goes to the controller over a channel,
//! stamped with the moment its first line arrived: the managers' clocks start when they
//! send a command, not when the controller gets round to it.
//!
//! At the end of input the channel is closed; the controller answers what is queued
//! and the process ends.

use super::command::{Command, Info};
use super::parser::Parser;
use crate::output::Output;
use crossbeam_channel::Sender;
use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// A command as the controller receives it.
#[derive(Debug)]
pub struct Received {
    /// When the command's first line was read.
    pub at: Instant,
    /// How many think commands had been read up to and including this one.
    pub think_seq: u64,
    pub cmd: Command,
}

/// The search stop flag, and which think commands a stop request covers.
///
/// A stop request must end the search it was meant for and no later one, even when it
/// overtakes its think command (the reader reads `YXSTOP` before the controller starts
/// the search), so requests carry the number of the last think command read before
/// them, and a search numbered `n` starts stopped if a request covers `n`.
#[derive(Default)]
pub struct StopControl {
    flag: Arc<AtomicBool>,
    covered: AtomicU64,
}

impl StopControl {
    pub fn new() -> Arc<StopControl> {
        Arc::new(StopControl::default())
    }

    /// The flag the search polls.
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.flag)
    }

    /// Stops the searches for think commands up to number `think_seq`.
    pub fn request(&self, think_seq: u64) {
        self.covered.fetch_max(think_seq, Ordering::SeqCst);
        self.flag.store(true, Ordering::SeqCst);
    }

    /// Arms the flag for the search of think command number `think_seq`.
    pub fn begin(&self, think_seq: u64) {
        // Clear first, then look: a request that lands in between either is seen by the
        // load or sets the flag after the clear.
        self.flag.store(false, Ordering::SeqCst);
        if self.covered.load(Ordering::SeqCst) >= think_seq {
            self.flag.store(true, Ordering::SeqCst);
        }
    }
}

/// What the reader needs besides its input and channel.
pub struct ReaderContext<'a, C, E> {
    pub stop: &'a StopControl,
    pub out: &'a Output,
    /// The time source for stamps (`Instant::now` in the brain).
    pub clock: C,
    /// Called after `END` has silenced the output; in the brain it ends the process.
    pub on_end: E,
}

/// Reads `input` until it ends or `END` arrives, forwarding commands to `tx`.
pub fn read_loop<C, E>(mut input: impl BufRead, tx: Sender<Received>, ctx: ReaderContext<'_, C, E>)
where
    C: FnMut() -> Instant,
    E: FnOnce(),
{
    let ReaderContext {
        stop,
        out,
        mut clock,
        on_end,
    } = ctx;
    let mut parser = Parser::new();
    let mut think_seq = 0;
    let mut block_start = None;
    let mut raw = Vec::new();
    loop {
        raw.clear();
        match input.read_until(b'\n', &mut raw) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let now = clock();
        // Managers end lines with CR LF or LF; a lone CR is taken as a line end too.
        for line in String::from_utf8_lossy(&raw).split(['\r', '\n']) {
            let opened_at = block_start.take().unwrap_or(now);
            let commands = parser.feed(line);
            if parser.in_block() {
                block_start = Some(if commands.is_empty() { opened_at } else { now });
            }
            for (i, cmd) in commands.into_iter().enumerate() {
                let at = if i == 0 { opened_at } else { now };
                match cmd {
                    Command::End => {
                        out.silence();
                        stop.request(u64::MAX);
                        on_end();
                        return;
                    }
                    Command::Stop => {
                        stop.request(think_seq);
                        continue;
                    }
                    Command::Info(Info::TimeoutTurn(0)) => stop.request(think_seq),
                    ref other if other.thinks() => think_seq += 1,
                    _ => {}
                }
                if tx.send(Received { at, think_seq, cmd }).is_err() {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::capture;
    use std::io::Cursor;
    use std::time::Duration;

    /// Runs the reader over `input` with a clock that advances 1 ms per read.
    fn run_bytes(input: &[u8], out: &Output) -> (Vec<Received>, Arc<StopControl>, bool, Instant) {
        let (tx, rx) = crossbeam_channel::unbounded();
        let stop = StopControl::new();
        let mut ended = false;
        let base = Instant::now();
        let mut reads = 0;
        let ctx = ReaderContext {
            stop: &stop,
            out,
            clock: || {
                reads += 1;
                base + Duration::from_millis(reads)
            },
            on_end: || ended = true,
        };
        read_loop(Cursor::new(input.to_vec()), tx, ctx);
        (rx.try_iter().collect(), stop, ended, base)
    }

    fn run(input: &str) -> (Vec<Received>, Arc<StopControl>, bool) {
        let (out, _) = capture::output();
        let (received, stop, ended, _) = run_bytes(input.as_bytes(), &out);
        (received, stop, ended)
    }

    fn commands(received: &[Received]) -> Vec<&Command> {
        received.iter().map(|r| &r.cmd).collect()
    }

    #[test]
    fn crlf_lf_and_cr_line_ends() {
        let (received, _, ended) = run("START 15\r\nBEGIN\nABOUT\rTURN 1,2");
        assert_eq!(
            commands(&received),
            [
                &Command::Start {
                    width: 15,
                    height: 15
                },
                &Command::Begin,
                &Command::About,
                &Command::Turn((1, 2)),
            ]
        );
        assert!(!ended, "end of input is not END");
    }

    #[test]
    fn end_stops_reading_and_silences() {
        let (out, captured) = capture::output();
        let (received, stop, ended, _) = run_bytes(b"ABOUT\r\nEND\r\nBEGIN\r\n", &out);
        assert!(ended);
        assert_eq!(commands(&received), [&Command::About]);
        assert!(stop.flag().load(Ordering::SeqCst));
        out.line("7,7");
        assert!(captured.take_lines().is_empty());
    }

    #[test]
    fn think_commands_are_numbered() {
        let (received, _, _) =
            run("START 15\nBEGIN\nINFO time_left 5\nTURN 1,1\nBOARD\n1,1,1\nDONE\nYXBOARD\nDONE\n");
        let seqs: Vec<u64> = received.iter().map(|r| r.think_seq).collect();
        assert_eq!(seqs, [0, 1, 1, 2, 3, 3]);
    }

    #[test]
    fn stop_is_not_forwarded_and_covers_the_last_think_command() {
        let (received, stop, _) = run("START 15\nBEGIN\nYXSTOP\n");
        assert_eq!(received.len(), 2);
        stop.begin(1);
        assert!(
            stop.flag().load(Ordering::SeqCst),
            "the BEGIN search starts stopped"
        );
        stop.begin(2);
        assert!(
            !stop.flag().load(Ordering::SeqCst),
            "a later search is not stopped"
        );
    }

    #[test]
    fn stop_before_any_think_stops_nothing() {
        let (_, stop, _) = run("STOP\nSTART 15\n");
        stop.begin(1);
        assert!(!stop.flag().load(Ordering::SeqCst));
    }

    #[test]
    fn timeout_turn_zero_also_stops_the_running_search() {
        let (received, stop, _) = run("BEGIN\nINFO timeout_turn 0\n");
        assert_eq!(received.len(), 2, "the INFO still reaches the controller");
        stop.begin(1);
        assert!(stop.flag().load(Ordering::SeqCst));
    }

    #[test]
    fn a_block_is_stamped_when_it_opens() {
        let (out, _) = capture::output();
        let (received, _, _, base) = run_bytes(b"ABOUT\nBOARD\n7,7,1\nDONE\nBEGIN\n", &out);
        let stamps: Vec<Duration> = received.iter().map(|r| r.at - base).collect();
        // Reads are 1 ms apart: ABOUT at 1, BOARD opens at 2 and closes at 4, BEGIN at 5.
        assert_eq!(stamps, [1, 2, 5].map(Duration::from_millis));
    }

    #[test]
    fn a_cut_block_and_the_cutting_command_keep_their_own_stamps() {
        let (out, _) = capture::output();
        let (received, _, _, base) = run_bytes(b"BOARD\n7,7,1\nABOUT\n", &out);
        let stamps: Vec<Duration> = received.iter().map(|r| r.at - base).collect();
        assert!(matches!(received[0].cmd, Command::Invalid(_)));
        assert_eq!(received[1].cmd, Command::About);
        assert_eq!(stamps, [1, 3].map(Duration::from_millis));
    }

    #[test]
    fn invalid_utf8_is_an_unknown_command_not_a_crash() {
        let (out, _) = capture::output();
        let (received, _, _, _) = run_bytes(b"\xff\xfe\r\nABOUT\r\n", &out);
        assert!(matches!(received[0].cmd, Command::Unknown(_)));
        assert_eq!(received[1].cmd, Command::About);
    }
}
