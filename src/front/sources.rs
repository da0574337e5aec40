//! The script and the sibling modules it imports, in one offset space.
//!
//! Every span the front end keeps is a byte range (`Range<usize>`). The
//! script is at offset 0, as before; each imported `.py` file is parsed at
//! the next free offset (`parse_module_at`), so a span alone says which file
//! it is in. Diagnostics, tracebacks and `op_callstack` ask this map for the
//! file, line and line text of an offset.
use std::sync::Arc;

/// One source file and where it sits in the offset space.
#[derive(PartialEq, Eq)]
pub struct SourceFile {
    /// The path diagnostics show: the script's as given, a module's as
    /// found beside it (`dir/helper.py`).
    pub path: String,
    pub text: String,
    /// The offset of the file's first byte.
    pub base: usize,
    /// Offsets (within the file) where each line starts.
    line_starts: Vec<usize>,
}

impl std::fmt::Debug for SourceFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SourceFile({}, base {})", self.path, self.base)
    }
}

impl SourceFile {
    fn new(path: &str, text: &str, base: usize) -> Self {
        SourceFile {
            path: path.to_string(),
            text: text.to_string(),
            base,
            line_starts: std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                .collect(),
        }
    }

    /// The 1-based line of a global offset in this file.
    pub fn line_of(&self, offset: usize) -> usize {
        let local = offset.saturating_sub(self.base);
        self.line_starts.partition_point(|&s| s <= local).max(1)
    }

    /// The text of a 1-based line, without its newline.
    pub fn line(&self, line: usize) -> &str {
        let Some(&start) = self.line_starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let rest = &self.text[start..];
        rest.split('\n').next().unwrap_or("").trim_end_matches('\r')
    }

    /// The first offset after the file.
    fn end(&self) -> usize {
        self.base + self.text.len()
    }
}

/// The files of one compile, in the order they were read (the script first).
#[derive(Debug)]
pub struct Sources {
    files: Vec<Arc<SourceFile>>,
}

impl Sources {
    pub fn new(path: &str, text: &str) -> Self {
        Sources {
            files: vec![Arc::new(SourceFile::new(path, text, 0))],
        }
    }

    /// Adds a file after the others (one byte apart, so no offset is in
    /// two files) and gives it.
    pub fn add(&mut self, path: &str, text: &str) -> Arc<SourceFile> {
        let base = self.files.last().map_or(0, |f| f.end() + 1);
        let file = Arc::new(SourceFile::new(path, text, base));
        self.files.push(file.clone());
        file
    }

    /// The script.
    pub fn main(&self) -> &Arc<SourceFile> {
        &self.files[0]
    }

    /// The file an offset is in.
    pub fn file_of(&self, offset: usize) -> &Arc<SourceFile> {
        let i = self.files.partition_point(|f| f.base <= offset);
        &self.files[i.saturating_sub(1)]
    }

    /// The source text of a span (empty when it is not in one file).
    pub fn text(&self, span: std::ops::Range<usize>) -> &str {
        let f = self.file_of(span.start);
        let (start, end) = (span.start - f.base, span.end.saturating_sub(f.base));
        f.text.get(start..end).unwrap_or("")
    }

    /// The total bytes read, for the limit on imported source.
    pub fn total_len(&self) -> usize {
        self.files.last().map_or(0, |f| f.end())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_map_to_their_file_line_and_text() {
        let mut s = Sources::new("main.py", "import helper\nx = 1\n");
        let h = s.add("helper.py", "def f():\n    return 2\n");
        assert_eq!(h.base, 21);
        let at = h.base + 13; // `return` on helper's line 2
        assert_eq!(s.file_of(at).path, "helper.py");
        assert_eq!(s.file_of(at).line_of(at), 2);
        assert_eq!(s.file_of(at).line(2), "    return 2");
        assert_eq!(s.text(at..at + 6), "return");
        assert_eq!(s.file_of(15).path, "main.py");
        assert_eq!(s.file_of(15).line_of(15), 2);
        assert_eq!(s.main().line(1), "import helper");
    }
}
