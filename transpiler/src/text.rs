//! Protobuf text format of a `ProgramDesc`, byte-identical to
//! `protoc --decode=paddle.framework.proto.ProgramDesc framework.proto`.
//!
//! No crate prints exactly what protoc prints (protoc formats floats with
//! C's `%g` at 6 then 9 significant digits, escapes strings with CEscape, and
//! prints unknown fields last), so this is a small printer driven by the
//! schema's descriptors (prost-reflect). The same descriptors give the JSON
//! view (protobuf's canonical JSON mapping, proto field names) and parse text
//! back, so `.pbtxt` files compile too.
use std::fmt::Write as _;
use std::sync::OnceLock;

use prost::Message as _;
use prost_reflect::{
    DescriptorPool, DynamicMessage, FieldDescriptor, Kind, MessageDescriptor, ReflectMessage, Value,
};

use crate::codec::{decode_desc, DecodeError};
use crate::model::{Block, Op, Program, Var};
use crate::proto;

const PROGRAM_DESC: &str = "paddle.framework.proto.ProgramDesc";
const BLOCK_DESC: &str = "paddle.framework.proto.BlockDesc";
const VAR_DESC: &str = "paddle.framework.proto.VarDesc";
const OP_DESC: &str = "paddle.framework.proto.OpDesc";

fn descriptor(name: &str) -> MessageDescriptor {
    static POOL: OnceLock<DescriptorPool> = OnceLock::new();
    let pool = POOL.get_or_init(|| {
        DescriptorPool::decode(
            &include_bytes!(concat!(env!("OUT_DIR"), "/framework_descriptor.bin"))[..],
        )
        .expect("build.rs writes a valid descriptor set")
    });
    pool.get_message_by_name(name)
        .expect("framework.proto defines the message")
}

/// Which message some bytes hold: a whole program or one block of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Message {
    Program,
    Block,
}

fn decode_dynamic(what: Message, bytes: &[u8]) -> Result<DynamicMessage, DecodeError> {
    let name = match what {
        Message::Program => {
            decode_desc(bytes)?;
            PROGRAM_DESC
        }
        Message::Block => BLOCK_DESC,
    };
    DynamicMessage::decode(descriptor(name), bytes).map_err(|e| DecodeError {
        message: e.to_string(),
    })
}

/// The encoded `BlockDesc` of one block, for printing it alone.
pub fn encode_block(block: &Block) -> Vec<u8> {
    proto::BlockDesc::from(block).encode_to_vec()
}

/// Prints encoded `ProgramDesc` (or `BlockDesc`) bytes as protoc does.
pub fn to_text(what: Message, bytes: &[u8]) -> Result<String, DecodeError> {
    let msg = decode_dynamic(what, bytes)?;
    let mut out = String::new();
    print_message(&msg, 0, &mut out);
    Ok(out)
}

