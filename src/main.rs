//! `pbrain-tengen`: with no argument, a Piskvork/Gomocup brain on stdin and stdout.
//! Subcommands are dispatched here and nothing else.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => tengen::protocol::run(),
        Some(other) => {
            eprintln!("pbrain-tengen: unknown subcommand '{other}'");
            eprintln!("usage: pbrain-tengen   (no argument: speak the Piskvork protocol)");
            std::process::exit(2);
        }
    }
}
