//! The process's memory budget: how large the transposition table may be under the
//! manager's `max_memory`, and the limit that leaves room for a table size asked for.
//!
//! The limit covers the whole process, so the table gets what remains after everything
//! else the process holds, estimated with room to spare. `protocol-tests/memory.rs`
//! checks the estimates from the outside: a brain playing under a limit keeps its
//! measured peak resident size below it.

const MIB: u64 = 1 << 20;

/// The memory limit used when the manager sends `max_memory 0` (no limit): Gomocup's own
/// limit of 350 MiB, so that a brain run without a limit behaves as in the tournament.
pub const DEFAULT_MAX_MEMORY: u64 = 350 * MIB;
/// Everything the process holds besides the table and the search threads: the binary and
/// its libraries, the main thread's stack, pattern and Zobrist tables, protocol buffers.
/// An estimate with room to spare; the measured peak resident size is the check.
pub const OTHER_MEMORY: usize = 16 << 20;
/// Each search thread: its stack (touched only as deep as the search goes) plus its own
/// board, state stack, history tables and leaf VCF answers (128 KiB).
pub const PER_THREAD: usize = 8 << 20;
/// Percentage of the limit kept unused for what the estimates above miss, such as
/// allocator overhead and fragmentation.
pub const SAFETY_MARGIN_PERCENT: u64 = 10;
/// The smallest table worth playing with. A limit that leaves less than this after the
/// rest is too small to play within: about 28 MiB for one thread, 37 MiB for two.
pub const MIN_TABLE_BYTES: usize = 1 << 20;

/// What the process holds besides the table when `threads` search threads run.
fn rest_bytes(threads: usize) -> u64 {
    let threads = u64::try_from(threads.max(1)).unwrap_or(u64::MAX);
    (OTHER_MEMORY as u64).saturating_add(threads.saturating_mul(PER_THREAD as u64))
}

/// The table size for a process limited to `max_memory` bytes (`0`: [`DEFAULT_MAX_MEMORY`])
/// running `threads` search threads: the largest power of two that fits in the limit less
/// the safety margin, [`OTHER_MEMORY`] and [`PER_THREAD`] per thread. `None` when less
/// than [`MIN_TABLE_BYTES`] would remain.
pub fn table_bytes_for_limit(max_memory: u64, threads: usize) -> Option<usize> {
    let limit = if max_memory == 0 {
        DEFAULT_MAX_MEMORY
    } else {
        max_memory
    };
    let usable = limit - limit / 100 * SAFETY_MARGIN_PERCENT;
    let budget = usable.checked_sub(rest_bytes(threads))?;
    if budget < MIN_TABLE_BYTES as u64 {
        return None;
    }
    let bytes = 1u64 << budget.ilog2();
    Some(usize::try_from(bytes).unwrap_or(1 << (usize::BITS - 1)))
}

/// The least process limit (to within the safety margin's rounding) under which
/// [`table_bytes_for_limit`] leaves a table of `table_bytes` (rounded down to a power of
/// two) for `threads` search threads: how a hash size asked for in bytes becomes a
/// limit the search can size itself by.
pub fn limit_for_table_bytes(table_bytes: u64, threads: usize) -> u64 {
    let needed = table_bytes.saturating_add(rest_bytes(threads));
    needed.saturating_mul(100) / (100 - SAFETY_MARGIN_PERCENT) + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn mib(n: u64) -> u64 {
        n * MIB
    }

    #[test]
    fn the_budget_subtracts_the_rest_of_the_process() {
        let table = |limit, threads| table_bytes_for_limit(limit, threads).map(|b| b as u64);
        assert_eq!(table(mib(350), 1), Some(mib(256)));
        assert_eq!(table(0, 1), table(DEFAULT_MAX_MEMORY, 1));
        assert_eq!(DEFAULT_MAX_MEMORY, 367_001_600, "Gomocup's limit");
        assert_eq!(table(mib(64), 1), Some(mib(32)));
        assert_eq!(table(mib(64), 2), Some(mib(16)));
        assert_eq!(table(mib(64), 0), table(mib(64), 1));
        assert_eq!(table(mib(1024), 2), Some(mib(512)));

        // The documented minimum limits: about 28 MiB for one thread, 37 MiB for two.
        assert_eq!(table(mib(27), 1), None);
        assert_eq!(table(mib(28), 1), Some(mib(1)));
        assert_eq!(table(mib(36), 2), None);
        assert_eq!(table(mib(37), 2), Some(mib(1)));
        assert_eq!(table(mib(10), 1), None);
        assert_eq!(table(1, 1), None);
        assert_eq!(table(mib(350), usize::MAX), None);
        assert!(table(u64::MAX, 1).is_some_and(u64::is_power_of_two));

        for limit in (20..2000).step_by(7).map(mib) {
            for threads in 1..=8 {
                let Some(table) = table(limit, threads) else {
                    continue;
                };
                let rest = (OTHER_MEMORY + threads * PER_THREAD) as u64;
                let usable = limit * (100 - SAFETY_MARGIN_PERCENT) / 100;
                assert!(table.is_power_of_two() && table >= MIN_TABLE_BYTES as u64);
                assert!(table + rest <= usable, "{limit} {threads}");
                assert!(2 * table + rest > usable, "largest power of two");
            }
        }
    }

    #[test]
    fn a_table_size_asked_for_gets_the_least_limit_that_leaves_it() {
        for threads in 1..=8 {
            for table in (20..32).map(|bits| 1u64 << bits) {
                let limit = limit_for_table_bytes(table, threads);
                let got = table_bytes_for_limit(limit, threads).map(|b| b as u64);
                assert_eq!(got, Some(table), "{table} {threads}");
                // One percent less no longer leaves it: the limit is the least, to
                // within the margin's rounding.
                let below = limit - limit / 100;
                let smaller = table_bytes_for_limit(below, threads).map(|b| b as u64);
                assert!(smaller < Some(table), "{table} {threads}");
            }
        }
        assert_eq!(limit_for_table_bytes(u64::MAX, 1), u64::MAX / 90 + 1);
    }
}
