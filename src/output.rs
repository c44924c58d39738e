//! The only writer to the brain's stdout.
//!
//! Managers read the brain line by line and time it from the moment a command is sent,
//! so every line is written whole (one `write_all` under a lock, never interleaved with
//! another thread's line) and flushed at once. After `END` the brain must print nothing
//! more: [`Output::silence`] closes the gate for good. Writers look at the gate under the
//! lock, so once `silence` has held the lock no line can start; it waits only briefly
//! for a line in progress, because a writer blocked on a full pipe (a manager that has
//! stopped reading) must not keep the brain from exiting.
//!
//! Everything that talks to the manager goes through an [`Output`] handle; search code
//! reports progress through callbacks and never sees it.

use parking_lot::Mutex;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How long [`Output::silence`] waits for a line being written to finish.
const SILENCE_WAIT: Duration = Duration::from_millis(50);

struct Shared {
    out: Mutex<Box<dyn Write + Send>>,
    silent: AtomicBool,
}

/// A cloneable handle to the brain's output stream.
#[derive(Clone)]
pub struct Output {
    shared: Arc<Shared>,
}

impl Output {
    /// The process's stdout.
    pub fn stdout() -> Output {
        Output::to_writer(std::io::stdout())
    }

    /// Any writer; used to capture the brain's replies in tests.
    pub fn to_writer(out: impl Write + Send + 'static) -> Output {
        Output {
            shared: Arc::new(Shared {
                out: Mutex::new(Box::new(out)),
                silent: AtomicBool::new(false),
            }),
        }
    }

    /// Writes one line and flushes it. Line breaks inside `text` become spaces, because
    /// a manager would read the second half as a separate reply (possibly as a move).
    pub fn line(&self, text: &str) {
        let mut line: String = text
            .chars()
            .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
            .collect();
        line.push('\n');
        let mut out = self.shared.out.lock();
        if self.shared.silent.load(Ordering::SeqCst) {
            return;
        }
        // A failed write means the manager has gone away; there is nobody to tell, and
        // stopping further attempts keeps a dead pipe from costing time in every reply.
        if out
            .write_all(line.as_bytes())
            .and_then(|()| out.flush())
            .is_err()
        {
            self.shared.silent.store(true, Ordering::SeqCst);
        }
    }

    /// A `MESSAGE` line: information for the user, skipped by every manager's move parser.
    pub fn message(&self, text: &str) {
        self.line(&format!("MESSAGE {text}"));
    }

    /// An `ERROR` line: a known command the brain could not carry out.
    pub fn error(&self, text: &str) {
        self.line(&format!("ERROR {text}"));
    }

    /// An `UNKNOWN` line: a command the brain does not know.
    pub fn unknown(&self, text: &str) {
        self.line(&format!("UNKNOWN {text}"));
    }

    /// Stops all further output, for good.
    pub fn silence(&self) {
        self.shared.silent.store(true, Ordering::SeqCst);
        // Holding the lock once means any line in progress has ended; if a writer is
        // stuck on a full pipe, give up waiting, as the caller is about to exit.
        drop(self.shared.out.try_lock_for(SILENCE_WAIT));
    }
}

#[cfg(test)]
pub(crate) mod capture {
    //! An in-memory sink for tests that need to read what the brain printed.

    use super::Output;
    use parking_lot::Mutex;
    use std::io::Write;
    use std::sync::Arc;

    #[derive(Clone, Default)]
    pub struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Captured {
        /// Takes the lines printed so far.
        pub fn take_lines(&self) -> Vec<String> {
            let bytes = std::mem::take(&mut *self.0.lock());
            String::from_utf8(bytes)
                .expect("output is UTF-8")
                .lines()
                .map(str::to_owned)
                .collect()
        }
    }

    pub fn output() -> (Output, Captured) {
        let captured = Captured::default();
        (Output::to_writer(captured.clone()), captured)
    }
}

#[cfg(test)]
mod tests {
    use super::capture;

    #[test]
    fn lines_are_prefixed_and_newline_terminated() {
        let (out, captured) = capture::output();
        out.line("7,7");
        out.message("depth 3");
        out.error("bad size");
        out.unknown("FOO");
        assert_eq!(
            captured.take_lines(),
            ["7,7", "MESSAGE depth 3", "ERROR bad size", "UNKNOWN FOO"]
        );
    }

    #[test]
    fn embedded_line_breaks_cannot_split_a_reply() {
        let (out, captured) = capture::output();
        out.message("one\r\n7,7");
        assert_eq!(captured.take_lines(), ["MESSAGE one  7,7"]);
    }

    /// A writer that blocks until released, like a full pipe nobody reads.
    struct Stuck(std::sync::mpsc::Receiver<()>);

    impl std::io::Write for Stuck {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let _ = self.0.recv();
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn silence_does_not_wait_for_a_writer_stuck_on_a_full_pipe() {
        let (release, stuck) = std::sync::mpsc::channel();
        let out = super::Output::to_writer(Stuck(stuck));
        let writer = {
            let out = out.clone();
            std::thread::spawn(move || out.line("7,7"))
        };
        // Wait until the writer holds the lock and is blocked inside write.
        while out.shared.out.try_lock().is_some() {
            std::thread::yield_now();
        }
        out.silence();
        assert!(out.shared.silent.load(std::sync::atomic::Ordering::SeqCst));
        release.send(()).unwrap();
        writer.join().unwrap();
    }

    #[test]
    fn nothing_is_written_after_silence() {
        let (out, captured) = capture::output();
        out.line("OK");
        let clone = out.clone();
        out.silence();
        clone.line("7,7");
        out.message("late");
        assert_eq!(captured.take_lines(), ["OK"]);
    }
}
