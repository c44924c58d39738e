//! `pbrain-tengen`: with no argument, a Piskvork/Gomocup brain on stdin and stdout;
//! otherwise a tool. Dispatch only.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        // Managers may pass flags of their own (Yixin-Board starts engines with
        // `--force-utf8`): anything that is not a subcommand means the protocol.
        None => {
            tengen::protocol::run(None, false);
            Ok(0)
        }
        Some(flag) if flag.starts_with('-') && flag != "-h" && flag != "--help" => {
            threads_flag(&args).map(|threads| {
                // A baseline for matches: every move from the static move order alone.
                let one_ply = args.iter().any(|a| a == "--one-ply");
                tengen::protocol::run(threads, one_ply);
                0
            })
        }
        Some("arena") => tengen::arena::run(&args[1..]),
        Some("bench") => tengen::bench::run(&args[1..]).map(|()| 0),
        Some("play") => tengen::play::run(&args[1..]),
        Some("pool") => tengen::arena::pool::run(&args[1..]),
        Some("tune") => tengen::tune::run(&args[1..]),
        Some(other) => Err(anyhow::anyhow!(
            "unknown subcommand {other:?}; subcommands: arena, bench, play, pool, tune; no argument runs the protocol"
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

/// `--threads N` among the protocol-mode flags; other flags belong to managers.
fn threads_flag(args: &[String]) -> anyhow::Result<Option<usize>> {
    match args.iter().position(|a| a == "--threads") {
        None => Ok(None),
        Some(i) => {
            let value = args
                .get(i + 1)
                .ok_or_else(|| anyhow::anyhow!("--threads needs a number"))?;
            let n: usize = value
                .parse()
                .map_err(|_| anyhow::anyhow!("--threads {value:?} is not a number"))?;
            anyhow::ensure!((1..=256).contains(&n), "--threads must be 1..=256");
            Ok(Some(n))
        }
    }
}
