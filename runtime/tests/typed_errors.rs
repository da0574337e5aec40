//! A guard for typed errors (issue 41): every error the runtime makes has a
//! kind ([`fluidc_runtime::KernelError`]) that callers and tests match on,
//! so no function in `runtime/src` returns plain text as its error, and no
//! conversion turns text into an error (or an error into text) implicitly.
//! There is no allow-list: every site has a kind.
mod common;

use std::path::Path;

use common::source::{rust_files, without_comments_and_literals};

/// The code of a Rust file with comments, string and char literals and all
/// whitespace removed, so that a message or a doc comment mentioning a
/// type is not taken for the type, and a signature rustfmt wrapped over
/// several lines reads as one.
fn code_only(src: &str) -> String {
    without_comments_and_literals(src)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
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
