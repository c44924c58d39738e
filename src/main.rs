fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("arena") {
        let code = tengen::arena::run(&args[2..]).unwrap_or_else(|error| {
            eprintln!("arena: {error:#}");
            1
        });
        std::process::exit(code);
    }
}
