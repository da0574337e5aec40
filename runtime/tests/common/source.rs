//! Reading the runtime's own source, for the guards that scan it
//! (`typed_errors.rs`, `layers.rs`).
use std::path::{Path, PathBuf};

/// Every `.rs` file below `dir`, in sorted order.
pub fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `src` with each comment and each string and char literal replaced by
/// one space (and the line breaks it spanned), so that a message or a doc
/// comment mentioning a type or a path is not taken for it; the rest as it
/// was, whitespace and line numbers included.
pub fn without_comments_and_literals(src: &str) -> String {
    let b: Vec<char> = src.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        let end = literal_or_comment_end(&b, i);
        if end == i {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let end = end.min(b.len());
        out.push(' ');
        out.extend(b[i..end].iter().filter(|&&c| c == '\n'));
        i = end;
    }
    out
}

/// Where the comment or literal starting at `b[i]` ends (`i` if none starts there).
fn literal_or_comment_end(b: &[char], i: usize) -> usize {
    let c = b[i];
    let next = b.get(i + 1).copied();
    let mut j = i;
    if c == '/' && next == Some('/') {
        while j < b.len() && b[j] != '\n' {
            j += 1;
        }
    } else if c == '/' && next == Some('*') {
        j += 2;
        while j + 1 < b.len() && !(b[j] == '*' && b[j + 1] == '/') {
            j += 1;
        }
        j += 2;
    } else if c == 'r' && (next == Some('"') || next == Some('#')) && !ident(b, i) {
        // A raw string: r"..." or r#"..."#.
        j += 1;
        let mut hashes = 0;
        while b.get(j) == Some(&'#') {
            hashes += 1;
            j += 1;
        }
        if b.get(j) != Some(&'"') {
            return i;
        }
        j += 1;
        while j < b.len() {
            if b[j] == '"' && (1..=hashes).all(|k| b.get(j + k) == Some(&'#')) {
                j += 1 + hashes;
                break;
            }
            j += 1;
        }
    } else if c == '"' {
        j += 1;
        while j < b.len() && b[j] != '"' {
            if b[j] == '\\' {
                j += 1;
            }
            j += 1;
        }
        j += 1;
    } else if c == '\'' && next == Some('\\') {
        // A char literal with an escape: '\'' '\n' '\u{1F600}'.
        j += 2;
        while j < b.len() && b[j] != '\'' {
            j += 1;
        }
        j += 1;
    } else if c == '\'' && b.get(i + 2) == Some(&'\'') {
        j += 3; // 'x', including '"'
    }
    j
}

/// Whether `b[i]` continues an identifier (the `r` of `for"`... is not a raw string).
pub fn ident(b: &[char], i: usize) -> bool {
    i > 0 && (b[i - 1].is_alphanumeric() || b[i - 1] == '_')
}
