//! The iteration order of a libstdc++ `std::unordered_set<std::string>`.
//!
//! Paddle's C++ grad makers collect some argument lists in an
//! `unordered_set` and copy them out in its iteration order (`while_grad`'s
//! `Out@GRAD`). To build the same program as Paddle 3.3.1 (a GCC build
//! for x86-64), fluidc replays what libstdc++ does: `std::hash<string>` is
//! `_Hash_bytes` (64-bit MurmurHash2 with seed `0xc70f6907`), buckets are
//! sized by `_Prime_rehash_policy` (load factor 1, 13 buckets at the first
//! insert), a new key goes first in its bucket, and a key whose bucket is
//! empty goes first in the whole list.

/// `std::_Hash_bytes(s, len, 0xc70f6907)` for a 64-bit `size_t`.
pub fn hash_bytes(s: &[u8]) -> u64 {
    const MUL: u64 = (0xc6a4_a793_u64 << 32) + 0x5bd1_e995;
    let shift_mix = |v: u64| v ^ (v >> 47);
    let mut hash = 0xc70f_6907_u64 ^ (s.len() as u64).wrapping_mul(MUL);
    let mut chunks = s.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let data = shift_mix(u64::from_le_bytes(word).wrapping_mul(MUL)).wrapping_mul(MUL);
        hash ^= data;
        hash = hash.wrapping_mul(MUL);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let data = rest
            .iter()
            .rev()
            .fold(0u64, |acc, &b| (acc << 8) + u64::from(b));
        hash ^= data;
        hash = hash.wrapping_mul(MUL);
    }
    hash = shift_mix(hash).wrapping_mul(MUL);
    shift_mix(hash)
}

/// The start of libstdc++'s `__prime_list` (bucket counts).
const PRIMES: [u64; 24] = [
    2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89,
];
const FAST_BUCKETS: [u64; 14] = [2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13];

/// `_Prime_rehash_policy::_M_next_bkt`, with the next resize threshold.
fn next_bucket_count(n: u64) -> Option<(u64, u64)> {
    if n < FAST_BUCKETS.len() as u64 {
        let b = if n == 0 { 1 } else { FAST_BUCKETS[n as usize] };
        return Some((b, b));
    }
    PRIMES[6..].iter().find(|&&p| p >= n).map(|&p| (p, p))
}

/// The order in which an `unordered_set<string>` that had `keys` inserted
/// in turn (duplicates ignored) iterates. Sets too large for the bucket
/// counts modelled here come back sorted, a stable if different order.
pub fn unordered_set_order(keys: Vec<String>) -> Vec<String> {
    let mut set = Set::default();
    for k in keys {
        if !set.insert(k) {
            let mut all = set.nodes.into_iter().map(|(k, _)| k).collect::<Vec<_>>();
            all.sort();
            return all;
        }
    }
    set.iter()
}

/// Where a bucket's "before" pointer points: the list head or a node.
#[derive(Clone, Copy, PartialEq)]
enum Before {
    Head,
    Node(usize),
}

#[derive(Default)]
struct Set {
    nodes: Vec<(String, u64)>,
    next: Vec<Option<usize>>,
    head: Option<usize>,
    buckets: Vec<Option<Before>>,
    next_resize: u64,
}

impl Set {
    fn next_of(&self, b: Before) -> Option<usize> {
        match b {
            Before::Head => self.head,
            Before::Node(n) => self.next[n],
        }
    }

    fn set_next(&mut self, b: Before, to: Option<usize>) {
        match b {
            Before::Head => self.head = to,
            Before::Node(n) => self.next[n] = to,
        }
    }

    /// Inserts `key`; false if the bucket count needed is beyond the model.
    fn insert(&mut self, key: String) -> bool {
        if self.nodes.iter().any(|(k, _)| *k == key) {
            return true;
        }
        let code = hash_bytes(key.as_bytes());
        let count = self.nodes.len() as u64;
        let n_bkt = self.buckets.len().max(1) as u64;
        if count + 1 > self.next_resize {
            let min = (count + 1).max(if self.next_resize == 0 { 11 } else { 0 });
            if min >= n_bkt {
                let Some((b, resize)) = next_bucket_count((min + 1).max(n_bkt * 2)) else {
                    self.nodes.push((key, code));
                    return false;
                };
                self.next_resize = resize;
                self.rehash(b as usize);
            } else {
                self.next_resize = n_bkt;
            }
        }
        let n = self.nodes.len();
        self.nodes.push((key, code));
        self.next.push(None);
        let bkt = (code % self.buckets.len() as u64) as usize;
        match self.buckets[bkt] {
            Some(before) => {
                let after = self.next_of(before);
                self.next[n] = after;
                self.set_next(before, Some(n));
            }
            None => {
                self.next[n] = self.head;
                self.head = Some(n);
                if let Some(old) = self.next[n] {
                    let ob = (self.nodes[old].1 % self.buckets.len() as u64) as usize;
                    self.buckets[ob] = Some(Before::Node(n));
                }
                self.buckets[bkt] = Some(Before::Head);
            }
        }
        true
    }

    fn rehash(&mut self, count: usize) {
        let mut buckets: Vec<Option<Before>> = vec![None; count];
        let mut p = self.head;
        self.head = None;
        let mut begin_bkt = 0;
        while let Some(n) = p {
            let next = self.next[n];
            let bkt = (self.nodes[n].1 % count as u64) as usize;
            match buckets[bkt] {
                None => {
                    self.next[n] = self.head;
                    self.head = Some(n);
                    buckets[bkt] = Some(Before::Head);
                    if self.next[n].is_some() {
                        buckets[begin_bkt] = Some(Before::Node(n));
                    }
                    begin_bkt = bkt;
                }
                Some(before) => {
                    let after = self.next_of(before);
                    self.next[n] = after;
                    self.set_next(before, Some(n));
                }
            }
            p = next;
        }
        self.buckets = buckets;
    }

    fn iter(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut p = self.head;
        while let Some(n) = p {
            out.push(self.nodes[n].0.clone());
            p = self.next[n];
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_of_one_or_none_keeps_it() {
        assert!(unordered_set_order(Vec::new()).is_empty());
        assert_eq!(unordered_set_order(vec!["a".into()]), ["a"]);
        assert_eq!(
            unordered_set_order(vec!["a".into(), "a".into()]),
            ["a"],
            "duplicates count once"
        );
    }

    /// The expected values are what g++ 12's libstdc++ prints for the same
    /// inserts (`std::hash<std::string>{}("abc")`, and a loop over an
    /// `unordered_set` filled from the command line), past two rehashes.
    #[test]
    fn order_is_libstdcxx_order() {
        assert_eq!(hash_bytes(b"abc"), 3663726644998027833);
        let keys: Vec<String> = "a b c d e f g h i j k l m n o p q r s t u v w x y z aa bb cc dd"
            .split(' ')
            .map(str::to_string)
            .collect();
        assert_eq!(
            unordered_set_order(keys).join(" "),
            "dd m bb j l g f i c cc k n h p u b e a q r s o v t w z x y d aa"
        );
    }

    #[test]
    fn every_key_comes_out_once() {
        let keys: Vec<String> = (0..40).map(|i| format!("x_{i}@GRAD")).collect();
        let mut got = unordered_set_order(keys.clone());
        got.sort();
        let mut want = keys;
        want.sort();
        assert_eq!(got, want);
    }
}
