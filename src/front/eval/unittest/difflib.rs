//! CPython 3.11's `difflib.SequenceMatcher` and `difflib.ndiff`, step for
//! step, so that unittest's failure diffs (`- [1, 2, 3]` / `?        ^`)
//! come out as CPython prints them. Only what unittest uses is here.
use std::collections::{HashMap, HashSet};
use std::hash::Hash;

/// One operation of [`Matcher::opcodes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag {
    Replace,
    Delete,
    Insert,
    Equal,
}

/// `SequenceMatcher(isjunk, a, b)` with `autojunk=True`.
pub struct Matcher<'a, T> {
    a: &'a [T],
    b: &'a [T],
    /// Element of b -> its indices in b, without junk and popular elements.
    b2j: HashMap<&'a T, Vec<usize>>,
    bjunk: HashSet<&'a T>,
}

impl<'a, T: Eq + Hash> Matcher<'a, T> {
    pub fn new(a: &'a [T], b: &'a [T], isjunk: Option<&dyn Fn(&T) -> bool>) -> Self {
        let mut b2j: HashMap<&T, Vec<usize>> = HashMap::new();
        for (i, elt) in b.iter().enumerate() {
            b2j.entry(elt).or_default().push(i);
        }
        let mut bjunk = HashSet::new();
        if let Some(isjunk) = isjunk {
            bjunk.extend(b2j.keys().copied().filter(|e| isjunk(e)));
            for e in &bjunk {
                b2j.remove(e);
            }
        }
        // autojunk: elements of more than 1% of a long b are "popular".
        if b.len() >= 200 {
            let ntest = b.len() / 100 + 1;
            b2j.retain(|_, idxs| idxs.len() <= ntest);
        }
        Matcher { a, b, b2j, bjunk }
    }

    fn find_longest_match(
        &self,
        alo: usize,
        ahi: usize,
        blo: usize,
        bhi: usize,
    ) -> (usize, usize, usize) {
        let (a, b) = (self.a, self.b);
        let junk = |x: &T| self.bjunk.contains(x);
        let (mut besti, mut bestj, mut bestsize) = (alo, blo, 0);
        let mut j2len: HashMap<usize, usize> = HashMap::new();
        for (i, ai) in a.iter().enumerate().take(ahi).skip(alo) {
            let mut new: HashMap<usize, usize> = HashMap::new();
            for &j in self.b2j.get(ai).map_or(&[][..], |v| v.as_slice()) {
                if j < blo {
                    continue;
                }
                if j >= bhi {
                    break;
                }
                let k = j
                    .checked_sub(1)
                    .and_then(|p| j2len.get(&p))
                    .copied()
                    .unwrap_or(0)
                    + 1;
                new.insert(j, k);
                if k > bestsize {
                    (besti, bestj, bestsize) = (i + 1 - k, j + 1 - k, k);
                }
            }
            j2len = new;
        }
        while besti > alo && bestj > blo && !junk(&b[bestj - 1]) && a[besti - 1] == b[bestj - 1] {
            (besti, bestj, bestsize) = (besti - 1, bestj - 1, bestsize + 1);
        }
        while besti + bestsize < ahi
            && bestj + bestsize < bhi
            && !junk(&b[bestj + bestsize])
            && a[besti + bestsize] == b[bestj + bestsize]
        {
            bestsize += 1;
        }
        while besti > alo && bestj > blo && junk(&b[bestj - 1]) && a[besti - 1] == b[bestj - 1] {
            (besti, bestj, bestsize) = (besti - 1, bestj - 1, bestsize + 1);
        }
        while besti + bestsize < ahi
            && bestj + bestsize < bhi
            && junk(&b[bestj + bestsize])
            && a[besti + bestsize] == b[bestj + bestsize]
        {
            bestsize += 1;
        }
        (besti, bestj, bestsize)
    }

