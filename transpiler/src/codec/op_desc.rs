//! One `OpDesc` decoded from the wire straight into the model's [`Op`].
//!
//! prost's `OpDesc` holds each attribute as a struct with a field for every
//! attribute type (416 bytes, grown one push at a time), which
//! [`Attr::from`] then picks apart: that was most of the instructions of
//! loading a large program, and most of its fresh memory. Here the common
//! shape of an attribute — its name, its type, and that type's own field,
//! nothing else — is read into its typed [`AttrValue`] directly; any other
//! attribute (an unknown type, a `Scalar`, a missing or extra field) goes
//! through prost's message and [`Attr::from`], so the result is always
//! theirs. Fields are read with prost's own field decoders, so what they
//! accept, refuse and how repeated fields merge are prost's too.
use prost::encoding::{
    bool as pbool, decode_key, double, float, int32, int64, skip_field, string, DecodeContext,
    WireType,
};
use prost::{DecodeError, Message};

use crate::model::{Attr, AttrType, AttrValue, Op, Slot};
use crate::proto;

/// Buffers reused from op to op, so each op's vectors are allocated once at
/// their exact length.
#[derive(Default)]
pub(super) struct Scratch {
    inputs: Vec<Slot>,
    outputs: Vec<Slot>,
    attrs: Vec<Attr>,
    arguments: Vec<String>,
}

/// Decodes one `OpDesc` message (its payload bytes).
pub(super) fn decode_op(bytes: &[u8], scratch: &mut Scratch) -> Result<Op, DecodeError> {
    let mut buf = bytes;
    let mut ty = String::new();
    let mut is_target = None;
    scratch.inputs.clear();
    scratch.outputs.clear();
    scratch.attrs.clear();
    while !buf.is_empty() {
        let (tag, wire_type) = decode_key(&mut buf)?;
        match tag {
            1 | 2 => {
                let slot = decode_slot(super::payload(tag, wire_type, &mut buf)?, scratch)?;
                match tag {
                    1 => scratch.inputs.push(slot),
                    _ => scratch.outputs.push(slot),
                }
            }
            3 => string::merge(wire_type, &mut ty, &mut buf, DecodeContext::default())?,
            4 => {
                let attr = decode_attr(super::payload(tag, wire_type, &mut buf)?)?;
                scratch.attrs.push(attr);
            }
            5 => pbool::merge(
                wire_type,
                is_target.get_or_insert(false),
                &mut buf,
                DecodeContext::default(),
            )?,
            _ => skip_field(wire_type, tag, &mut buf, DecodeContext::default())?,
        }
    }
    Ok(Op {
        ty,
        inputs: scratch.inputs.drain(..).collect(),
        outputs: scratch.outputs.drain(..).collect(),
        attrs: scratch.attrs.drain(..).collect(),
        is_target,
    })
}

/// One `OpDesc.Var`: a slot's parameter and its arguments.
fn decode_slot(bytes: &[u8], scratch: &mut Scratch) -> Result<Slot, DecodeError> {
    let mut buf = bytes;
    let mut parameter = String::new();
    scratch.arguments.clear();
    while !buf.is_empty() {
        let (tag, wire_type) = decode_key(&mut buf)?;
        let ctx = DecodeContext::default();
        match tag {
            1 => string::merge(wire_type, &mut parameter, &mut buf, ctx)?,
            2 => string::merge_repeated(wire_type, &mut scratch.arguments, &mut buf, ctx)?,
            _ => skip_field(wire_type, tag, &mut buf, ctx)?,
        }
    }
    Ok(Slot {
        parameter,
        arguments: scratch.arguments.drain(..).collect(),
    })
}

/// One `OpDesc.Attr`, as [`Attr::from`] of prost's message gives it.
fn decode_attr(bytes: &[u8]) -> Result<Attr, DecodeError> {
    match decode_attr_direct(bytes)? {
        Some(attr) => Ok(attr),
        None => Ok(Attr::from(proto::op_desc::Attr::decode(bytes)?)),
    }
}

