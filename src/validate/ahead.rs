//! Reading ahead: asking the processor to start loading memory that a step soon needs, so
//! that its wait overlaps other work (a JSON-lines run judges each line with a compiled
//! schema that is mostly in no cache; see `jsonl::Lines::warm`).

/// Start loading the cache line that holds `p` into the nearest cache. Only a hint: it
/// reads nothing the program sees, changes nothing, and never faults, whatever the address.
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    // SAFETY: `prefetcht0` is a hint with no architectural effect: it cannot fault, even on
    // an address that is not mapped, and it neither reads nor writes program state.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// [`prefetch`] every cache line of `bytes`.
#[inline]
pub(crate) fn prefetch_all(bytes: &[u8]) {
    for at in (0..bytes.len()).step_by(64) {
        prefetch(bytes[at..].as_ptr());
    }
    if let Some(last) = bytes.last() {
        prefetch(last);
    }
}

/// [`prefetch`] every cache line of `value`.
#[inline]
pub(crate) fn prefetch_value<T>(value: &T) {
    let start = std::ptr::from_ref(value).cast::<u8>();
    for at in (0..std::mem::size_of::<T>()).step_by(64) {
        prefetch(start.wrapping_add(at));
    }
    prefetch(start.wrapping_add(std::mem::size_of::<T>().saturating_sub(1)));
}
