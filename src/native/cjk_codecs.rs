//! The CJK codecs CPython's `_codecs_cn`, `_codecs_tw`, `_codecs_jp` and
//! `_codecs_kr` give (`gbk`, `gb2312`, `gb18030`, `big5`, `shift_jis`,
//! `euc_jp`, `euc_kr`, ...), which the VM's standard library lacks: 2018-19
//! scripts of Chinese users read their data with `open(f, encoding='gbk')`
//! or `line.decode('gbk')`. The tables are encoding_rs's (the WHATWG
//! Encoding Standard, already the decoder of PEP 263 source files); the
//! Python side (`_fluidc_codecs.py`) registers them with `codecs`.
//!
//! WHATWG's decoders are supersets of some of CPython's: its `gbk` decodes
//! GB18030's four-byte sequences and its `gb2312` is `gbk`, where CPython
//! refuses bytes outside the narrower tables (docs/choices.md).
use encoding_rs::{DecoderResult, EncoderResult, Encoding};
use rustpython_vm::builtins::{PyBaseExceptionRef, PyStrRef};
use rustpython_vm::function::ArgBytesLike;
use rustpython_vm::{PyObjectRef, PyResult, VirtualMachine};

pub fn register(set: &dyn Fn(&str, PyObjectRef), vm: &VirtualMachine) {
    set(
        "cjk_decode",
        vm.new_function("cjk_decode", cjk_decode).into(),
    );
    set(
        "cjk_encode",
        vm.new_function("cjk_encode", cjk_encode).into(),
    );
}

/// encoding_rs's codec for a WHATWG label.
fn codec(label: &str, vm: &VirtualMachine) -> PyResult<&'static Encoding> {
    Encoding::for_label(label.as_bytes())
        .ok_or_else(|| vm.new_lookup_error(format!("unknown encoding: {label}")))
}

fn unknown_handler(errors: &str, vm: &VirtualMachine) -> PyBaseExceptionRef {
    vm.new_lookup_error(format!("unknown error handler name '{errors}'"))
}

/// `(text, bytes consumed)` of `data` in the codec `name` (CPython's name,
/// for messages) read with the WHATWG `label`. Unless `last`, an
/// incomplete sequence at the end is left for the next call, as a
/// `codecs.BufferedIncrementalDecoder` expects.
fn cjk_decode(
    name: PyStrRef,
    label: PyStrRef,
    data: ArgBytesLike,
    errors: PyStrRef,
    last: bool,
    vm: &VirtualMachine,
) -> PyResult<(String, usize)> {
    let encoding = codec(label.as_str(), vm)?;
    let errors = errors.as_str();
    if !matches!(errors, "strict" | "ignore" | "replace") {
        return Err(unknown_handler(errors, vm));
    }
    let bytes = data.borrow_buf().to_vec();
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut text = String::with_capacity(bytes.len() * 3 / 2 + 4);
    let mut pos = 0;
    loop {
        if text.capacity() - text.len() < 16 {
            text.reserve(bytes.len() - pos + 16);
        }
        let (result, read) =
            decoder.decode_to_string_without_replacement(&bytes[pos..], &mut text, true);
        pos += read;
        match result {
            DecoderResult::InputEmpty => return Ok((text, bytes.len())),
            DecoderResult::OutputFull => {}
            DecoderResult::Malformed(bad, extra) => {
                let end = pos - usize::from(extra);
                let start = end - usize::from(bad);
                let at_end = end == bytes.len() && extra == 0;
                if at_end && !last {
                    return Ok((text, start));
                }
                match errors {
                    "strict" => {
                        let reason = match at_end {
                            true => "incomplete multibyte sequence",
                            false => "illegal multibyte sequence",
                        };
                        let args = vec![
                            vm.ctx.new_str(name.as_str()).into(),
                            vm.ctx.new_bytes(bytes.clone()).into(),
                            vm.ctx.new_int(start).into(),
                            vm.ctx.new_int(end).into(),
                            vm.ctx.new_str(reason).into(),
                        ];
                        return Err(vm.new_exception(
                            vm.ctx.exceptions.unicode_decode_error.to_owned(),
                            args,
                        ));
                    }
                    "replace" => text.push('\u{fffd}'),
                    _ => {}
                }
            }
        }
    }
}

/// `(bytes, characters consumed)` of `text` in the codec `name`, written
/// with the WHATWG `label`.
fn cjk_encode(
    name: PyStrRef,
    label: PyStrRef,
    text: PyStrRef,
    errors: PyStrRef,
    vm: &VirtualMachine,
) -> PyResult<(Vec<u8>, usize)> {
    let encoding = codec(label.as_str(), vm)?;
    let errors = errors.as_str();
    if !matches!(
        errors,
        "strict" | "ignore" | "replace" | "xmlcharrefreplace"
    ) {
        return Err(unknown_handler(errors, vm));
    }
    let src = text.as_str();
    // CPython's gbk and gb2312 have no euro sign (WHATWG's GBK writes it
    // as 0x80, as cp936 does on Windows).
    let no_euro = matches!(name.as_str(), "gbk" | "gb2312");
    let mut encoder = encoding.new_encoder();
    let mut out = Vec::with_capacity(src.len() + 4);
    let mut pos = 0;
    loop {
        if out.capacity() - out.len() < 16 {
            out.reserve(src.len() - pos + 16);
        }
        let limit = match no_euro {
            true => src[pos..].find('\u{20ac}').map_or(src.len(), |i| pos + i),
            false => src.len(),
        };
        let (result, read) = match pos == limit && limit < src.len() {
            true => (EncoderResult::Unmappable('\u{20ac}'), '\u{20ac}'.len_utf8()),
            false => encoder.encode_from_utf8_to_vec_without_replacement(
                &src[pos..limit],
                &mut out,
                limit == src.len(),
            ),
        };
        pos += read;
        match result {
            EncoderResult::InputEmpty if pos == src.len() => return Ok((out, src.chars().count())),
            EncoderResult::InputEmpty | EncoderResult::OutputFull => {}
            EncoderResult::Unmappable(c) => match errors {
                "strict" => {
                    let start = src[..pos - c.len_utf8()].chars().count();
                    let args = vec![
                        vm.ctx.new_str(name.as_str()).into(),
                        text.clone().into(),
                        vm.ctx.new_int(start).into(),
                        vm.ctx.new_int(start + 1).into(),
                        vm.ctx.new_str("illegal multibyte sequence").into(),
                    ];
                    return Err(
                        vm.new_exception(vm.ctx.exceptions.unicode_encode_error.to_owned(), args)
                    );
                }
                "replace" => out.push(b'?'),
                "xmlcharrefreplace" => out.extend(format!("&#{};", u32::from(c)).bytes()),
                _ => {}
            },
        }
    }
}
