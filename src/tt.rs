//! The transposition table shared by every search thread, and the memory budget that sizes it.
//!
//! The table is lock-free: all threads hold a `&TranspositionTable` and every shared word is
//! an `AtomicU64` accessed with `Relaxed` ordering, which compiles to plain moves on x86. An
//! entry is two words, `key ^ data` and `data`. Two threads writing the same slot at once
//! can leave one thread's first word beside the other's second; such a torn entry fails the
//! `check ^ data == key` test on the next probe and is treated as a miss, so no lock is ever
//! needed and a probe never returns another position's data. Four entries make a 64-byte
//! bucket, one cache line, so a probe costs one memory access.
//!
//! Entries carry a 6-bit generation, bumped by [`TranspositionTable::new_search`] before each
//! search, so that the replacement policy can prefer entries written by the current search
//! over deeper but stale ones.
//!
//! Values are stored and returned exactly as given. Win and loss scores that count plies
//! from the root must be converted by the search to "distance from this node" before
//! storing and back after probing; the table knows nothing of plies.
//!
//! The second half of the module decides how large the table may be under a process-wide
//! memory limit ([`table_bytes_for_limit`]) and reads the process's peak resident size
//! ([`peak_rss_bytes`]) so that the limit can be checked from the outside.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

use crate::types::{GRID, Pos};

/// How a stored value relates to the true value of the position.
///
/// The discriminants are the stored bits; `Exact` is `Upper | Lower`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// No value bound: the entry only carries a move and a static evaluation.
    None = 0,
    /// The true value is at most the stored value (the search failed low).
    Upper = 1,
    /// The true value is at least the stored value (the search failed high).
    Lower = 2,
    /// The stored value is the true value at the stored depth.
    Exact = 3,
}

impl Bound {
    fn from_bits(bits: u64) -> Bound {
        match bits & 3 {
            0 => Bound::None,
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        }
    }
}

/// What a successful probe returns: a plain copy of the entry, decoded.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    /// The best move found, or `Pos::NONE`.
    pub mv: Pos,
    /// The search value, as it was stored (see the module documentation about win distances).
    pub value: i32,
    /// The static evaluation, as it was stored.
    pub eval: i32,
    /// The depth of the search that produced `value`; negative for quiescence or VCF entries.
    pub depth: i32,
    pub bound: Bound,
}

/// The shallowest depth the table stores; shallower depths are stored as this.
pub const DEPTH_MIN: i32 = -127;
/// The deepest depth the table stores; deeper depths are stored as this.
pub const DEPTH_MAX: i32 = 127;

// The `data` word of an entry, most significant bit on the left:
//
//  63      58 57 56 55      48 47            32 31            16 15             0
// +----------+-----+----------+----------------+----------------+----------------+
// |generation|bound|  depth   |      eval      |     value      |      move      |
// |  6 bits  |  2  |  8 bits  |      i16       |      i16       | Pos index, u16 |
// +----------+-----+----------+----------------+----------------+----------------+
//
// The depth byte is `depth - DEPTH_MIN + 1`, so every stored entry has a depth byte in
// 1..=255 and an all-zero slot (depth byte 0) reads as empty, whatever key is probed.
const MOVE_SHIFT: u32 = 0;
const MOVE_BITS: u32 = 16;
const VALUE_SHIFT: u32 = MOVE_SHIFT + MOVE_BITS;
const VALUE_BITS: u32 = 16;
const EVAL_SHIFT: u32 = VALUE_SHIFT + VALUE_BITS;
const EVAL_BITS: u32 = 16;
const DEPTH_SHIFT: u32 = EVAL_SHIFT + EVAL_BITS;
const DEPTH_BITS: u32 = 8;
const BOUND_SHIFT: u32 = DEPTH_SHIFT + DEPTH_BITS;
const BOUND_BITS: u32 = 2;
const GEN_SHIFT: u32 = BOUND_SHIFT + BOUND_BITS;
const GEN_BITS: u32 = 6;
const GEN_MASK: u8 = (1 << GEN_BITS) - 1;
/// Added to a depth to make its stored byte; the `+ 1` keeps byte 0 for empty slots.
const DEPTH_OFFSET: i32 = 1 - DEPTH_MIN;

