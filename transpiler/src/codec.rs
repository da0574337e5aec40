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
pub fn encode_program(program: &Verified) -> Vec<u8> {
    proto::ProgramDesc::from(&**program).encode_to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

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
