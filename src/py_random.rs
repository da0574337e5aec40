//! `_random`: the Mersenne Twister under Python's `random` module, in
//! place of RustPython 0.4's (docs/python-package.md, "The VM's bugs
//! fluidc works around").
//!
//! RustPython's `_random.Random` has no `getstate` or `setstate`, so
//! `random.getstate()` raises `AttributeError: 'super' object has no
//! attribute 'getstate'`; Paddle 1.0's `op_test.py` calls it in every op
//! test's `setUpClass`. CPython's state is the generator's 624 words and
//! its position; the `mt19937` crate RustPython draws with keeps them
//! private and `rand_mt` (numpy's generator here) cannot start part-way
//! through its words, so the twist is written here as CPython's
//! `_randommodule.c` runs it, over the seeding numpy's generator uses
//! (`crate::host::random`): the same seed gives CPython's numbers and
//! CPython's `getstate()` tuple.
use malachite_bigint::{BigInt, BigUint};
use parking_lot::Mutex;
use rustpython_vm::builtins::{PyInt, PyModule, PyTupleRef, PyTypeRef};
use rustpython_vm::class::PyClassImpl;
use rustpython_vm::function::OptionalArg;
use rustpython_vm::types::Constructor;
use rustpython_vm::{pyclass, AsObject, PyObjectRef, PyPayload, PyRef, PyResult, VirtualMachine};

/// The module's name: it replaces RustPython's own `_random`.
pub const MODULE: &str = "_random";

use crate::host::random::{init_by_array, res53_of, temper, N};

const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// MT19937's state: CPython's `RandomObject` less the object header.
#[derive(Debug, Clone)]
struct Twister {
    state: [u32; N],
    index: usize,
}

impl Twister {
    /// init_by_array: what `seed(n)` does with |n|'s 32-bit digits.
    fn with_key(key: &[u32]) -> Twister {
        Twister {
            state: init_by_array(key),
            index: N,
        }
    }

    fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            let mt = &mut self.state;
            let mag = |y: u32| if y & 1 == 0 { 0 } else { MATRIX_A };
            for k in 0..N {
                let y = (mt[k] & UPPER_MASK) | (mt[(k + 1) % N] & LOWER_MASK);
                mt[k] = mt[(k + M) % N] ^ (y >> 1) ^ mag(y);
            }
            self.index = 0;
        }
        self.index += 1;
        temper(self.state[self.index - 1])
    }

    /// A float in [0, 1) with 53 random bits (genrand_res53).
    fn next_f64(&mut self) -> f64 {
        res53_of(|| self.next_u32())
    }
}

/// Seeded from the operating system's entropy, as CPython seeds with
/// `urandom` when given no seed.
fn from_entropy() -> Twister {
    let key: Vec<u32> = (0..N).map(|_| rand::random::<u32>()).collect();
    Twister::with_key(&key)
}

#[pyclass(module = "_random", name = "Random")]
#[derive(Debug, PyPayload)]
struct Random {
    twister: Mutex<Twister>,
}

impl Constructor for Random {
    type Args = rustpython_vm::function::PosArgs;

    /// `random.Random.__init__` seeds again with the script's argument.
    fn py_new(cls: PyTypeRef, _args: Self::Args, vm: &VirtualMachine) -> PyResult {
        Random {
            twister: Mutex::new(from_entropy()),
        }
        .into_ref_with_type(vm, cls)
        .map(Into::into)
    }
}

#[pyclass(flags(BASETYPE), with(Constructor))]
impl Random {
    #[pymethod]
    fn random(&self) -> f64 {
        self.twister.lock().next_f64()
    }