const _: () = assert!(
    GEN_SHIFT + GEN_BITS == u64::BITS,
    "the fields fill the word exactly"
);
const _: () = assert!(
    GRID <= 1 << MOVE_BITS,
    "every Pos index fits the move field"
);
const _: () = assert!(VALUE_BITS == i16::BITS && EVAL_BITS == i16::BITS);
const _: () = assert!(
    DEPTH_MIN + DEPTH_OFFSET == 1,
    "the shallowest depth is not byte 0"
);
const _: () = assert!(DEPTH_MAX + DEPTH_OFFSET == (1 << DEPTH_BITS) - 1);
const _: () = assert!(Bound::Exact as u64 == (1 << BOUND_BITS) - 1);

/// Entries per bucket: four 16-byte entries fill one 64-byte cache line.
const ENTRIES: usize = 4;

/// Each entry is `[key ^ data, data]`; entry `i` is `words[2 * i]` and `words[2 * i + 1]`.
#[repr(C, align(64))]
#[derive(Default)]
struct Bucket {
    words: [AtomicU64; 2 * ENTRIES],
}

const BUCKET_BYTES: usize = size_of::<Bucket>();
const _: () = assert!(
    BUCKET_BYTES == 64 && align_of::<Bucket>() == 64,
    "one cache line"
);
const _: () = assert!(2 * ENTRIES * size_of::<AtomicU64>() == BUCKET_BYTES);

impl Bucket {
    #[inline]
    fn load(&self, slot: usize) -> (u64, u64) {
        (
            self.words[2 * slot].load(Relaxed),
            self.words[2 * slot + 1].load(Relaxed),
        )
    }

    #[inline]
    fn store(&self, slot: usize, key: u64, data: u64) {
        self.words[2 * slot].store(key ^ data, Relaxed);
        self.words[2 * slot + 1].store(data, Relaxed);
    }
}

/// A decoded view of a `data` word.
#[derive(Clone, Copy)]
struct Data(u64);

impl Data {
    fn pack(mv: Pos, value: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> Data {
        let depth_byte = (depth.clamp(DEPTH_MIN, DEPTH_MAX) + DEPTH_OFFSET) as u64;
        Data(
            (mv.index() as u64) << MOVE_SHIFT
                | (to_i16(value) as u16 as u64) << VALUE_SHIFT
                | (to_i16(eval) as u16 as u64) << EVAL_SHIFT
                | depth_byte << DEPTH_SHIFT
                | (bound as u64) << BOUND_SHIFT
                | u64::from(generation) << GEN_SHIFT,
        )
    }

    #[inline]
    fn depth_byte(self) -> i32 {
        ((self.0 >> DEPTH_SHIFT) & ((1 << DEPTH_BITS) - 1)) as i32
    }

    #[inline]
    fn is_occupied(self) -> bool {
        self.depth_byte() != 0
    }

    #[inline]
    fn generation(self) -> u8 {
        (self.0 >> GEN_SHIFT) as u8
    }

    fn mv(self) -> Pos {
        Pos::from_index((self.0 >> MOVE_SHIFT) as u16 as usize)
    }

    fn with_move(self, mv: Pos) -> Data {
        let mask = ((1u64 << MOVE_BITS) - 1) << MOVE_SHIFT;
        Data(self.0 & !mask | (mv.index() as u64) << MOVE_SHIFT)
    }

    fn hit(self) -> TtHit {
        TtHit {
            mv: self.mv(),
            value: i32::from((self.0 >> VALUE_SHIFT) as u16 as i16),
            eval: i32::from((self.0 >> EVAL_SHIFT) as u16 as i16),
            depth: self.depth_byte() - DEPTH_OFFSET,
            bound: Bound::from_bits(self.0 >> BOUND_SHIFT),
        }
    }
}

/// Values and evaluations must fit an `i16`; the search's score scale is chosen so that
/// they do. Debug builds assert it; release builds clamp rather than wrap, because a
/// wrapped win score would turn into a loss.
fn to_i16(v: i32) -> i16 {
    debug_assert!(
        i16::try_from(v).is_ok(),
        "table value {v} does not fit an i16"
    );
    v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16
}

/// An entry of the same position is overwritten unless the new search is this much
/// shallower (or more) than the stored one of the current generation and not exact.
const SAME_KEY_DEPTH_MARGIN: i32 = 4;
/// How much one generation of age weighs against one ply of depth when choosing a victim.
const AGE_WEIGHT: i32 = 8;
/// Buckets sampled by [`TranspositionTable::hashfull`].
const HASHFULL_SAMPLE: usize = 1000;

/// The shared transposition table. See the module documentation.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    /// The current generation, always within `GEN_MASK`.
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of the largest power-of-two number of buckets that fits in `bytes` (at
    /// least one bucket), all empty.
    pub fn new(bytes: usize) -> Self {
        TranspositionTable {
            buckets: allocate(bucket_count(bytes)),
            generation: AtomicU8::new(0),
        }
    }

    /// Changes the size as [`new`](Self::new) would. The old table is freed before the new
    /// one is allocated, so the process never holds both; the contents are lost unless the
    /// bucket count is unchanged, in which case nothing happens. Only between searches.
    pub fn resize(&mut self, bytes: usize) {
        let count = bucket_count(bytes);
        if count != self.buckets.len() {
            drop(std::mem::take(&mut self.buckets));
            self.buckets = allocate(count);
        }
    }

    /// Empties every entry and resets the generation. Writes every word of the table, so
    /// that afterwards the whole table is resident and memory measurements see it.
    pub fn clear(&self) {
        for bucket in &self.buckets {
            for word in &bucket.words {
                word.store(0, Relaxed);
            }
        }
        self.generation.store(0, Relaxed);
    }

    /// Starts a new generation; call once before each search, not during one.
    pub fn new_search(&self) {
        let next = (self.generation.load(Relaxed) + 1) & GEN_MASK;
        self.generation.store(next, Relaxed);
    }

    /// The entry stored for `key`, if any survives and is intact.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        let bucket = self.bucket(key);
        (0..ENTRIES).find_map(|slot| {
            let (check, data) = bucket.load(slot);
            let data = Data(data);
            (check ^ data.0 == key && data.is_occupied()).then(|| data.hit())
        })
    }

