//! The user's source files, as tracebacks and `op_callstack` show them.
//!
//! Each file is read once. A line is reported as the first line of the
//! logical line it belongs to (a call whose arguments continue on later
//! lines is at its first line), as CPython 3.11 reports a call and as
//! Paddle's `op_callstack` did: the VM locates a call at its last
//! argument's line.
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use parking_lot::Mutex;

/// A file's lines and, for each, the index of its logical line's first.
#[derive(Debug)]
struct Source {
    lines: Vec<String>,
    starts: Vec<usize>,
}

fn cache() -> &'static Mutex<HashMap<String, Option<Arc<Source>>>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Option<Arc<Source>>>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

fn source(text: &str) -> Arc<Source> {
    Arc::new(Source {
        lines: text.lines().map(str::to_string).collect(),
        starts: logical_starts(text),
    })
}

fn get(path: &str) -> Option<Arc<Source>> {
    cache()
        .lock()
        .entry(path.to_string())
        .or_insert_with(|| {
            let bytes = std::fs::read(path).ok()?;
            Some(source(&String::from_utf8_lossy(&bytes)))
        })
        .clone()
}

/// Registers the text of a script (the main script, or one read from
/// stdin, which is not a file).
pub fn register(path: &str, text: &str) {
    cache().lock().insert(path.to_string(), Some(source(text)));
}

/// Line `line` (1-based) of a user file as shown: the first line of its
/// logical line, and that line's text, trimmed.
pub fn shown_line(path: &str, line: usize) -> (usize, Option<String>) {
    let Some(src) = get(path) else {
        return (line, None);
    };
    let Some(k) = line.checked_sub(1) else {
        return (line, None);
    };
    let start = src.starts.get(k).copied().unwrap_or(k);
    (
        start + 1,
        src.lines.get(start).map(|l| l.trim().to_string()),
    )
}

/// For each physical line, the index of the first line of its logical
/// line: lines continue while a bracket is open, a triple-quoted string
/// is open, or a line ends with a backslash.
fn logical_starts(text: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut start = 0usize;
    let mut line = 0usize;
    let mut depth = 0i64;
    // The open string's quote, once or three times.
    let mut string: Option<(char, usize)> = None;
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut continued = false;
    while i < chars.len() {
        let c = chars[i];
        match string {
            Some((q, n)) => {
                // A backslash keeps the next character in the string (in a
                // raw string too, for where the string ends).
                if c == '\\' {
                    i += 2;
                    continue;
                }
                if c == q && (n == 1 || chars.get(i..i + 3) == Some(&[q, q, q][..])) {
                    string = None;
                    i += n;
                    continue;
                }
                if c == '\n' && n == 1 {
                    // An unterminated one-line string ends at the newline.
                    string = None;
                } else if c == '\n' {
                    starts.push(start);
                    line += 1;
                    i += 1;
                    continue;
                }
            }
            None => match c {
                '#' => {
                    while i < chars.len() && chars[i] != '\n' {
                        i += 1;
                    }
                    continue;
                }
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth = (depth - 1).max(0),
                '\\' if chars.get(i + 1) == Some(&'\n') => {
                    continued = true;
                    i += 1;
                    continue;
                }
                '"' | '\'' => {
                    let n = if chars.get(i..i + 3) == Some(&[c, c, c][..]) {
                        3
                    } else {
                        1
                    };
                    string = Some((c, n));
                    i += n;
                    continue;
                }
                _ => {}
            },
        }
        if c == '\n' {
            starts.push(start);
            line += 1;
            let open = depth > 0 || continued || string.is_some_and(|(_, n)| n == 3);
            if !open {
                start = line;
            }
            continued = false;
        }
        i += 1;
    }
    starts.push(start);
    starts
}

#[cfg(test)]
mod tests {
    use super::logical_starts;

    #[test]
    fn continuation_lines_belong_to_their_first() {
        let text = "x = f(\n    1,\n    0)\ny = 2 \\\n  + 3\ns = '''a\nb'''\nz = '(' # (\nw = 1\n";
        assert_eq!(logical_starts(text), vec![0, 0, 0, 3, 3, 5, 5, 7, 8, 9]);
    }
}
