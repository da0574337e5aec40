//! `_fluidc_zlib`: the streaming decompressor behind `zlib.decompressobj`
//! (docs/python-package.md, "The VM's bugs fluidc works around").
//!
//! RustPython 0.4's `Decompress.decompress` returns when its input is used
//! up even if the inflater still holds output, so a deflated stream that
//! expands past its buffer loses the rest (`zipfile` then reports "Bad
//! CRC-32" for any member over ~48 KB, such as MovieLens' ml-1m.zip). This
//! module keeps flate2's inflater (the crate RustPython's zlib uses) and
//! drains it until it stops producing; `src/python/_fluidc_zlib.py` wraps
//! it as CPython's `Decompress` object and the boot module installs it as
//! `zlib.decompressobj`.
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use flate2::{Decompress, FlushDecompress, Status};
use parking_lot::Mutex;
use rustpython_vm::builtins::{PyBytesRef, PyModule};
use rustpython_vm::{AsObject, PyObjectRef, PyRef, PyResult, VirtualMachine};

pub const MODULE: &str = "_fluidc_zlib_native";

/// The live inflaters, by handle (one per Python `Decompress` object).
static STREAMS: Mutex<Option<HashMap<u64, Decompress>>> = Mutex::new(None);
static NEXT: AtomicU64 = AtomicU64::new(1);

/// Output is produced in steps of this many bytes (CPython's DEF_BUF_SIZE).
const STEP: usize = 16 * 1024;

/// Input bytes given to the inflater at a time under a `max_length`.
const LIMITED_PIECE: usize = 64;

fn zlib_error(vm: &VirtualMachine, message: String) -> rustpython_vm::builtins::PyBaseExceptionRef {
    // `zlib.error`, as CPython raises it.
    let error = vm
        .import("zlib", 0)
        .and_then(|m| m.get_attr("error", vm))
        .ok()
        .and_then(|e| e.downcast::<rustpython_vm::builtins::PyType>().ok());
    match error {
        Some(ty) => vm.new_exception_msg(ty, message),
        None => vm.new_value_error(message),
    }
}

/// `new(wbits)`: an inflater as `zlib.decompressobj(wbits)` makes it: 9..15
/// (or 0) a zlib stream, -15..-9 raw deflate (what `zipfile` and `gzip`
/// read). A window of 32 KiB inflates any smaller window's stream. The
/// wrapper leaves gzip and automatic headers (16+, 32+) to RustPython's own.
fn new(wbits: i32, vm: &VirtualMachine) -> PyResult<u64> {
    let d = match wbits {
        0 | 9..=15 => Decompress::new(true),
        -15..=-9 => Decompress::new(false),
        _ => return Err(vm.new_value_error("Invalid initialization option".to_owned())),
    };
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    STREAMS
        .lock()
        .get_or_insert_with(HashMap::new)
        .insert(id, d);
    Ok(id)
}

/// `decompress(handle, data, max_length, finish)`: inflates `data`,
/// producing at most `max_length` bytes (0: no limit). Returns (output,
/// bytes of `data` used, whether the stream ended).
fn decompress(
    id: u64,
    data: PyBytesRef,
    max_length: usize,
    finish: bool,
    vm: &VirtualMachine,
) -> PyResult<PyObjectRef> {
    let mut streams = STREAMS.lock();
    let d = streams
        .as_mut()
        .and_then(|s| s.get_mut(&id))
        .ok_or_else(|| vm.new_value_error("the decompressor is closed".to_owned()))?;
    let input = data.as_bytes();
    let start_in = d.total_in();
    let flush = if finish {
        FlushDecompress::Finish
    } else {
        FlushDecompress::Sync
    };
    let mut out: Vec<u8> = Vec::new();
    let mut ended = false;
    loop {
        let room = match max_length {
            0 => STEP,
            m => STEP.min(m - out.len()),
        };
        if room == 0 {
            break;
        }
        out.reserve(room);
        let used = (d.total_in() - start_in) as usize;
        // With a limit, input goes in in small pieces, so that what the
        // limit leaves unread stays input (`unconsumed_tail`, which callers
        // feed back) rather than output held inside the inflater.
        let piece = match max_length {
            0 => &input[used..],
            _ => &input[used..input.len().min(used + LIMITED_PIECE)],
        };
        let (in_before, out_before) = (d.total_in(), out.len());
        let status = d
            .decompress_vec(piece, &mut out, flush)
            .map_err(|e| zlib_error(vm, format!("Error -3 while decompressing data: {e}")))?;
        if status == Status::StreamEnd {
            ended = true;
            break;
        }
        let progressed = d.total_in() != in_before || out.len() != out_before;
        // Stop when the inflater is stuck (it needs more input) or when it
        // has used all the input and no longer fills the room it was given.
        let filled = out.len() - out_before == room;
        let all_in = d.total_in() - start_in == input.len() as u64;
        if !progressed || (!filled && all_in) {
            break;
        }
    }
    let used = (d.total_in() - start_in) as usize;
    Ok(vm
        .ctx
        .new_tuple(vec![
            vm.ctx.new_bytes(out).into(),
            vm.ctx.new_int(used).into(),
            vm.ctx.new_bool(ended).into(),
        ])
        .into())
}

/// `close(handle)`: frees the inflater.
fn close(id: u64) {
    if let Some(s) = STREAMS.lock().as_mut() {
        s.remove(&id);
    }
}

pub fn make_module(vm: &VirtualMachine) -> PyRef<PyModule> {
    let module = vm.new_module(MODULE, vm.ctx.new_dict(), None);
    let m = module.as_object();
    let _ = m.set_attr("new", vm.new_function("new", new), vm);
    let _ = m.set_attr("decompress", vm.new_function("decompress", decompress), vm);
    let _ = m.set_attr("close", vm.new_function("close", close), vm);
    module
}