    /// Stores a search result for `key`.
    ///
    /// `depth` is clamped to `DEPTH_MIN..=DEPTH_MAX`; `value` and `eval` must fit an `i16`
    /// (see [`to_i16`]). If the bucket already holds `key`, that entry is updated: a
    /// `Pos::NONE` move keeps the stored move, and the rest is overwritten when the new
    /// bound is exact, the new depth is no more than `SAME_KEY_DEPTH_MARGIN - 1` plies
    /// shallower, or the entry is from an older generation; otherwise only a new move is
    /// recorded. A new key takes an empty slot, or else evicts the entry with the lowest
    /// `depth - AGE_WEIGHT * age`, where age counts generations since it was written.
    pub fn store(&self, key: u64, mv: Pos, value: i32, eval: i32, depth: i32, bound: Bound) {
        let generation = self.generation.load(Relaxed);
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_score = i32::MAX;
        for slot in 0..ENTRIES {
            let (check, data) = bucket.load(slot);
            let old = Data(data);
            if !old.is_occupied() {
                if victim_score != i32::MIN {
                    victim = slot;
                    victim_score = i32::MIN;
                }
                continue;
            }
            if check ^ old.0 == key {
                let depth = depth.clamp(DEPTH_MIN, DEPTH_MAX);
                let overwrite = bound == Bound::Exact
                    || depth + SAME_KEY_DEPTH_MARGIN > old.hit().depth
                    || old.generation() != generation;
                let new = if overwrite {
                    let mv = if mv.is_none() { old.mv() } else { mv };
                    Data::pack(mv, value, eval, depth, bound, generation)
                } else if mv.is_none() || mv == old.mv() {
                    return;
                } else {
                    old.with_move(mv)
                };
                bucket.store(slot, key, new.0);
                return;
            }
            let age = i32::from(generation.wrapping_sub(old.generation()) & GEN_MASK);
            let score = old.depth_byte() - AGE_WEIGHT * age;
            if score < victim_score {
                victim = slot;
                victim_score = score;
            }
        }
        bucket.store(
            victim,
            key,
            Data::pack(mv, value, eval, depth, bound, generation).0,
        );
    }

