//! The interface between kernels and the program loader: what a kernel
//! builder sees of one op ([`OpReader`]: its slots resolved to variables
//! through the program's [`Layout`], its attributes read with the types
//! Paddle writes), the [`Builder`] type, and the [`Registry`] a family's
//! `register_all` adds its builders to.
//!
//! Kernels (`crate::ops`) import this module, never the loader
//! (`crate::load`), which makes one reader per op and looks builders up in
//! `crate::ops::registry()`: the kernel layer does not import the driver
//! layer (see the crate docs).
use std::collections::HashMap;

use fluidc_transpiler::{AttrValue, Op, Program, VarKind};

use crate::error::KernelError;
use crate::exec::Exec;
use crate::layout::Layout;
use crate::scope::VarRef;
use crate::tensor::tensor_dtype;

/// Builds an op's [`Exec`] at load time.
pub(crate) type Builder = fn(&OpReader) -> Result<Exec, KernelError>;

/// Op type -> builder.
pub(crate) struct Registry {
    /// Each op type's builder and the family module that registered it.
    builders: HashMap<&'static str, (Builder, &'static str)>,
    /// The family whose `register_all` is running.
    family: &'static str,
    /// Op types `add`ed more than once (refused by [`Registry::finish`]).
    duplicates: Vec<&'static str>,
}

impl Registry {
    pub(crate) fn new() -> Registry {
        Registry {
            builders: HashMap::new(),
            family: "",
            duplicates: Vec::new(),
        }
    }

    /// Marks the builders added from now on as family `family`'s.
    pub(crate) fn set_family(&mut self, family: &'static str) {
        self.family = family;
    }

    pub(crate) fn add(&mut self, op: &'static str, build: Builder) {
        if self.builders.insert(op, (build, self.family)).is_some() {
            self.duplicates.push(op);
        }
    }

    pub(crate) fn get(&self, op: &str) -> Option<Builder> {
        self.builders.get(op).map(|(b, _)| *b)
    }

    /// Each op type with the family that registered its builder.
    #[cfg(test)]
    pub(crate) fn families(&self) -> impl Iterator<Item = (&'static str, &'static str)> + '_ {
        self.builders.iter().map(|(ty, (_, family))| (*ty, *family))
    }

    /// The registry, or the op types added more than once (the second
    /// would silently have replaced the first).
    pub(crate) fn finish(self) -> Result<Registry, Vec<&'static str>> {
        match self.duplicates.as_slice() {
            [] => Ok(self),
            twice => Err(twice.to_vec()),
        }
    }
}

/// Names that stand for "no variable" in Paddle programs.
pub(crate) fn is_placeholder(name: &str) -> bool {
    name.is_empty() || name == "@EMPTY@"
}

/// What a kernel builder sees of one op: its slots resolved to variables and
/// its attributes read with the types Paddle writes (older and newer forms).
pub(crate) struct OpReader<'a> {
    pub(crate) program: &'a Program,
    pub(crate) op: &'a Op,
    pub(crate) block: usize,
    layout: &'a Layout,
}

