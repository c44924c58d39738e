//! `pbrain-tengen`: with no argument, a Piskvork/Gomocup brain on stdin and stdout;
//! otherwise a tool. Dispatch only.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        // Managers may pass flags of their own (Yixin-Board starts engines with
        // `--force-utf8`): anything that is not a subcommand means the protocol.
        None => {
            tengen::protocol::run();
            Ok(0)
        }
        Some(flag) if flag.starts_with('-') && flag != "-h" && flag != "--help" => {
            tengen::protocol::run();
            Ok(0)
        }
        Some("arena") => tengen::arena::run(&args[1..]),
        Some("bench") => tengen::bench::run(&args[1..]).map(|()| 0),
        Some("play") => tengen::play::run(&args[1..]),
        Some(other) => Err(anyhow::anyhow!(
            "unknown subcommand {other:?}; subcommands: arena, bench, play; no argument runs the protocol"
        )),
    };
    match result {
        Ok(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
