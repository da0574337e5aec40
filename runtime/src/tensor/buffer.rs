//! A tensor's element buffer: one element inline, more behind a shared `Arc`.
//!
//! Why two forms: most tensors a Fluid loop touches are scalars (`[1]`
//! counters, conditions, channel values). Keeping their one element inline
//! means making one allocates nothing and copying one touches no shared
//! reference count, which is most of the cost of an interpreted scalar op.
//! Larger buffers stay shared copy-on-write, as before. Both forms read as a
//! slice ([`Deref`]), so kernels are plain loops either way.
use std::ops::Deref;
use std::sync::Arc;

/// The elements of one tensor, in row-major order. See the module docs.
#[derive(Debug, Clone)]
pub enum Buffer<T> {
    One(T),
    Many(Arc<[T]>),
}

impl<T> Deref for Buffer<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match self {
            Buffer::One(v) => std::slice::from_ref(v),
            Buffer::Many(v) => v,
        }
    }
}

impl<T: PartialEq> PartialEq for Buffer<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

/// Collects into the inline form when the iterator yields exactly one element.
impl<T> FromIterator<T> for Buffer<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut it = iter.into_iter();
        match (it.next(), it.next()) {
            (Some(a), None) => Buffer::One(a),
            (None, _) => Buffer::Many(Arc::from(Vec::new())),
            (Some(a), Some(b)) => {
                let mut v = Vec::with_capacity(2 + it.size_hint().0);
                v.push(a);
                v.push(b);
                v.extend(it);
                Buffer::Many(v.into())
            }
        }
    }
}

impl<T> From<Vec<T>> for Buffer<T> {
    fn from(mut v: Vec<T>) -> Self {
        if v.len() == 1 {
            if let Some(x) = v.pop() {
                return Buffer::One(x);
            }
        }
        Buffer::Many(v.into())
    }
}

impl<T: Copy> From<&[T]> for Buffer<T> {
    fn from(v: &[T]) -> Self {
        match v {
            [x] => Buffer::One(*x),
            _ => Buffer::Many(v.into()),
        }
    }
}