    /// Asks the CPU to start loading the bucket of `key`, to be probed shortly after.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let ptr: *const Bucket = self.bucket(key);
            // SAFETY: a prefetch is only a hint: it never faults and changes no memory, and
            // the pointer is to a live bucket of this table anyway. SSE is part of the
            // x86_64 baseline, so the instruction exists.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(ptr.cast::<i8>()) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Per mille of the entries in the first (up to) 1000 buckets that were written in the
    /// current generation.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Relaxed);
        let sample = &self.buckets[..self.buckets.len().min(HASHFULL_SAMPLE)];
        let used = sample
            .iter()
            .flat_map(|bucket| (0..ENTRIES).map(|slot| Data(bucket.load(slot).1)))
            .filter(|data| data.is_occupied() && data.generation() == generation)
            .count();
        (used * 1000 / (sample.len() * ENTRIES)) as u32
    }

    /// The size of the table itself in bytes (a power of two).
    pub fn size_bytes(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES
    }

    /// The bucket of `key`: the high bits of `key` scaled to the bucket count, so that the
    /// index and the low bits of the key are independent.
    #[inline]
    fn bucket_index(&self, key: u64) -> usize {
        ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[self.bucket_index(key)]
    }
}

/// The largest power of two of buckets that fits in `bytes`, at least one.
fn bucket_count(bytes: usize) -> usize {
    let count = (bytes / BUCKET_BYTES).max(1);
    1 << count.ilog2()
}

/// `count` empty buckets. Writing each one touches its pages; [`TranspositionTable::clear`]
/// does so again explicitly, because a zeroing write may be turned into a lazily mapped
/// allocation.
fn allocate(count: usize) -> Vec<Bucket> {
    let mut buckets = Vec::with_capacity(count);
    buckets.resize_with(count, Bucket::default);
    buckets
}

const MIB: u64 = 1 << 20;

/// The memory limit used when the manager sends `max_memory 0` (no limit): Gomocup's own
/// limit of 350 MiB, so that a brain run without a limit behaves as in the tournament.
pub const DEFAULT_MAX_MEMORY: u64 = 350 * MIB;
/// Everything the process holds besides the table and the search threads: the binary and
/// its libraries, the main thread's stack, pattern and Zobrist tables, protocol buffers.
/// An estimate with room to spare; the measured peak resident size is the check.
pub const OTHER_MEMORY: usize = 16 << 20;
/// Each search thread: its stack (touched only as deep as the search goes) plus its own
/// board, state stack and history tables.
pub const PER_THREAD: usize = 8 << 20;
/// Percentage of the limit kept unused for what the estimates above miss, such as
/// allocator overhead and fragmentation.
pub const SAFETY_MARGIN_PERCENT: u64 = 10;
/// The smallest table worth playing with. A limit that leaves less than this after the
/// rest is too small to play within: about 28 MiB for one thread, 37 MiB for two.
pub const MIN_TABLE_BYTES: usize = 1 << 20;

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
    let threads = u64::try_from(threads.max(1)).unwrap_or(u64::MAX);
    let rest = (OTHER_MEMORY as u64).saturating_add(threads.saturating_mul(PER_THREAD as u64));
    let budget = usable.checked_sub(rest)?;
    if budget < MIN_TABLE_BYTES as u64 {
        return None;
    }
    let bytes = 1u64 << budget.ilog2();
    Some(usize::try_from(bytes).unwrap_or(1 << (usize::BITS - 1)))
}

/// The peak resident set size of this process in bytes (`VmHWM` of `/proc/self/status`),
/// or `None` where that file does not exist.
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status_bytes(&status, "VmHWM")
}

/// The value of a `Name:   1234 kB` line of a `/proc/*/status` text, in bytes.
fn status_bytes(status: &str, name: &str) -> Option<u64> {
    status.lines().find_map(|line| {
        let value = line.strip_prefix(name)?.strip_prefix(':')?;
        let kib = value
            .trim()
            .strip_suffix("kB")?
            .trim_end()
            .parse::<u64>()
            .ok()?;
        Some(kib * 1024)
    })
}
