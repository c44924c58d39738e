//! The Piskvork/Gomocup protocol layer: text in, replies out.
//!
//! A reader thread owns stdin and turns lines into typed [`Command`]s (`parser.rs`,
//! `reader.rs`); the controller on the main thread takes them in order and drives the
//! [`Engine`](crate::engine::Engine) (`controller.rs` plus one handler module per
//! command family). All replies go through [`Output`]. The reader acts on `END` and
//! `YXSTOP` itself, so both work while the controller is busy searching.

mod command;
mod controller;
mod parser;
mod piskvork;
mod reader;
mod swap2;
mod yixin;

pub use command::{Command, Coord, Info};
pub use controller::Controller;
pub use parser::Parser;
pub use reader::{ReaderContext, Received, StopControl, read_loop};

use crate::output::Output;
use std::time::Instant;

/// Runs the brain on stdin and stdout until `END` or the end of input.
/// Runs the brain on stdin and stdout until `END` or the end of input. `threads`, from
/// the command line, replaces the build's default thread count (`INFO thread_num`
/// still overrides both).
pub fn run(threads: Option<usize>, one_ply: bool) {
    let out = Output::stdout();
    let stop = StopControl::new();
    let (tx, rx) = crossbeam_channel::unbounded();
    {
        let out = out.clone();
        let stop = stop.clone();
        std::thread::Builder::new()
            .name("stdin".to_owned())
            .spawn(move || {
                let ctx = ReaderContext {
                    stop: &stop,
                    out: &out,
                    clock: Instant::now,
                    // END must end the process within the managers' patience however
                    // deep the search is; output is already silenced, so exiting from
                    // here cannot cut a reply in half.
                    on_end: || std::process::exit(0),
                };
                read_loop(std::io::stdin().lock(), tx, ctx);
            })
            .expect("spawn the stdin reader");
    }
    let mut controller = Controller::new(out, stop);
    if let Some(n) = threads {
        controller.set_threads(n);
    }
    controller.set_one_ply(one_ply);
    for received in rx {
        controller.handle(received);
    }
}