    /// Non-adjacent matching blocks `(i, j, n)`, ending with `(la, lb, 0)`.
    pub fn matching_blocks(&self) -> Vec<(usize, usize, usize)> {
        let (la, lb) = (self.a.len(), self.b.len());
        let mut queue = vec![(0, la, 0, lb)];
        let mut blocks = Vec::new();
        while let Some((alo, ahi, blo, bhi)) = queue.pop() {
            let (i, j, k) = self.find_longest_match(alo, ahi, blo, bhi);
            if k > 0 {
                blocks.push((i, j, k));
                if alo < i && blo < j {
                    queue.push((alo, i, blo, j));
                }
                if i + k < ahi && j + k < bhi {
                    queue.push((i + k, ahi, j + k, bhi));
                }
            }
        }
        blocks.sort_unstable();
        let (mut i1, mut j1, mut k1) = (0, 0, 0);
        let mut out = Vec::new();
        for (i2, j2, k2) in blocks {
            if i1 + k1 == i2 && j1 + k1 == j2 {
                k1 += k2;
            } else {
                if k1 > 0 {
                    out.push((i1, j1, k1));
                }
                (i1, j1, k1) = (i2, j2, k2);
            }
        }
        if k1 > 0 {
            out.push((i1, j1, k1));
        }
        out.push((la, lb, 0));
        out
    }

    pub fn opcodes(&self) -> Vec<(Tag, usize, usize, usize, usize)> {
        let (mut i, mut j) = (0, 0);
        let mut out = Vec::new();
        for (ai, bj, size) in self.matching_blocks() {
            let tag = match (i < ai, j < bj) {
                (true, true) => Some(Tag::Replace),
                (true, false) => Some(Tag::Delete),
                (false, true) => Some(Tag::Insert),
                (false, false) => None,
            };
            if let Some(tag) = tag {
                out.push((tag, i, ai, j, bj));
            }
            (i, j) = (ai + size, bj + size);
            if size > 0 {
                out.push((Tag::Equal, ai, i, bj, j));
            }
        }
        out
    }

    fn ratio_of(&self, matches: usize) -> f64 {
        let length = self.a.len() + self.b.len();
        if length == 0 {
            1.0
        } else {
            2.0 * matches as f64 / length as f64
        }
    }

    pub fn ratio(&self) -> f64 {
        self.ratio_of(self.matching_blocks().iter().map(|m| m.2).sum())
    }

    /// An upper bound of [`Matcher::ratio`]: a and b as multisets.
    pub fn quick_ratio(&self) -> f64 {
        let mut full: HashMap<&T, i64> = HashMap::new();
        for e in self.b {
            *full.entry(e).or_default() += 1;
        }
        let mut avail: HashMap<&T, i64> = HashMap::new();
        let mut matches = 0;
        for e in self.a {
            let numb = *avail.get(e).unwrap_or(&full.get(e).copied().unwrap_or(0));
            avail.insert(e, numb - 1);
            if numb > 0 {
                matches += 1;
            }
        }
        self.ratio_of(matches)
    }

    pub fn real_quick_ratio(&self) -> f64 {
        self.ratio_of(self.a.len().min(self.b.len()))
    }
}

/// `difflib.ndiff(a, b)` with its defaults (no line junk; spaces and tabs
/// are character junk): the lines of a human-readable delta.
pub fn ndiff(a: &[String], b: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for (tag, alo, ahi, blo, bhi) in Matcher::new(a, b, None).opcodes() {
        match tag {
            Tag::Replace => fancy_replace(a, alo, ahi, b, blo, bhi, &mut out),
            Tag::Delete => dump('-', a, alo, ahi, &mut out),
            Tag::Insert => dump('+', b, blo, bhi, &mut out),
            Tag::Equal => dump(' ', a, alo, ahi, &mut out),
        }
    }
    out
}

fn dump(tag: char, x: &[String], lo: usize, hi: usize, out: &mut Vec<String>) {
    out.extend(x[lo..hi].iter().map(|l| format!("{tag} {l}")));
}

fn plain_replace(
    a: &[String],
    (alo, ahi): (usize, usize),
    b: &[String],
    (blo, bhi): (usize, usize),
    out: &mut Vec<String>,
) {
    // The shorter block first, as difflib does.
    if bhi - blo < ahi - alo {
        dump('+', b, blo, bhi, out);
        dump('-', a, alo, ahi, out);
    } else {
        dump('-', a, alo, ahi, out);
        dump('+', b, blo, bhi, out);
    }
}