/// The common shape read directly; `None` for any other.
fn decode_attr_direct(bytes: &[u8]) -> Result<Option<Attr>, DecodeError> {
    // Which fields are there, and the type (the last one written wins, as
    // in prost).
    let mut buf = bytes;
    let mut fields = 0u64;
    let mut ty = None;
    while !buf.is_empty() {
        let (tag, wire_type) = decode_key(&mut buf)?;
        if tag >= 64 {
            return Ok(None);
        }
        fields |= 1 << tag;
        if tag == 2 {
            int32::merge(
                wire_type,
                ty.get_or_insert(0),
                &mut buf,
                DecodeContext::default(),
            )?;
        } else {
            skip_field(wire_type, tag, &mut buf, DecodeContext::default())?;
        }
    }
    let Some(ty) = ty.and_then(|t| AttrType::try_from(t).ok()) else {
        return Ok(None);
    };
    let attr = AttrBytes { bytes, fields };
    use AttrType as T;
    use AttrValue as V;
    match ty {
        T::Int => attr.optional(3, int32::merge, V::Int),
        T::Float => attr.optional(4, float::merge, V::Float),
        T::String => attr.optional(5, string::merge, V::String),
        T::Ints => attr.repeated(6, int32::merge_repeated, V::Ints),
        T::Floats => attr.repeated(7, float::merge_repeated, V::Floats),
        T::Strings => attr.repeated(8, string::merge_repeated, V::Strings),
        T::Boolean => attr.optional(10, pbool::merge, V::Bool),
        T::Booleans => attr.repeated(11, pbool::merge_repeated, V::Bools),
        T::Block => attr.optional(12, int32::merge, V::Block),
        T::Long => attr.optional(13, int64::merge, V::Long),
        T::Blocks => attr.repeated(14, int32::merge_repeated, V::Blocks),
        T::Longs => attr.repeated(15, int64::merge_repeated, V::Longs),
        T::Float64s => attr.repeated(16, double::merge_repeated, V::Float64s),
        T::Var => attr.optional(17, string::merge, V::Var),
        T::Vars => attr.repeated(18, string::merge_repeated, V::Vars),
        T::Float64 => attr.optional(19, double::merge, V::Float64),
        T::Scalar | T::Scalars => Ok(None),
    }
}

/// prost's decoder of one field into a value of type `T`.
type Merge<'a, T> = fn(WireType, &mut T, &mut &'a [u8], DecodeContext) -> Result<(), DecodeError>;

/// An attribute's bytes and the fields they hold (bit `n`: field `n`).
struct AttrBytes<'a> {
    bytes: &'a [u8],
    fields: u64,
}

impl<'a> AttrBytes<'a> {
    fn has(&self, field: u32) -> bool {
        self.fields & (1 << field) != 0
    }

    /// A value in an optional field: typed when the field is there (else
    /// `Attr::from` keeps the attribute raw).
    fn optional<T: Default>(
        &self,
        field: u32,
        merge: Merge<'a, T>,
        typed: fn(T) -> AttrValue,
    ) -> Result<Option<Attr>, DecodeError> {
        if !self.has(field) {
            return Ok(None);
        }
        self.repeated(field, merge, typed)
    }

    /// A value in field `field` (a repeated one may be absent: the empty
    /// list), when the attribute has a name and no field but its name,
    /// its type and that one.
    fn repeated<T: Default>(
        &self,
        field: u32,
        merge: Merge<'a, T>,
        typed: fn(T) -> AttrValue,
    ) -> Result<Option<Attr>, DecodeError> {
        if !self.has(1) || self.fields & !(1 << 1 | 1 << 2 | 1 << field) != 0 {
            return Ok(None);
        }
        let mut name = "";
        let mut value = T::default();
        let mut buf = self.bytes;
        while !buf.is_empty() {
            let (tag, wire_type) = decode_key(&mut buf)?;
            let ctx = DecodeContext::default();
            match tag {
                1 => match borrowed_str(wire_type, &mut buf) {
                    Some(text) => name = text,
                    // prost's decoding of the attribute says what is wrong.
                    None => return Ok(None),
                },
                t if t == field => merge(wire_type, &mut value, &mut buf, ctx)?,
                _ => skip_field(wire_type, tag, &mut buf, ctx)?,
            }
        }
        Ok(Some(Attr {
            name: crate::model::intern(name),
            value: typed(value),
        }))
    }
}

/// A length-delimited UTF-8 field read in place (what `string::merge`
/// accepts, without a `String` of its own: the caller interns it); `None`
/// where `string::merge` would fail.
fn borrowed_str<'a>(wire_type: WireType, buf: &mut &'a [u8]) -> Option<&'a str> {
    prost::encoding::check_wire_type(WireType::LengthDelimited, wire_type).ok()?;
    let len = usize::try_from(prost::encoding::decode_varint(buf).ok()?).ok()?;
    let (text, rest) = buf.split_at_checked(len)?;
    *buf = rest;
    std::str::from_utf8(text).ok()
}
