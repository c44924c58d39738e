//! Standard output of the subcommands (`arena`, `bench`, `pool`, `tune`), which people
//! pipe into other tools. A reader may stop early (`… | head`), and `print!` would then
//! panic on the closed pipe: text goes out through [`show`], which tells the caller
//! instead.

use std::io::Write;

/// Writes `text` to standard output and flushes it, and tells whether it could: false
/// once the reader has gone.
pub fn show(text: &str) -> bool {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .is_ok()
}
