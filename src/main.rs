//! `pbrain-tengen`: with no argument, a Piskvork/Gomocup brain on stdin and stdout;
//! otherwise a tool. Dispatch only.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None => {
            tengen::protocol::run();
            Ok(())
        }
        Some("bench") => tengen::bench::run(&args[1..]),
        Some(other) => Err(anyhow::anyhow!(
            "unknown subcommand {other:?}; run without arguments for the protocol"
        )),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
