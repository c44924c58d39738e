//! The transposition table shared by every search thread.
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
//! How large the table may be under the manager's memory limit is decided in
//! [`crate::memory`].

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
    /// least one bucket), all empty. Call [`clear`](Self::clear) before the first search
    /// to be sure the memory is resident.
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
    /// `depth` is clamped to `DEPTH_MIN..=DEPTH_MAX`. `value` and `eval` must fit an `i16`:
    /// debug builds assert it, release builds clamp them. If the bucket already holds `key`, that entry is updated: a
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
            let score = if !old.is_occupied() {
                i32::MIN
            } else if check ^ old.0 == key {
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
            } else {
                let age = i32::from(generation.wrapping_sub(old.generation()) & GEN_MASK);
                old.depth_byte() - AGE_WEIGHT * age
            };
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

/// `count` empty buckets. Writing the zeros usually makes the pages resident, but an
/// optimiser may turn a zeroing allocation into a lazily mapped one; the atomic stores of
/// [`TranspositionTable::clear`] are what guarantee residency.
fn allocate(count: usize) -> Vec<Bucket> {
    let mut buckets = Vec::with_capacity(count);
    buckets.resize_with(count, Bucket::default);
    buckets
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::MAX_SIZE;

    const KIB: usize = 1 << 10;

    fn splitmix(x: u64) -> u64 {
        let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// `n` distinct pseudo-random keys that all fall in `bucket`.
    fn keys_in_bucket(tt: &TranspositionTable, bucket: usize, n: usize) -> Vec<u64> {
        (1..)
            .map(splitmix)
            .filter(|&key| tt.bucket_index(key) == bucket)
            .take(n)
            .collect()
    }

    /// The number of slots of `key`'s bucket whose check word matches `key`.
    fn copies(tt: &TranspositionTable, key: u64) -> usize {
        let bucket = tt.bucket(key);
        (0..ENTRIES)
            .filter(|&slot| {
                let (check, data) = bucket.load(slot);
                check ^ data == key && Data(data).is_occupied()
            })
            .count()
    }

    fn assert_hit(tt: &TranspositionTable, key: u64, mv: Pos, v: i32, e: i32, d: i32, b: Bound) {
        let hit = tt
            .probe(key)
            .unwrap_or_else(|| panic!("key {key:#x} missing"));
        assert_eq!(
            (hit.mv, hit.value, hit.eval, hit.depth, hit.bound),
            (mv, v, e, d, b)
        );
    }

    #[test]
    fn every_field_round_trips_including_extremes() {
        let corner = Pos::new(MAX_SIZE - 1, MAX_SIZE - 1);
        let cases = [
            (Pos::new(0, 0), 0, 0, 0, Bound::None),
            (Pos::new(7, 7), 1, -1, 1, Bound::Upper),
            (
                corner,
                i32::from(i16::MAX),
                i32::from(i16::MIN),
                DEPTH_MAX,
                Bound::Lower,
            ),
            (
                Pos::NONE,
                i32::from(i16::MIN),
                i32::from(i16::MAX),
                DEPTH_MIN,
                Bound::Exact,
            ),
            (Pos::from_index(GRID - 1), -30_000, 29_999, -1, Bound::Exact),
            (Pos::new(14, 3), 12_345, -54, -20, Bound::Upper),
        ];
        for (i, &(mv, value, eval, depth, bound)) in cases.iter().enumerate() {
            let tt = TranspositionTable::new(4 * KIB);
            let key = splitmix(i as u64);
            tt.store(key, mv, value, eval, depth, bound);
            assert_hit(&tt, key, mv, value, eval, depth, bound);
            tt.new_search();
            assert_hit(&tt, key, mv, value, eval, depth, bound);
        }
    }

    #[test]
    fn depths_beyond_the_range_are_clamped_and_still_stored() {
        let tt = TranspositionTable::new(4 * KIB);
        let (deep, shallow) = (splitmix(1), splitmix(2));
        tt.store(deep, Pos::new(1, 2), 5, 6, 1000, Bound::Lower);
        tt.store(shallow, Pos::new(3, 4), 7, 8, -1000, Bound::Upper);
        assert_hit(&tt, deep, Pos::new(1, 2), 5, 6, DEPTH_MAX, Bound::Lower);
        assert_hit(&tt, shallow, Pos::new(3, 4), 7, 8, DEPTH_MIN, Bound::Upper);
    }

    /// Debug builds reject a value outside `i16`; release builds clamp it.
    #[test]
    #[cfg_attr(debug_assertions, should_panic(expected = "does not fit an i16"))]
    fn values_beyond_i16_are_rejected_or_clamped() {
        let tt = TranspositionTable::new(4 * KIB);
        tt.store(9, Pos::new(1, 1), 40_000, -40_000, 3, Bound::Exact);
        let max = i32::from(i16::MAX);
        assert_hit(
            &tt,
            9,
            Pos::new(1, 1),
            max,
            i32::from(i16::MIN),
            3,
            Bound::Exact,
        );
    }

    #[test]
    fn a_wrong_key_never_returns_data() {
        let tt = TranspositionTable::new(16 * BUCKET_BYTES);
        // All-zero slots satisfy `0 ^ 0 == 0`, so key 0 is the case the depth byte guards.
        assert!(tt.probe(0).is_none());
        let keys = keys_in_bucket(&tt, 5, 6);
        tt.store(keys[0], Pos::new(2, 2), 10, 20, 3, Bound::Exact);
        assert!(tt.probe(keys[0]).is_some());
        for flipped in [keys[0] ^ 1, keys[0] ^ 1 << 40, keys[0] ^ 1 << 63] {
            assert!(tt.probe(flipped).is_none(), "{flipped:#x}");
        }
        for &other in &keys[1..] {
            assert!(tt.probe(other).is_none());
        }
        assert!(tt.probe(0).is_none());
    }

    #[test]
    fn torn_entries_are_ignored() {
        let tt = TranspositionTable::new(16 * BUCKET_BYTES);
        let keys = keys_in_bucket(&tt, 2, 2);
        let (a, b) = (keys[0], keys[1]);
        let data_a = Data::pack(Pos::new(1, 1), 100, 10, 5, Bound::Exact, 0).0;
        let data_b = Data::pack(Pos::new(9, 9), -100, -10, 7, Bound::Lower, 0).0;
        let bucket = tt.bucket(a);

        // Writer A's check word beside writer B's data word, as two racing stores can leave.
        bucket.words[0].store(a ^ data_a, Relaxed);
        bucket.words[1].store(data_b, Relaxed);
        assert!(tt.probe(a).is_none());
        assert!(tt.probe(b).is_none());

        // The same slot written whole is found again.
        bucket.words[1].store(data_a, Relaxed);
        assert_hit(&tt, a, Pos::new(1, 1), 100, 10, 5, Bound::Exact);

        // A single flipped payload bit (here in the value) is caught too.
        bucket.words[1].store(data_a ^ 1 << VALUE_SHIFT, Relaxed);
        assert!(tt.probe(a).is_none());
    }

    #[test]
    fn colliding_keys_share_a_bucket_until_it_is_full() {
        let tt = TranspositionTable::new(16 * BUCKET_BYTES);
        let keys = keys_in_bucket(&tt, 3, ENTRIES + 1);
        let payload = |i: usize| {
            (
                Pos::new(i, i + 1),
                100 * i as i32,
                -(i as i32),
                10 + i as i32,
            )
        };
        for (i, &key) in keys[..ENTRIES].iter().enumerate() {
            let (mv, value, eval, depth) = payload(i);
            tt.store(key, mv, value, eval, depth, Bound::Exact);
        }
        for (i, &key) in keys[..ENTRIES].iter().enumerate() {
            let (mv, value, eval, depth) = payload(i);
            assert_hit(&tt, key, mv, value, eval, depth, Bound::Exact);
        }
        // A fifth key evicts exactly one entry: the shallowest, the first one stored.
        tt.store(keys[ENTRIES], Pos::new(20, 20), 1, 2, 30, Bound::Lower);
        assert_hit(&tt, keys[ENTRIES], Pos::new(20, 20), 1, 2, 30, Bound::Lower);
        assert!(tt.probe(keys[0]).is_none());
        for (i, &key) in keys[1..ENTRIES].iter().enumerate() {
            let (mv, value, eval, depth) = payload(i + 1);
            assert_hit(&tt, key, mv, value, eval, depth, Bound::Exact);
        }
    }

    #[test]
    fn a_new_key_evicts_the_shallowest_entry() {
        let tt = TranspositionTable::new(16 * BUCKET_BYTES);
        let keys = keys_in_bucket(&tt, 0, ENTRIES + 1);
        for (&key, depth) in keys.iter().zip([10, 3, 7, 5]) {
            tt.store(key, Pos::new(1, 1), 0, 0, depth, Bound::Upper);
        }
        // Even a shallower newcomer replaces: the table favours the present search.
        tt.store(keys[4], Pos::new(2, 2), 0, 0, -3, Bound::Upper);
        assert!(tt.probe(keys[1]).is_none());
        for &key in [keys[0], keys[2], keys[3], keys[4]].iter() {
            assert!(tt.probe(key).is_some());
        }
    }

    #[test]
    fn a_deep_entry_survives_one_search_but_ages_out_later() {
        let tt = TranspositionTable::new(16 * BUCKET_BYTES);
        let keys = keys_in_bucket(&tt, 7, 6);
        let store = |key, depth| tt.store(key, Pos::new(3, 3), 0, 0, depth, Bound::Lower);
        store(keys[0], 20);
        tt.new_search();
        for &key in &keys[1..4] {
            store(key, 10);
        }
        // Age 1 costs 8 plies: 20 - 8 = 12 beats the current entries of depth 10.
        store(keys[4], 10);
        assert!(tt.probe(keys[0]).is_some());
        assert!(tt.probe(keys[1]).is_none());
        // Two searches later the deep entry scores 20 - 3 * 8 = -4 against 10 for the
        // entries that the current search has written again.
        tt.new_search();
        tt.new_search();
        for &key in &keys[2..5] {
            store(key, 10);
        }
        store(keys[5], 10);
        assert!(tt.probe(keys[0]).is_none(), "the stale deep entry ages out");
        for &key in &keys[2..6] {
            assert!(tt.probe(key).is_some());
        }
    }

    #[test]
    fn an_entry_of_the_same_key_is_updated_in_place() {
        let tt = TranspositionTable::new(16 * BUCKET_BYTES);
        let key = splitmix(77);
        let (a, b) = (Pos::new(4, 4), Pos::new(5, 5));
        tt.store(key, a, 100, 1, 20, Bound::Exact);

        // Much shallower and not exact: the deep result stays, the move stays.
        tt.store(key, Pos::NONE, 50, 2, 10, Bound::Lower);
        assert_hit(&tt, key, a, 100, 1, 20, Bound::Exact);
        // ... but a new move is still recorded.
        tt.store(key, b, 50, 2, 10, Bound::Lower);
        assert_hit(&tt, key, b, 100, 1, 20, Bound::Exact);

        // Within the margin: overwritten, keeping the move when none is given.
        tt.store(
            key,
            Pos::NONE,
            7,
            3,
            20 - SAME_KEY_DEPTH_MARGIN + 1,
            Bound::Upper,
        );
        assert_hit(&tt, key, b, 7, 3, 17, Bound::Upper);
        tt.store(
            key,
            Pos::NONE,
            8,
            3,
            17 - SAME_KEY_DEPTH_MARGIN,
            Bound::Upper,
        );
        assert_hit(&tt, key, b, 7, 3, 17, Bound::Upper);

        // An exact bound always overwrites.
        tt.store(key, a, 9, 4, 1, Bound::Exact);
        assert_hit(&tt, key, a, 9, 4, 1, Bound::Exact);

        // So does any result of a later search.
        tt.store(key, a, 10, 4, 40, Bound::Exact);
        tt.new_search();
        tt.store(key, Pos::NONE, 11, 5, 0, Bound::Lower);
        assert_hit(&tt, key, a, 11, 5, 0, Bound::Lower);

        assert_eq!(copies(&tt, key), 1, "updates never duplicate a key");
    }

    #[test]
    fn hashfull_counts_entries_of_the_current_generation() {
        let tt = TranspositionTable::new(16 * BUCKET_BYTES);
        assert_eq!(tt.hashfull(), 0);
        for bucket in 0..8 {
            for key in keys_in_bucket(&tt, bucket, ENTRIES) {
                tt.store(key, Pos::new(1, 1), 0, 0, 1, Bound::Exact);
            }
        }
        assert_eq!(tt.hashfull(), 500);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        for key in keys_in_bucket(&tt, 9, 2) {
            tt.store(key, Pos::new(1, 1), 0, 0, 1, Bound::Exact);
        }
        assert_eq!(tt.hashfull(), 2 * 1000 / (16 * ENTRIES) as u32);
        tt.clear();
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn hashfull_samples_only_the_first_thousand_buckets() {
        let tt = TranspositionTable::new(2048 * BUCKET_BYTES);
        for key in keys_in_bucket(&tt, 1500, ENTRIES) {
            tt.store(key, Pos::new(1, 1), 0, 0, 1, Bound::Exact);
        }
        assert_eq!(tt.hashfull(), 0);
        for key in keys_in_bucket(&tt, 0, ENTRIES) {
            tt.store(key, Pos::new(1, 1), 0, 0, 1, Bound::Exact);
        }
        assert_eq!(tt.hashfull(), 1);
    }

    #[test]
    fn the_generation_wraps_after_sixty_four_searches() {
        let tt = TranspositionTable::new(16 * BUCKET_BYTES);
        tt.store(1, Pos::new(1, 1), 0, 0, 1, Bound::Exact);
        for _ in 0..GEN_MASK {
            tt.new_search();
            assert_eq!(tt.hashfull(), 0);
        }
        tt.new_search();
        assert_eq!(tt.generation.load(Relaxed), 0);
        assert!(tt.hashfull() > 0);
    }

    #[test]
    fn sizes_are_powers_of_two_within_the_request() {
        for (request, size) in [
            (0, BUCKET_BYTES),
            (BUCKET_BYTES - 1, BUCKET_BYTES),
            (BUCKET_BYTES, BUCKET_BYTES),
            (3 * BUCKET_BYTES, 2 * BUCKET_BYTES),
            (1 << 20, 1 << 20),
            ((1 << 20) + 100, 1 << 20),
            (3 << 20, 2 << 20),
        ] {
            assert_eq!(
                TranspositionTable::new(request).size_bytes(),
                size,
                "{request}"
            );
        }
    }

    #[test]
    fn resize_keeps_an_unchanged_table_and_clear_empties_it() {
        let mut tt = TranspositionTable::new(64 * KIB);
        tt.store(5, Pos::new(6, 6), 1, 2, 3, Bound::Upper);
        tt.resize(64 * KIB + 1000);
        assert_eq!(tt.size_bytes(), 64 * KIB);
        assert_hit(&tt, 5, Pos::new(6, 6), 1, 2, 3, Bound::Upper);

        tt.resize(256 * KIB);
        assert_eq!(tt.size_bytes(), 256 * KIB);
        assert!(tt.probe(5).is_none());
        tt.resize(4 * KIB);
        assert_eq!(tt.size_bytes(), 4 * KIB);

        tt.store(5, Pos::new(6, 6), 1, 2, 3, Bound::Upper);
        tt.new_search();
        tt.clear();
        assert!(tt.probe(5).is_none());
        assert_eq!(tt.generation.load(Relaxed), 0);
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

    /// The peak resident set size of this process in bytes (`VmHWM` of
    /// `/proc/self/status`), or `None` where that file does not exist.
    fn peak_rss_bytes() -> Option<u64> {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        status_bytes(&status, "VmHWM")
    }

    /// The resident size of the mappings overlapping `start..start + len`, from
    /// `/proc/self/smaps`, or `None` where that file does not exist.
    fn resident_bytes(start: usize, len: usize) -> Option<u64> {
        let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
        let mut overlapping = false;
        let mut total = 0;
        for line in smaps.lines() {
            let range = line
                .split_whitespace()
                .next()
                .and_then(|r| r.split_once('-'));
            let bounds = range.and_then(|(lo, hi)| {
                let lo = usize::from_str_radix(lo, 16).ok()?;
                Some((lo, usize::from_str_radix(hi, 16).ok()?))
            });
            if let Some((lo, hi)) = bounds {
                overlapping = lo < start + len && start < hi;
            } else if overlapping {
                total += status_bytes(line, "Rss").unwrap_or(0);
            }
        }
        Some(total)
    }

    #[test]
    fn a_cleared_table_is_resident() {
        let tt = TranspositionTable::new(64 << 20);
        tt.clear();
        let start = tt.buckets.as_ptr() as usize;
        match resident_bytes(start, tt.size_bytes()) {
            Some(resident) => assert!(resident >= tt.size_bytes() as u64, "{resident}"),
            None => assert!(!std::path::Path::new("/proc/self/smaps").exists()),
        }
    }

    #[test]
    fn status_fields_are_read_in_bytes() {
        let status = "Name:\tpbrain\nVmHWMx:\t1 kB\nVmPeak:\t  9000 kB\nVmHWM:\t    2048 kB\n\
                      VmRSS:\t    1024 kB\nThreads:\t3\n";
        assert_eq!(status_bytes(status, "VmHWM"), Some(2048 * 1024));
        assert_eq!(status_bytes(status, "VmRSS"), Some(1024 * 1024));
        assert_eq!(status_bytes(status, "Threads"), None, "no unit");
        assert_eq!(status_bytes(status, "VmSwap"), None);
    }

    #[test]
    fn peak_rss_covers_a_touched_table() {
        // An optimiser may drop a table that never escapes, stores and all.
        let tt = std::hint::black_box(TranspositionTable::new(16 << 20));
        tt.clear();
        match peak_rss_bytes() {
            Some(peak) => assert!(peak >= tt.size_bytes() as u64, "{peak}"),
            None => assert!(!std::path::Path::new("/proc/self/status").exists()),
        }
    }

    /// What every stress-test entry must hold: a function of its key.
    fn payload(key: u64) -> (Pos, i32, i32, i32, Bound) {
        let x = (key % MAX_SIZE as u64) as usize;
        let y = (key / 64 % MAX_SIZE as u64) as usize;
        let mv = if key.is_multiple_of(97) {
            Pos::NONE
        } else {
            Pos::new(x, y)
        };
        let depth = ((key >> 48) % 255) as i32 + DEPTH_MIN;
        let value = i32::from((key >> 16) as i16);
        (
            mv,
            value,
            i32::from((key >> 32) as i16),
            depth,
            Bound::from_bits(key >> 62),
        )
    }

    #[test]
    fn threads_hammering_one_table_never_see_a_foreign_payload() {
        const THREADS: u64 = 4;
        const OPS: u64 = 40_000;
        const KEYS: u64 = 512;
        // 128 entries for 512 keys: constant eviction and many writers per slot.
        let tt = TranspositionTable::new(32 * BUCKET_BYTES);
        let hits: u64 = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..THREADS)
                .map(|t| {
                    let tt = &tt;
                    scope.spawn(move || {
                        let mut hits = 0;
                        for i in 0..OPS {
                            let r = splitmix(t << 32 | i);
                            let key = splitmix(r % KEYS);
                            tt.prefetch(key);
                            if r >> 63 == 0 {
                                let (mv, value, eval, depth, bound) = payload(key);
                                tt.store(key, mv, value, eval, depth, bound);
                            } else if let Some(hit) = tt.probe(key) {
                                let got = (hit.mv, hit.value, hit.eval, hit.depth, hit.bound);
                                // Equal payloads mean the move, too, is the legal one stored.
                                assert_eq!(got, payload(key), "key {key:#x}");
                                hits += 1;
                            }
                            if t == 0 && i.is_multiple_of(5000) {
                                tt.new_search();
                            }
                        }
                        hits
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).sum()
        });
        assert!(hits > 0, "the probes must find something to check");
    }
}