fn is_character_junk(c: &char) -> bool {
    *c == ' ' || *c == '\t'
}

fn fancy_replace(
    a: &[String],
    alo: usize,
    ahi: usize,
    b: &[String],
    blo: usize,
    bhi: usize,
    out: &mut Vec<String>,
) {
    let (mut best_ratio, cutoff) = (0.74, 0.75);
    let (mut best_i, mut best_j) = (0, 0);
    let mut eq: Option<(usize, usize)> = None;
    let chars: Vec<Vec<char>> = a[alo..ahi].iter().map(|l| l.chars().collect()).collect();
    for (j, bline) in b.iter().enumerate().take(bhi).skip(blo) {
        let bj: Vec<char> = bline.chars().collect();
        for i in alo..ahi {
            if a[i] == *bline {
                eq.get_or_insert((i, j));
                continue;
            }
            let m = Matcher::new(&chars[i - alo], &bj, Some(&is_character_junk));
            if m.real_quick_ratio() > best_ratio
                && m.quick_ratio() > best_ratio
                && m.ratio() > best_ratio
            {
                (best_ratio, best_i, best_j) = (m.ratio(), i, j);
            }
        }
    }
    let identical = if best_ratio < cutoff {
        match eq {
            None => return plain_replace(a, (alo, ahi), b, (blo, bhi), out),
            Some((i, j)) => {
                (best_i, best_j) = (i, j);
                true
            }
        }
    } else {
        false
    };
    fancy_helper(a, alo, best_i, b, blo, best_j, out);
    let (aelt, belt) = (&a[best_i], &b[best_j]);
    if identical {
        out.push(format!("  {aelt}"));
    } else {
        let (ac, bc): (Vec<char>, Vec<char>) = (aelt.chars().collect(), belt.chars().collect());
        let (mut atags, mut btags) = (String::new(), String::new());
        for (tag, ai1, ai2, bj1, bj2) in Matcher::new(&ac, &bc, Some(&is_character_junk)).opcodes()
        {
            let (la, lb) = (ai2 - ai1, bj2 - bj1);
            let (ta, tb) = match tag {
                Tag::Replace => ('^', '^'),
                Tag::Delete => ('-', ' '),
                Tag::Insert => (' ', '+'),
                Tag::Equal => (' ', ' '),
            };
            if tag != Tag::Insert {
                atags.extend(std::iter::repeat_n(ta, la));
            }
            if tag != Tag::Delete {
                btags.extend(std::iter::repeat_n(tb, lb));
            }
        }
        qformat(aelt, belt, &atags, &btags, out);
    }
    fancy_helper(a, best_i + 1, ahi, b, best_j + 1, bhi, out);
}

fn fancy_helper(
    a: &[String],
    alo: usize,
    ahi: usize,
    b: &[String],
    blo: usize,
    bhi: usize,
    out: &mut Vec<String>,
) {
    if alo < ahi {
        if blo < bhi {
            fancy_replace(a, alo, ahi, b, blo, bhi, out);
        } else {
            dump('-', a, alo, ahi, out);
        }
    } else if blo < bhi {
        dump('+', b, blo, bhi, out);
    }
}

/// The `-`/`?`/`+`/`?` lines of a changed pair; a `?` line ends in `\n`.
fn qformat(aline: &str, bline: &str, atags: &str, btags: &str, out: &mut Vec<String>) {
    let keep_ws = |s: &str, tags: &str| -> String {
        let t: String = s
            .chars()
            .zip(tags.chars())
            .map(|(c, t)| if t == ' ' && c.is_whitespace() { c } else { t })
            .collect();
        t.trim_end().to_string()
    };
    let (atags, btags) = (keep_ws(aline, atags), keep_ws(bline, btags));
    out.push(format!("- {aline}"));
    if !atags.is_empty() {
        out.push(format!("? {atags}\n"));
    }
    out.push(format!("+ {bline}"));
    if !btags.is_empty() {
        out.push(format!("? {btags}\n"));
    }
}