    /// `seed(n=None)`: |n|'s 32-bit digits for an int, |hash(n)|'s for
    /// anything else (`random.seed` turns str and bytes into ints first).
    #[pymethod]
    fn seed(&self, n: OptionalArg<PyObjectRef>, vm: &VirtualMachine) -> PyResult<()> {
        let twister = match n.into_option().filter(|n| !vm.is_none(n)) {
            None => from_entropy(),
            Some(n) => {
                // The digits of the magnitude: the sign is dropped.
                let (_, key) = match n.downcast::<PyInt>() {
                    Ok(n) => n.as_bigint().to_u32_digits(),
                    Err(obj) => BigInt::from(obj.hash(vm)?.unsigned_abs()).to_u32_digits(),
                };
                Twister::with_key(if key.is_empty() { &[0] } else { &key })
            }
        };
        *self.twister.lock() = twister;
        Ok(())
    }

    #[pymethod]
    fn getrandbits(&self, k: isize, vm: &VirtualMachine) -> PyResult<BigInt> {
        if k < 0 {
            return Err(vm.new_value_error("number of bits must be non-negative".to_owned()));
        }
        let mut t = self.twister.lock();
        let mut left = k;
        let mut words = Vec::with_capacity((k as usize).div_ceil(32));
        while left > 0 {
            let r = t.next_u32();
            words.push(if left < 32 { r >> (32 - left) } else { r });
            left -= 32;
        }
        Ok(BigInt::from(BigUint::new(words)))
    }

    /// CPython's state: a tuple of the 624 words and the position.
    #[pymethod]
    fn getstate(&self, vm: &VirtualMachine) -> PyTupleRef {
        let t = self.twister.lock().clone();
        let mut items: Vec<PyObjectRef> =
            t.state.iter().map(|w| vm.ctx.new_int(*w).into()).collect();
        items.push(vm.ctx.new_int(t.index).into());
        vm.ctx.new_tuple(items)
    }

    #[pymethod]
    fn setstate(&self, state: PyObjectRef, vm: &VirtualMachine) -> PyResult<()> {
        let Ok(state) = state.downcast::<rustpython_vm::builtins::PyTuple>() else {
            return Err(vm.new_type_error("state vector must be a tuple".to_owned()));
        };
        if state.len() != N + 1 {
            return Err(vm.new_value_error("state vector is the wrong size".to_owned()));
        }
        let word = |obj: &PyObjectRef| -> PyResult<BigInt> {
            match obj.clone().downcast::<PyInt>() {
                Ok(i) => Ok(i.as_bigint().clone()),
                Err(obj) => Err(vm.new_type_error(format!(
                    "'{}' object cannot be interpreted as an integer",
                    obj.class().name()
                ))),
            }
        };
        let mut words = [0u32; N];
        for (slot, obj) in words.iter_mut().zip(state.iter()) {
            let value = word(obj)?;
            *slot = u32::try_from(&value).map_err(|_| {
                vm.new_overflow_error(if value < BigInt::from(0) {
                    "can't convert negative value to unsigned int".into()
                } else {
                    "Python int too large to convert to C unsigned long".into()
                })
            })?;
        }
        let index = usize::try_from(word(&state[N])?)
            .ok()
            .filter(|i| *i <= N)
            .ok_or_else(|| vm.new_value_error("invalid state".to_owned()))?;
        *self.twister.lock() = Twister {
            state: words,
            index,
        };
        Ok(())
    }
}

/// Creates the `_random` module.
pub fn make_module(vm: &VirtualMachine) -> PyRef<PyModule> {
    let module = vm.new_module(MODULE, vm.ctx.new_dict(), None);
    let _ = module.as_object().set_attr(
        vm.ctx.intern_str("Random"),
        Random::make_class(&vm.ctx).to_owned(),
        vm,
    );
    module
}

#[cfg(test)]
mod tests {
    use super::Twister;

    /// The reference outputs of MT19937's authors for init_by_array
    /// {0x123, 0x234, 0x345, 0x456} (mt19937ar.out: 1067595299
    /// 955945823 477289528 ...).
    #[test]
    fn init_by_array_gives_the_reference_outputs() {
        let mut t = Twister::with_key(&[0x123, 0x234, 0x345, 0x456]);
        let first: Vec<u32> = (0..3).map(|_| t.next_u32()).collect();
        assert_eq!(first, [1_067_595_299, 955_945_823, 477_289_528]);
    }
}
