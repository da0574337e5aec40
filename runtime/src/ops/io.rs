//! Ops that move data in and out of the program: feed, fetch and print.
use std::sync::atomic::{AtomicI64, Ordering};

use super::{compute, Exec, Registry};
use crate::error::KernelError;
use crate::loader::OpLoader;
use crate::value::Value;

pub(crate) fn register_all(r: &mut Registry) {
    r.add("feed", feed);
    r.add("fetch", fetch);
    r.add("print", print);
}

fn column(l: &OpLoader) -> Result<usize, String> {
    usize::try_from(l.int("col", 0)?)
        .map_err(|_| "attribute `col` must not be negative".to_string())
}

/// Copies column `col` of the feed holder into `Out`.
fn feed(l: &OpLoader) -> Result<Exec, String> {
    let (holder, out, col) = (l.input("X")?, l.output("Out")?, column(l)?);
    compute(move |s| {
        let fed = s.with(&holder, |v| match v {
            Value::FeedList(cols) => cols.get(col).cloned().flatten(),
            _ => None,
        });
        let t = fed.ok_or_else(|| {
            KernelError::MissingInput(format!(
                "nothing was fed for `{}` (feed column {col}); give it with --feed {}=VALUE",
                out.name, out.name
            ))
        })?;
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// Copies `X` into column `col` of the fetch holder.
fn fetch(l: &OpLoader) -> Result<Exec, String> {
    let (x, holder, col) = (l.input("X")?, l.output("Out")?, column(l)?);
    compute(move |s| {
        let t = s.tensor(&x)?.into_owned();
        s.with(&holder, |v| {
            if !matches!(v, Value::FetchList(_)) {
                *v = Value::FetchList(Vec::new());
            }
            if let Value::FetchList(cols) = v {
                if cols.len() <= col {
                    cols.resize(col + 1, None);
                }
                cols[col] = Some(t);
            }
        });
        Ok(())
    })
}

/// Paddle's `print` (`layers.Print`): writes the tensor to stderr, at most
/// `first_n` times if that is set, and passes it on to `Out`.
fn print(l: &OpLoader) -> Result<Exec, String> {
    let x = l.input("In")?;
    let out = l.opt_output("Out")?;
    let message = l.string("message")?.unwrap_or_default().to_string();
    let first_n = l.int("first_n", -1)?;
    let printed = AtomicI64::new(0);
    compute(move |s| {
        let t = s.tensor(&x)?.into_owned();
        if first_n < 0 || printed.fetch_add(1, Ordering::Relaxed) < first_n {
            let line = t.to_text(&x.name);
            if message.is_empty() {
                eprintln!("{line}");
            } else {
                eprintln!("{message} {line}");
            }
        }
        if let Some(out) = &out {
            s.set_tensor(out, t);
        }
        Ok(())
    })
}