/// A part of a program in the model, to print as protobuf text.
#[derive(Debug, Clone, Copy)]
pub enum Desc<'a> {
    Program(&'a Program),
    Block(&'a Block),
    Var(&'a Var),
    Op(&'a Op),
}

/// The protobuf text of a part of a program, as protoc prints its
/// encoding: what Paddle 1.x's `to_string(throw_on_error)` of a Program,
/// Block, Variable or Operator returned (its `print(program)`).
pub fn desc_text(desc: Desc<'_>) -> String {
    let (name, bytes) = match desc {
        Desc::Program(p) => (PROGRAM_DESC, proto::ProgramDesc::from(p).encode_to_vec()),
        Desc::Block(b) => (BLOCK_DESC, encode_block(b)),
        Desc::Var(v) => (VAR_DESC, proto::VarDesc::from(v).encode_to_vec()),
        Desc::Op(o) => (OP_DESC, proto::OpDesc::from(o).encode_to_vec()),
    };
    let msg = DynamicMessage::decode(descriptor(name), &bytes[..])
        .expect("the model encodes messages of its own schema");
    let mut out = String::new();
    print_message(&msg, 0, &mut out);
    out
}

/// Prints encoded bytes as protobuf's canonical JSON, with the proto field
/// names (`parent_idx`, not `parentIdx`), pretty-printed.
pub fn to_json(what: Message, bytes: &[u8]) -> Result<String, DecodeError> {
    let msg = decode_dynamic(what, bytes)?;
    let options = prost_reflect::SerializeOptions::new().use_proto_field_name(true);
    let mut ser = serde_json::Serializer::pretty(Vec::new());
    msg.serialize_with_options(&mut ser, &options)
        .map_err(|e| DecodeError {
            message: e.to_string(),
        })?;
    let mut text = String::from_utf8(ser.into_inner()).map_err(|e| DecodeError {
        message: e.to_string(),
    })?;
    text.push('\n');
    Ok(text)
}

/// Parses protobuf text format into `ProgramDesc` bytes. An error names the
/// line and column where parsing stopped.
pub fn from_text(text: &str) -> Result<Vec<u8>, DecodeError> {
    let msg = DynamicMessage::parse_text_format(descriptor(PROGRAM_DESC), text).map_err(|e| {
        use miette::Diagnostic as _;
        let at = e.labels().and_then(|mut l| l.next()).map(|l| l.offset());
        let place = at.map_or(String::new(), |off| {
            let off = (0..=off.min(text.len()))
                .rev()
                .find(|i| text.is_char_boundary(*i))
                .unwrap_or(0);
            let before = &text[..off];
            let line = before.matches('\n').count() + 1;
            let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            format!(" at line {line}, column {col}")
        });
        DecodeError {
            message: format!("text format{place}: {e}"),
        }
    })?;
    Ok(msg.encode_to_vec())
}

fn indent(out: &mut String, depth: usize) {
    out.extend(std::iter::repeat_n(' ', depth * 2));
}

fn print_message(msg: &DynamicMessage, depth: usize, out: &mut String) {
    // Enum values the schema does not name are unknown fields to protoc
    // (proto2 enums are closed): it prints them after the known fields.
    let mut deferred: Vec<(u32, u64)> = Vec::new();
    let mut fields: Vec<FieldDescriptor> = msg.descriptor().fields().collect();
    fields.sort_by_key(FieldDescriptor::number);
    for field in fields {
        if !msg.has_field(&field) {
            continue;
        }
        let value = msg.get_field(&field);
        match value.as_ref() {
            Value::List(items) => {
                for item in items {
                    print_field(&field, item, depth, out, &mut deferred);
                }
            }
            single => print_field(&field, single, depth, out, &mut deferred),
        }
    }
    for (number, v) in deferred {
        indent(out, depth);
        let _ = writeln!(out, "{number}: {v}");
    }
    for unknown in msg.unknown_fields() {
        let mut buf = Vec::new();
        unknown.encode(&mut buf);
        print_unknown(&buf, depth, out);
    }
}

fn print_field(
    field: &FieldDescriptor,
    value: &Value,
    depth: usize,
    out: &mut String,
    deferred: &mut Vec<(u32, u64)>,
) {
    if let (Value::EnumNumber(n), Kind::Enum(e)) = (value, field.kind()) {
        match e.get_value(*n) {
            Some(v) => {
                indent(out, depth);
                let _ = writeln!(out, "{}: {}", field.name(), v.name());
            }
            None => deferred.push((field.number(), *n as i64 as u64)),
        }
        return;
    }
    indent(out, depth);
    if let Value::Message(m) = value {
        let _ = writeln!(out, "{} {{", field.name());
        print_message(m, depth + 1, out);
        indent(out, depth);
        out.push_str("}\n");
        return;
    }
    let _ = write!(out, "{}: ", field.name());
    match value {
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::I32(v) => out.push_str(&v.to_string()),
        Value::I64(v) => out.push_str(&v.to_string()),
        Value::U32(v) => out.push_str(&v.to_string()),
        Value::U64(v) => out.push_str(&v.to_string()),
        Value::F32(v) => out.push_str(&format_float(*v)),
        Value::F64(v) => out.push_str(&format_double(*v)),
        Value::String(s) => {
            out.push('"');
            c_escape(s.as_bytes(), out);
            out.push('"');
        }
        Value::Bytes(b) => {
            out.push('"');
            c_escape(b, out);
            out.push('"');
        }
        Value::EnumNumber(n) => out.push_str(&n.to_string()),
        Value::Message(_) | Value::List(_) | Value::Map(_) => {}
    }
    out.push('\n');
}

/// Prints one encoded unknown field the way protoc's TextFormat does.
fn print_unknown(mut buf: &[u8], depth: usize, out: &mut String) {
    use prost::encoding::{decode_key, decode_varint, WireType};
    let Ok((number, wire)) = decode_key(&mut buf) else {
        return;
    };
    indent(out, depth);
    match wire {
        WireType::Varint => {
            let v = decode_varint(&mut buf).unwrap_or_default();
            let _ = writeln!(out, "{number}: {v}");
        }
        WireType::ThirtyTwoBit if buf.len() >= 4 => {
            let v = u32::from_le_bytes([buf[0], buf[1], buf[2], buf[3]]);
            let _ = writeln!(out, "{number}: 0x{v:08x}");
        }
        WireType::SixtyFourBit if buf.len() >= 8 => {
            let mut b = [0u8; 8];
            b.copy_from_slice(&buf[..8]);
            let _ = writeln!(out, "{number}: 0x{:016x}", u64::from_le_bytes(b));
        }
        WireType::LengthDelimited => {
            let len = decode_varint(&mut buf).unwrap_or_default() as usize;
            let payload = &buf[..len.min(buf.len())];
            if let Some(fields) = split_fields(payload).filter(|f| !f.is_empty()) {
                let _ = writeln!(out, "{number} {{");
                for f in fields {
                    print_unknown(f, depth + 1, out);
                }
                indent(out, depth);
                out.push_str("}\n");
            } else {
                let _ = write!(out, "{number}: \"");
                c_escape(payload, out);
                out.push_str("\"\n");
            }
        }
        _ => {
            let _ = writeln!(out, "{number}: <group>");
        }
    }
}

/// Splits bytes into whole encoded fields, or `None` if they are not a
/// message (protoc then prints the bytes as a string).
fn split_fields(mut buf: &[u8]) -> Option<Vec<&[u8]>> {
    use prost::encoding::{decode_key, decode_varint, WireType};
    let mut fields = Vec::new();
    while !buf.is_empty() {
        let start = buf;
        let (_, wire) = decode_key(&mut buf).ok()?;
        let skip = match wire {
            WireType::Varint => {
                decode_varint(&mut buf).ok()?;
                0
            }
            WireType::ThirtyTwoBit => 4,
            WireType::SixtyFourBit => 8,
            WireType::LengthDelimited => usize::try_from(decode_varint(&mut buf).ok()?).ok()?,
            _ => return None,
        };
        if skip > buf.len() {
            return None;
        }
        buf = &buf[skip..];
        fields.push(&start[..start.len() - buf.len()]);
    }
    Some(fields)
}

/// protobuf's CEscape: C escapes, octal for every other byte outside 0x20..0x7e.
fn c_escape(bytes: &[u8], out: &mut String) {
    for &b in bytes {
        match b {
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            b'"' => out.push_str("\\\""),
            b'\'' => out.push_str("\\'"),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:03o}");
            }
        }
    }
}

/// protobuf's SimpleFtoa: `%.6g`, or `%.9g` when 6 digits do not round-trip.
pub fn format_float(v: f32) -> String {
    if let Some(s) = non_finite(f64::from(v)) {
        return s;
    }
    let short = format_g(f64::from(v), 6);
    if short.parse::<f32>().ok() == Some(v) {
        short
    } else {
        format_g(f64::from(v), 9)
    }
}

/// protobuf's SimpleDtoa: `%.15g`, or `%.17g` when 15 digits do not round-trip.
pub fn format_double(v: f64) -> String {
    if let Some(s) = non_finite(v) {
        return s;
    }
    let short = format_g(v, 15);
    if short.parse::<f64>().ok() == Some(v) {
        short
    } else {
        format_g(v, 17)
    }
}

fn non_finite(v: f64) -> Option<String> {
    if v.is_nan() {
        Some("nan".into())
    } else if v.is_infinite() {
        Some(if v > 0.0 { "inf" } else { "-inf" }.into())
    } else {
        None
    }
}

/// C's `printf("%.{precision}g", v)` for a finite `v`.
fn format_g(v: f64, precision: usize) -> String {
    let p = precision.max(1);
    let sci = format!("{:.*e}", p - 1, v);
    let (mantissa, exp) = sci.split_once('e').expect("{:e} output has an exponent");
    let x: i32 = exp.parse().expect("{:e} exponent is an integer");
    if x < -4 || x >= p as i32 {
        let mantissa = strip_zeros(mantissa);
        let sign = if x < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", x.abs())
    } else {
        let decimals = (p as i32 - 1 - x).max(0) as usize;
        strip_zeros(&format!("{v:.decimals$}")).to_string()
    }
}

fn strip_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_like_c_percent_g() {
        assert_eq!(format_float(-1.0), "-1");
        assert_eq!(format_float(0.0), "0");
        assert_eq!(format_float(-0.0), "-0");
        assert_eq!(format_float(0.5), "0.5");
        assert_eq!(format_float(1e-5), "1e-05");
        assert_eq!(format_float(123456.0), "123456");
        assert_eq!(format_float(1234567.0), "1234567");
        assert_eq!(format_float(1e7), "1e+07");
        assert_eq!(format_float(0.1), "0.1");
        assert_eq!(format_float(0.0001), "0.0001");
        assert_eq!(format_float(3.4028235e38), "3.40282347e+38");
        assert_eq!(format_float(f32::NAN), "nan");
        assert_eq!(format_double(0.1), "0.1");
        assert_eq!(format_double(1.0 / 3.0), "0.33333333333333331");
    }

    #[test]
    fn strings_escape_like_cescape() {
        let mut out = String::new();
        c_escape("a\"b'\\\n\u{e9}".as_bytes(), &mut out);
        assert_eq!(out, "a\\\"b\\'\\\\\\n\\303\\251");
    }
}
