//! A tensor's element buffer: one element inline, more behind a shared `Arc`.
//!
//! Why two forms: most tensors a Fluid loop touches are scalars (`[1]`
//! counters, conditions, channel values). Keeping their one element inline
//! means making one allocates nothing and copying one touches no shared
//! reference count, which is most of the cost of an interpreted scalar op.
//! Larger buffers are shared copy-on-write. Both forms read as a slice
//! ([`Deref`]), so kernels are plain loops either way.
//!
//! Why `Arc<Vec<T>>` and not `Arc<[T]>`: a kernel computes into a `Vec`,
//! and `Arc<[T]>::from(Vec)` allocates again and copies (the count lives
//! in front of the elements), where `Arc::new(vec)` only boxes the vector's
//! three words. Measured on this machine, a `Vec<f32>` of 2^20 elements
//! became an `Arc<[f32]>` in 3.9 ms and an `Arc<Vec<f32>>` in 0.1 ms (16
//! elements: 27 ns against 23 ns). And a uniquely owned `Arc<Vec<T>>` gives
//! its vector back ([`Buffer::refill`], [`Buffer::unique_mut`]), so a kernel
//! whose output variable already holds a buffer nobody else shares writes
//! into it: no allocation, no page faults.
use std::ops::Deref;
use std::sync::Arc;

/// The elements of one tensor, in row-major order. See the module docs.
#[derive(Debug, Clone)]
pub enum Buffer<T> {
    One(T),
    Many(Arc<Vec<T>>),
}

impl<T> Deref for Buffer<T> {
    type Target = [T];

    #[inline]
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
            (None, _) => Buffer::Many(Arc::new(Vec::new())),
            (Some(a), Some(b)) => {
                let mut v = Vec::with_capacity(2 + it.size_hint().0);
                v.push(a);
                v.push(b);
                v.extend(it);
                Buffer::Many(Arc::new(v))
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
        Buffer::Many(Arc::new(v))
    }
}

impl<T: Copy> From<&[T]> for Buffer<T> {
    fn from(v: &[T]) -> Self {
        match v {
            [x] => Buffer::One(*x),
            _ => Buffer::Many(Arc::new(v.to_vec())),
        }
    }
}

impl<T> Buffer<T> {
    /// The elements, mutable, if nothing else shares them (the inline
    /// element always qualifies).
    #[inline]
    pub fn unique_mut(&mut self) -> Option<&mut [T]> {
        match self {
            Buffer::One(v) => Some(std::slice::from_mut(v)),
            Buffer::Many(v) => Arc::get_mut(v).map(Vec::as_mut_slice),
        }
    }

    /// A buffer of `n` elements from `values` (which must yield `n`),
    /// written into `old`'s allocation when `old` has one owner and room
    /// for them, else into a new one. `old` is what the output variable held.
    #[inline]
    pub fn refill(old: Option<Buffer<T>>, n: usize, values: impl Iterator<Item = T>) -> Buffer<T> {
        if let Some(Buffer::Many(mut arc)) = old {
            if n > 1 {
                if let Some(v) = Arc::get_mut(&mut arc).filter(|v| v.capacity() >= n) {
                    v.clear();
                    v.extend(values);
                    return Buffer::Many(arc);
                }
            }
        }
        values.collect()
    }

    /// A vector of `n` elements to compute into, for kernels that write
    /// every element: `old`'s own vector when it has one owner and room
    /// (its old values left in place, not cleared: clearing a gradient's
    /// buffer each step was a fifth of a small-batch training step), else
    /// a new one of `fill`s. [`Buffer::from`] it afterwards.
    pub fn reuse_vec(old: Option<Buffer<T>>, n: usize, fill: T) -> Vec<T>
    where
        T: Clone,
    {
        if let Some(Buffer::Many(arc)) = old {
            if let Ok(mut v) = Arc::try_unwrap(arc) {
                if v.capacity() >= n {
                    v.truncate(n);
                    v.resize(n, fill);
                    return v;
                }
            }
        }
        vec![fill; n]
    }
}

impl<T: Clone> Buffer<T> {
    /// The elements, mutable: copied first if something else shares them
    /// (copy-on-write).
    pub fn make_mut(&mut self) -> &mut [T] {
        match self {
            Buffer::One(v) => std::slice::from_mut(v),
            Buffer::Many(v) => Arc::make_mut(v).as_mut_slice(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refill_reuses_a_unique_allocation_and_copies_a_shared_one() {
        let old: Buffer<f32> = vec![1.0, 2.0, 3.0].into();
        let at = old.as_ptr();
        let new = Buffer::refill(Some(old), 3, [4.0, 5.0, 6.0].into_iter());
        assert_eq!((&*new, new.as_ptr()), (&[4.0, 5.0, 6.0][..], at));

        let shared = new.clone();
        let fresh = Buffer::refill(Some(new), 3, [7.0, 8.0, 9.0].into_iter());
        assert_ne!(fresh.as_ptr(), shared.as_ptr());
        assert_eq!(&*shared, &[4.0, 5.0, 6.0], "the sharer keeps its values");

        let one = Buffer::refill(Some(fresh), 1, [1.0].into_iter());
        assert!(matches!(one, Buffer::One(_)));
    }

    #[test]
    fn make_mut_copies_only_when_shared() {
        let mut a: Buffer<i64> = vec![1, 2].into();
        let b = a.clone();
        assert!(a.unique_mut().is_none());
        a.make_mut()[0] = 9;
        assert_eq!((&*a, &*b), (&[9, 2][..], &[1, 2][..]));
        let at = a.as_ptr();
        a.make_mut()[1] = 8;
        assert_eq!(a.as_ptr(), at, "unique: written in place");
        let v = Buffer::reuse_vec(Some(a), 2, 0);
        assert_eq!(
            (v.as_slice(), v.as_ptr()),
            (&[9, 8][..], at),
            "reused, old values kept"
        );
    }
}