impl<'a> OpReader<'a> {
    /// The reader of op `op` of block `block`.
    pub(crate) fn new(
        program: &'a Program,
        op: &'a Op,
        block: usize,
        layout: &'a Layout,
    ) -> OpReader<'a> {
        OpReader {
            program,
            op,
            block,
            layout,
        }
    }

    /// A reader for another op of the program, in `block` (to read its
    /// attributes and resolve its variables).
    pub(crate) fn for_op(&self, block: usize, op: &'a Op) -> OpReader<'a> {
        OpReader {
            program: self.program,
            op,
            block,
            layout: self.layout,
        }
    }

    /// Resolves `name` as seen from `block`.
    pub(crate) fn var_in(&self, block: usize, name: &str) -> Result<VarRef, KernelError> {
        self.layout.resolve(block, name).ok_or_else(|| {
            KernelError::Program(format!(
                "variable `{name}` is not declared in block {block} or its ancestors"
            ))
        })
    }

    /// Whether a grad op reads the STEP_SCOPES variable `name`.
    pub(crate) fn is_kept(&self, name: &str) -> bool {
        self.layout.is_kept(name)
    }

    /// The block whose own variables hold `name` as seen from `block`.
    pub(crate) fn owner(&self, block: usize, name: &str) -> Option<usize> {
        self.layout.owner(block, name)
    }

    /// The kind (dense tensor, tensor array, selected rows, ...) the program
    /// declares variable `name` with, as seen from this op's block.
    pub(crate) fn declared_kind(&self, name: &str) -> Option<VarKind> {
        self.program
            .find_var_recursive(self.block, name)
            .and_then(|(_, v)| v.kind())
    }

    pub(crate) fn var(&self, name: &str) -> Result<VarRef, KernelError> {
        self.var_in(self.block, name)
    }

    /// The variable names of an input (`input = true`) or output slot, without placeholders.
    pub(crate) fn var_names(&self, slot: &str, input: bool) -> Result<Vec<String>, KernelError> {
        let args = if input {
            self.op.inputs_of(slot)
        } else {
            self.op.outputs_of(slot)
        };
        let names: Vec<String> = args
            .iter()
            .filter(|n| !is_placeholder(n))
            .cloned()
            .collect();
        if names.is_empty() {
            return Err(KernelError::Program(format!(
                "{} `{slot}` names no variable",
                if input { "input" } else { "output" }
            )));
        }
        Ok(names)
    }

    fn one(&self, slot: &str, input: bool) -> Result<VarRef, KernelError> {
        let names = self.var_names(slot, input)?;
        if names.len() != 1 {
            return Err(KernelError::Program(format!(
                "{} `{slot}` must name one variable, it names {}",
                if input { "input" } else { "output" },
                names.len()
            )));
        }
        self.var(&names[0])
    }

    fn optional(&self, slot: &str, input: bool) -> Result<Option<VarRef>, KernelError> {
        let args = if input {
            self.op.inputs_of(slot)
        } else {
            self.op.outputs_of(slot)
        };
        if args.iter().all(|n| is_placeholder(n)) {
            return Ok(None);
        }
        self.one(slot, input).map(Some)
    }

    fn many(&self, slot: &str, input: bool) -> Result<Vec<VarRef>, KernelError> {
        let args = if input {
            self.op.inputs_of(slot)
        } else {
            self.op.outputs_of(slot)
        };
        args.iter()
            .filter(|n| !is_placeholder(n))
            .map(|n| self.var(n))
            .collect()
    }

    /// Whether any of the input `slots` names a variable: how a kernel
    /// finds the tensor-valued forms of attributes it does not take
    /// (`AxisTensor`, `SectionsTensorList`, ...) and refuses them.
    pub(crate) fn given(&self, slots: &[&str]) -> bool {
        slots
            .iter()
            .any(|slot| self.op.inputs_of(slot).iter().any(|n| !is_placeholder(n)))
    }

    pub(crate) fn input(&self, slot: &str) -> Result<VarRef, KernelError> {
        self.one(slot, true)
    }

    pub(crate) fn opt_input(&self, slot: &str) -> Result<Option<VarRef>, KernelError> {
        self.optional(slot, true)
    }

    pub(crate) fn inputs(&self, slot: &str) -> Result<Vec<VarRef>, KernelError> {
        self.many(slot, true)
    }

    pub(crate) fn outputs(&self, slot: &str) -> Result<Vec<VarRef>, KernelError> {
        self.many(slot, false)
    }

    pub(crate) fn output(&self, slot: &str) -> Result<VarRef, KernelError> {
        self.one(slot, false)
    }

    pub(crate) fn opt_output(&self, slot: &str) -> Result<Option<VarRef>, KernelError> {
        self.optional(slot, false)
    }

    /// An attribute as the op writes it, else the default its definition
    /// gives (the one Paddle's attribute checker fills in), so a kernel
    /// reads what Paddle's kernel would; a kernel's own default applies only
    /// where neither gives one (ops fluidc defines always have theirs).
    /// A grad op (`X_grad`) copies its forward op's attributes, so one the
    /// grad's definition does not give defaults as the forward op's does.
    pub(crate) fn attr(&self, name: &str) -> Option<&AttrValue> {
        use fluidc_transpiler::ops::get;
        let ty = self.op.ty.as_str();
        self.op
            .get_attr(name)
            .or_else(|| get(ty).and_then(|d| d.default(name)))
            .or_else(|| {
                let forward = ty.strip_suffix("_grad")?;
                get(forward).and_then(|d| d.default(name))
            })
    }

    fn bad_attr(&self, name: &str, expected: &str) -> KernelError {
        KernelError::Attribute(format!(
            "attribute `{name}` must be {expected}, it is {:?}",
            self.attr(name)
        ))
    }

    /// An attribute the op or its definition must give (a required one, or
    /// one with a default): kernels never restate Paddle's defaults.
    fn required(&self, name: &str) -> Result<&AttrValue, KernelError> {
        self.attr(name).ok_or_else(|| {
            KernelError::Attribute(format!(
                "attribute `{name}` is missing, and `{}` has no default for it",
                self.op.ty
            ))
        })
    }

    /// An INT or LONG attribute.
    pub(crate) fn int(&self, name: &str) -> Result<i64, KernelError> {
        match self.required(name)? {
            AttrValue::Int(v) => Ok(i64::from(*v)),
            AttrValue::Long(v) => Ok(*v),
            _ => Err(self.bad_attr(name, "an integer")),
        }
    }

    /// An INT or LONG attribute the definition has no default for
    /// (Paddle 1.x's, or one a 2018 program may lack): `default` then.
    pub(crate) fn int_or(&self, name: &str, default: i64) -> Result<i64, KernelError> {
        match self.attr(name) {
            None => Ok(default),
            Some(_) => self.int(name),
        }
    }

    /// A FLOAT, FLOAT64 or integer attribute.
    pub(crate) fn float(&self, name: &str) -> Result<f64, KernelError> {
        match self.required(name)? {
            AttrValue::Float(v) => Ok(f64::from(*v)),
            AttrValue::Float64(v) => Ok(*v),
            AttrValue::Int(v) => Ok(f64::from(*v)),
            AttrValue::Long(v) => Ok(*v as f64),
            _ => Err(self.bad_attr(name, "a number")),
        }
    }

    /// [`OpReader::float`] with `default` where the definition has none.
    pub(crate) fn float_or(&self, name: &str, default: f64) -> Result<f64, KernelError> {
        match self.attr(name) {
            None => Ok(default),
            Some(_) => self.float(name),
        }
    }

    /// A BOOLEAN, or the INT 1.x's saved models hold for one (see
    /// `attr_type_accepts`).
    pub(crate) fn bool(&self, name: &str) -> Result<bool, KernelError> {
        match self.required(name)? {
            AttrValue::Bool(v) => Ok(*v),
            AttrValue::Int(v) => Ok(*v != 0),
            _ => Err(self.bad_attr(name, "a BOOLEAN")),
        }
    }

    /// [`OpReader::bool`] with `default` where the definition has none.
    pub(crate) fn bool_or(&self, name: &str, default: bool) -> Result<bool, KernelError> {
        match self.attr(name) {
            None => Ok(default),
            Some(_) => self.bool(name),
        }
    }

    /// An INTS or LONGS attribute (2018 wrote shapes as INTS, Paddle 3 as LONGS).
    pub(crate) fn ints(&self, name: &str) -> Result<Option<Vec<i64>>, KernelError> {
        match self.attr(name) {
            None => Ok(None),
            Some(AttrValue::Ints(v)) => Ok(Some(v.iter().map(|&x| i64::from(x)).collect())),
            Some(AttrValue::Longs(v)) => Ok(Some(v.clone())),
            Some(_) => Err(self.bad_attr(name, "INTS or LONGS")),
        }
    }

    pub(crate) fn string(&self, name: &str) -> Result<Option<&str>, KernelError> {
        match self.attr(name) {
            None => Ok(None),
            Some(AttrValue::String(s)) => Ok(Some(s)),
            Some(_) => Err(self.bad_attr(name, "a STRING")),
        }
    }

    pub(crate) fn strings(&self, name: &str) -> Result<Vec<String>, KernelError> {
        match self.attr(name) {
            None => Ok(Vec::new()),
            Some(AttrValue::Strings(s)) => Ok(s.clone()),
            Some(_) => Err(self.bad_attr(name, "STRINGS")),
        }
    }

    /// A dtype attribute (a `VarType.Type` number) that tensors can hold.
    pub(crate) fn dtype(&self, name: &str, default: VarKind) -> Result<VarKind, KernelError> {
        let number = self.int_or(name, default as i64)?;
        tensor_dtype(number).map_err(|e| KernelError::Attribute(format!("attribute `{name}`: {e}")))
    }

    /// The block the op runs (`sub_block`).
    pub(crate) fn sub_block(&self) -> Result<usize, KernelError> {
        match self.attr("sub_block") {
            Some(AttrValue::Block(b)) => {
                usize::try_from(*b).map_err(|_| self.bad_attr("sub_block", "a block"))
            }
            _ => Err(self.bad_attr("sub_block", "a BLOCK")),
        }
    }
}
