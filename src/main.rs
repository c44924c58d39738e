//! `pbrain-tengen`: with no argument, a Piskvork/Gomocup brain on stdin and stdout;
//! otherwise a tool. Dispatch only.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("arena") {
        return match tengen::arena::run(&args[1..]) {
            Ok(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
            Err(e) => {
                eprintln!("arena: {e:#}");
                ExitCode::FAILURE
            }
        };
    }
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
