//! The bottom sorting algorithm (we could just have 1-element runs and do all
//! the sorting with the merge algorithm, but that would be much slower).

#[cfg(test)]
mod tests;

use crate::Comparator;

/// Sorts the list using binary insertion sort; `list[..start]` is already
/// sorted.
///
/// fluidc's patch: CPython's `binarysort`. The crate inserted linearly,
/// from the top of the sorted part, which asks a Python comparison per
/// element passed (about twice CPython's count on random data); a binary
/// search asks CPython's comparisons (`pivot < list[mid]`) and keeps equal
/// elements in their order.
pub(crate) fn sort<T, C: Comparator<T>>(
    list: &mut [T],
    start: usize,
    cmp: &C,
) -> Result<(), C::Error> {
    for i in start.max(1)..list.len() {
        let (mut lo, mut hi) = (0, i);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if cmp.is_gt(&list[mid], &list[i])? {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        list[lo..=i].rotate_right(1);
    }
    Ok(())
}
