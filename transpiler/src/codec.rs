//! Reading and writing `.pb` files: Paddle's `ProgramDesc` wire format.
//!
//! Decoding never panics: bytes that are not a `ProgramDesc` give a
//! [`DecodeError`] that says what is wrong and where (the field path prost
//! reports). Writing needs a [`Verified`] program, so an unverified program
//! cannot be written.
use std::fmt;

use prost::Message;

use crate::model::Program;
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
pub fn decode_program(bytes: &[u8]) -> Result<Program, DecodeError> {
    decode_desc(bytes).map(Program::from)
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
