//! Reading and writing `.pb` files: Paddle's `ProgramDesc` wire format.
//!
//! Decoding never panics: bytes that are not a `ProgramDesc` give a
//! [`DecodeError`] that says what is wrong and where (the field path prost
//! reports). Writing needs a [`Verified`] program, so an unverified program
//! cannot be written.
use std::fmt;

use prost::encoding::{
    check_wire_type, decode_key, decode_varint, skip_field, DecodeContext, WireType,
};
use prost::Message;

mod op_desc;

use crate::model::{Block, Program, Var};
use crate::proto;
use crate::verify::Verified;

/// Why some bytes are not a `ProgramDesc`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    pub message: String,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a ProgramDesc: {}", self.message)
    }
}

impl std::error::Error for DecodeError {}

/// Decodes the prost message, with the checks every reader needs.
pub fn decode_desc(bytes: &[u8]) -> Result<proto::ProgramDesc, DecodeError> {
    if bytes.is_empty() {
        return Err(DecodeError {
            message: "the input is empty (0 bytes)".into(),
        });
    }
    let desc = proto::ProgramDesc::decode(bytes).map_err(|e| DecodeError {
        message: format!(
            "{} (in {} bytes of input; is this a Paddle .pb/.pdmodel file?)",
            e.to_string()
                .trim_start_matches("failed to decode Protobuf message: "),
            bytes.len()
        ),
    })?;
    if desc.blocks.is_empty() {
        return Err(DecodeError {
            message: format!(
                "{} bytes decode to a message with no blocks; every ProgramDesc has block 0",
                bytes.len()
            ),
        });
    }
    Ok(desc)
}

/// Decodes a program. It is not verified yet: see [`crate::verify`].
///
/// The blocks' vars and ops are decoded one message at a time and turned
/// into the model at once, so prost's message of the whole program (each
/// attribute a struct with a field for every type, several times the
/// model's size) never exists: building it was most of a large program's
/// load time, in fresh pages the kernel had to clear. Bytes the streamed
/// decoding refuses go through [`decode_desc`], whose error says where
/// they are wrong; the result is always that of [`decode_desc`] followed
/// by `Program::from` (the fuzz target checks it), except that a program
/// may nest unknown groups a few levels deeper than prost's limit (each
/// var, op and attribute message starts a fresh count).
pub fn decode_program(bytes: &[u8]) -> Result<Program, DecodeError> {
    match stream_program(bytes) {
        Ok(program) if !program.blocks.is_empty() => Ok(program),
        _ => decode_desc(bytes).map(Program::from),
    }
}

/// Encodes a verified program. A Paddle-written file decoded and encoded
/// with no passes in between gives back the same bytes.
///
/// The bytes are prost's for the whole `ProgramDesc`, written one op at a
/// time: the prost message of a large program is several times the size of
/// the model (each attribute is a struct of every field), and building it
/// whole was the peak of a compile's memory.
pub fn encode_program(program: &Verified) -> Vec<u8> {
    use prost::encoding::{encode_key, encode_varint, WireType};
    let p: &Program = program;
    let mut out = Vec::new();
    let mut op_bytes = Vec::new();
    for block in &p.blocks {
        // Fields in tag order, as prost writes them: idx, parent_idx and
        // vars (1-3), the ops (4), forward_block_idx (5).
        let mut block_bytes = proto::BlockDesc {
            idx: block.idx,
            parent_idx: block.parent_idx,
            vars: block.vars.iter().map(proto::VarDesc::from).collect(),
            ops: Vec::new(),
            forward_block_idx: None,
        }
        .encode_to_vec();
        for op in &block.ops {
            op_bytes.clear();
            proto::OpDesc::from(op).encode_raw(&mut op_bytes);
            encode_key(4, WireType::LengthDelimited, &mut block_bytes);
            encode_varint(op_bytes.len() as u64, &mut block_bytes);
            block_bytes.extend_from_slice(&op_bytes);
        }
        if let Some(forward) = block.forward_block_idx {
            prost::encoding::int32::encode(5, &forward, &mut block_bytes);
        }
        encode_key(1, WireType::LengthDelimited, &mut out);
        encode_varint(block_bytes.len() as u64, &mut out);
        out.extend_from_slice(&block_bytes);
    }
    // version (4) and op_version_map (5) follow the blocks (1).
    proto::ProgramDesc {
        blocks: Vec::new(),
        version: p.version,
        op_version_map: p.op_version_map.clone(),
    }
    .encode_raw(&mut out);
    out
}

