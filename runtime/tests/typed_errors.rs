//! A guard for typed errors (issue 41): every error the runtime makes has a
//! kind ([`fluidc_runtime::KernelError`]) that callers and tests match on,
//! so no function in `runtime/src` returns plain text as its error, and no
//! conversion turns text into an error (or an error into text) implicitly.
//! There is no allow-list: every site has a kind.
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
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

/// The code of a Rust file with comments, string and char literals and all
/// whitespace removed, so that a message or a doc comment mentioning a
/// type is not taken for the type, and a signature rustfmt wrapped over
/// several lines reads as one.
fn code_only(src: &str) -> String {
    let b: Vec<char> = src.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == '*' && b[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !ident(&b, i) {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == '"' && (1..=hashes).all(|k| b.get(j + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            i = j;
        } else if c == '"' {
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
        } else if c == '\'' && next == Some('\\') {
            // A char literal with an escape: '\'' '\n' '\u{1F600}'.
            i += 2;
            while i < b.len() && b[i] != '\'' {
                i += 1;
            }
            i += 1;
        } else if c == '\'' && b.get(i + 2) == Some(&'\'') {
            i += 3; // 'x', including '"'
        } else {
            if !c.is_whitespace() {
                out.push(c);
            }
            i += 1;
        }
    }
    out
}

/// Whether `b[i]` continues an identifier (the `r` of `for"`... is not a raw string).
fn ident(b: &[char], i: usize) -> bool {
    i > 0 && (b[i - 1].is_alphanumeric() || b[i - 1] == '_')
}

/// The plain-text error types.
const TEXT: [&str; 4] = ["String", "&str", "&'staticstr", "Box<str>"];

/// Every `Result<T, E>`, `Ok::<T, E>` and `Err::<T, E>` in `code` (from
/// [`code_only`]) whose `E` is plain text.
fn untyped_results(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    for opener in ["Result<", "Ok::<", "Err::<"] {
        for (at, _) in code.match_indices(opener) {
            let start = at + opener.len();
            let (mut depth, mut arg_start, mut args) = (1usize, start, Vec::new());
            let bytes = code.as_bytes();
            let mut j = start;
            while j < bytes.len() && depth > 0 {
                match bytes[j] {
                    b'<' | b'(' | b'[' => depth += 1,
                    b'>' if j > 0 && bytes[j - 1] == b'-' => {} // `fn() -> T`
                    b'>' | b')' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            args.push(&code[arg_start..j]);
                        }
                    }
                    b',' if depth == 1 => {
                        args.push(&code[arg_start..j]);
                        arg_start = j + 1;
                    }
                    _ => {}
                }
                j += 1;
            }
            if args.last() == Some(&"") {
                args.pop(); // a trailing comma
            }
            if args.len() >= 2 && TEXT.contains(&args[args.len() - 1]) {
                found.push(code[at..j].to_string());
            }
        }
    }
    found
}

/// Every `impl From<text> for ...` and `impl From<KernelError> for String`.
fn text_conversions(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    for t in TEXT {
        let pattern = format!("implFrom<{t}>for");
        for (at, _) in code.match_indices(&pattern) {
            let end = code[at..].find('{').map_or(code.len(), |k| at + k);
            found.push(code[at..end].to_string());
        }
    }
    for (at, _) in code.match_indices("implFrom<KernelError>for") {
        let end = code[at..].find('{').map_or(code.len(), |k| at + k);
        if TEXT.contains(&&code[at + "implFrom<KernelError>for".len()..end]) {
            found.push(code[at..end].to_string());
        }
    }
    found
}

/// The scanner finds what it guards against, wrapped or not, and not
/// what a comment or a message only mentions.
#[test]
fn the_scanner_finds_text_errors() {
    let src = r#"
        /// Returns `Result<(), String>` no more.
        fn a() -> Result<Vec<(i32, i32)>, String> { Err("Result<u8, String>".into()) }
        fn b(f: fn() -> u8) -> Result<
            Option<Vec<u8>>,
            &'static str,
        > { let c = '"'; Ok::<(), String>(()) }
        fn c() -> Result<Vec<String>, KernelError> { todo!() }
        fn d() -> io::Result<String> { todo!() }
        impl From<String> for KernelError { }
        impl From<&str>
            for KernelError { }
        impl From<KernelError> for String { }
        impl From<&[i64]> for Shape { }
    "#;
    let code = code_only(src);
    assert_eq!(
        untyped_results(&code),
        [
            "Result<Vec<(i32,i32)>,String>",
            "Result<Option<Vec<u8>>,&'staticstr,>",
            "Ok::<(),String>",
        ]
    );
    assert_eq!(
        text_conversions(&code),
        [
            "implFrom<String>forKernelError",
            "implFrom<&str>forKernelError",
            "implFrom<KernelError>forString",
        ]
    );
}

#[test]
fn runtime_errors_are_typed_not_text() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 40, "found only {} files", files.len());
    let mut problems = Vec::new();
    for f in &files {
        let code = code_only(&std::fs::read_to_string(f).expect("readable"));
        for hit in untyped_results(&code)
            .into_iter()
            .chain(text_conversions(&code))
        {
            problems.push(format!(
                "{}: {hit}",
                f.strip_prefix(&src).unwrap_or(f).display()
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "errors as plain text in runtime/src (give them a KernelError kind):\n{}",
        problems.join("\n")
    );
}