/// The payload of a length-delimited field whose key was just read.
fn payload<'a>(
    tag: u32,
    wire_type: WireType,
    buf: &mut &'a [u8],
) -> Result<&'a [u8], prost::DecodeError> {
    check_wire_type(WireType::LengthDelimited, wire_type)?;
    let start = *buf;
    // Checks that the length fits in what is left.
    skip_field(wire_type, tag, buf, DecodeContext::default())?;
    let mut field = &start[..start.len() - buf.len()];
    decode_varint(&mut field)?;
    Ok(field)
}

fn stream_program(bytes: &[u8]) -> Result<Program, prost::DecodeError> {
    let mut buf = bytes;
    let mut blocks = Vec::new();
    let mut other = proto::ProgramDesc::default();
    while !buf.is_empty() {
        let (tag, wire_type) = decode_key(&mut buf)?;
        if tag == 1 {
            blocks.push(stream_block(payload(tag, wire_type, &mut buf)?)?);
        } else {
            other.merge_field(tag, wire_type, &mut buf, DecodeContext::default())?;
        }
    }
    blocks.shrink_to_fit();
    Ok(Program {
        blocks,
        version: other.version,
        op_version_map: other.op_version_map,
    })
}

fn stream_block(bytes: &[u8]) -> Result<Block, prost::DecodeError> {
    let mut buf = bytes;
    let mut vars = Vec::new();
    let mut ops = Vec::new();
    let mut scratch = op_desc::Scratch::default();
    let mut other = proto::BlockDesc::default();
    while !buf.is_empty() {
        let (tag, wire_type) = decode_key(&mut buf)?;
        match tag {
            3 => vars.push(Var::from(proto::VarDesc::decode(payload(
                tag, wire_type, &mut buf,
            )?)?)),
            4 => ops.push(op_desc::decode_op(
                payload(tag, wire_type, &mut buf)?,
                &mut scratch,
            )?),
            _ => other.merge_field(tag, wire_type, &mut buf, DecodeContext::default())?,
        }
    }
    vars.shrink_to_fit();
    ops.shrink_to_fit();
    Ok(Block {
        idx: other.idx,
        parent_idx: other.parent_idx,
        vars,
        ops,
        forward_block_idx: other.forward_block_idx,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn op_by_op_encoding_is_prosts_encoding_of_the_whole_message() {
        let text = r#"
            blocks { idx: 0 parent_idx: -1
              vars { name: "x" type { type: DENSE_TENSOR dense_tensor { tensor { data_type: FP32 dims: 1 } } } }
              vars { name: "c" type { type: DENSE_TENSOR dense_tensor { tensor { data_type: BOOL dims: 1 } } } }
              vars { name: "scope" type { type: STEP_SCOPES } }
              ops { type: "conditional_block" inputs { parameter: "Cond" arguments: "c" }
                    inputs { parameter: "Input" } outputs { parameter: "Out" }
                    outputs { parameter: "Scope" arguments: "scope" }
                    attrs { name: "sub_block" type: BLOCK block_idx: 1 }
                    attrs { name: "f" type: FLOAT f: nan } }
              ops { type: "scale" inputs { parameter: "X" arguments: "x" }
                    outputs { parameter: "Out" arguments: "x" } } }
            blocks { idx: 1 parent_idx: 0 forward_block_idx: 0 }
            version { version: 7 }
            op_version_map { pair { op_name: "scale" op_version { version: 1 } } }
        "#;
        let bytes = crate::text::from_text(text).expect("valid text");
        let program = crate::verify::Verified::new(decode_program(&bytes).unwrap()).unwrap();
        let whole = proto::ProgramDesc::from(&*program).encode_to_vec();
        assert_eq!(encode_program(&program), whole);
        assert_eq!(whole, bytes);
    }

    /// The reference: prost's message of the whole program, converted.
    fn whole(bytes: &[u8]) -> Result<Program, DecodeError> {
        decode_desc(bytes).map(Program::from)
    }

    fn same(a: &Result<Program, DecodeError>, b: &Result<Program, DecodeError>) -> bool {
        // Debug forms, as NaN attributes are not equal to themselves.
        format!("{a:?}") == format!("{b:?}")
    }

    #[test]
    fn streamed_decoding_is_prosts_whole_message_decoding() {
        let text = r#"
            blocks { idx: 0 parent_idx: -1
              vars { name: "x" type { type: DENSE_TENSOR dense_tensor { tensor { data_type: FP32 dims: 2 } } } }
              ops { type: "scale" inputs { parameter: "X" arguments: "x" }
                    outputs { parameter: "Out" arguments: "x" }
                    attrs { name: "scale" type: FLOAT f: 0.5 }
                    attrs { name: "odd" type: INT f: nan }
                    attrs { name: "ints" type: INTS ints: 1 ints: -2 }
                    attrs { name: "names" type: STRINGS strings: "a" strings: "b" }
                    attrs { name: "none" type: STRINGS }
                    attrs { name: "flag" type: BOOLEAN b: true }
                    attrs { name: "unset" type: INT }
                    attrs { type: LONG l: 5 }
                    attrs { name: "two" type: FLOAT f: 1 i: 2 }
                    attrs { name: "s" type: SCALAR scalar { type: LONG i: 3 } }
                    attrs { name: "d" type: FLOAT64S float64s: 1.5 } } }
            blocks { idx: 1 parent_idx: 0 forward_block_idx: 0 }
            version { version: 7 }
            op_version_map { pair { op_name: "scale" op_version { version: 1 } } }
        "#;
        let bytes = crate::text::from_text(text).expect("valid text");
        let mut inputs = vec![bytes.clone()];
        // Unknown fields, and block 0's idx written again after its ops
        // (the last value wins), at both levels.
        let mut extra = bytes.clone();
        extra.extend_from_slice(&[0x38, 0x05, 0x0a, 0x06, 0x08, 0x03, 0x50, 0x01, 0x10, 0x00]);
        inputs.push(extra);
        // Every truncation and every single-byte change: both decoders
        // agree on the program or on the error message.
        for len in 0..bytes.len() {
            inputs.push(bytes[..len].to_vec());
        }
        for i in 0..bytes.len() {
            for v in [0x00, 0x07, 0x0a, 0x22, 0x80, 0xff] {
                let mut b = bytes.clone();
                b[i] = v;
                inputs.push(b);
            }
        }
        // Attributes as other writers may put them: a repeated field packed
        // (prost writes proto2's unpacked), the type after the value, a
        // value written twice, an unknown type, a type of the wrong wire type.
        for attr in [
            &[
                0x0a, 0x01, b'p', 0x10, 0x03, 0x32, 0x02, 0x01, 0x02, 0x30, 0x07,
            ][..],
            &[0x0a, 0x01, b't', 0x18, 0x07, 0x10, 0x00],
            &[0x0a, 0x01, b'r', 0x10, 0x00, 0x18, 0x07, 0x18, 0x08],
            &[0x0a, 0x01, b'u', 0x10, 0x63, 0x18, 0x07],
            &[0x0a, 0x01, b'w', 0x12, 0x01, 0x00, 0x18, 0x07],
        ] {
            inputs.push(program_with_attr(attr));
        }
        let mut decoded = 0;
        for input in &inputs {
            let (streamed, reference) = (decode_program(input), whole(input));
            assert!(
                same(&streamed, &reference),
                "{input:?}:\n{streamed:?}\n---\n{reference:?}"
            );
            decoded += streamed.is_ok() as usize;
        }
        // Both outcomes were exercised.
        assert!(decoded > 10 && decoded < inputs.len() - 10, "{decoded}");
    }

    /// A program of one block with one `scale` op whose only attribute
    /// is `attr`'s bytes.
    fn program_with_attr(attr: &[u8]) -> Vec<u8> {
        use prost::encoding::{encode_key, encode_varint, WireType::LengthDelimited};
        let field = |tag: u32, payload: &[u8], out: &mut Vec<u8>| {
            encode_key(tag, LengthDelimited, out);
            encode_varint(payload.len() as u64, out);
            out.extend_from_slice(payload);
        };
        let mut op = Vec::new();
        field(3, b"scale", &mut op);
        field(4, attr, &mut op);
        let mut block = vec![0x08, 0x00];
        field(4, &op, &mut block);
        let mut program = Vec::new();
        field(1, &block, &mut program);
        program
    }

    #[test]
    fn empty_and_garbage_inputs_are_errors_not_panics() {
        let err = decode_program(&[]).unwrap_err();
        assert!(err.to_string().contains("empty"), "{err}");

        // A field-1 length prefix that runs past the end of the input.
        let err = decode_program(&[0x0a, 0x40, 0x08]).unwrap_err();
        assert!(err.to_string().starts_with("not a ProgramDesc: "), "{err}");

        // Valid protobuf (an unknown varint field) but no blocks.
        let err = decode_program(&[0x38, 0x01]).unwrap_err();
        assert!(err.to_string().contains("no blocks"), "{err}");
    }
}
