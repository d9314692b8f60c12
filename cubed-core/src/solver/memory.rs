//! Memory for the large tables: buffers that on Linux ask for transparent huge pages, so that random reads into tens of MB do not also miss the TLB, and a hint that brings an entry into cache before it is read.

/// Huge pages cover this many bytes; smaller buffers are left alone.
const HUGE_PAGE: usize = 2 << 20;

/// An empty vector with room for `capacity` items whose memory (not yet
/// touched) is advised to be backed by huge pages where the system allows.
pub(crate) fn huge_vec<T>(capacity: usize) -> Vec<T> {
    let v = Vec::with_capacity(capacity);
    let bytes = capacity * std::mem::size_of::<T>();
    if bytes >= 2 * HUGE_PAGE {
        advise_huge(v.as_ptr() as usize, bytes);
    }
    v
}

/// A vector of `len` zeros, advised like `huge_vec`: the zeros come from
/// the allocator's fresh pages, so no page is touched before it is written.
pub(crate) fn huge_zeroed_vec<T: bytemuck::Zeroable + Clone>(len: usize) -> Vec<T> {
    let v: Vec<T> = bytemuck::zeroed_vec(len);
    let bytes = len * std::mem::size_of::<T>();
    if bytes >= 2 * HUGE_PAGE {
        advise_huge(v.as_ptr() as usize, bytes);
    }
    v
}

#[cfg(target_os = "linux")]
fn advise_huge(start: usize, bytes: usize) {
    use nix::sys::mman::{madvise, MmapAdvise};
    const PAGE: usize = 4096;
    let first = start.next_multiple_of(PAGE);
    let len = (start + bytes).saturating_sub(first) / PAGE * PAGE;
    let Some(addr) = std::ptr::NonNull::new(first as *mut std::ffi::c_void) else {
        return;
    };
    // SAFETY: [first, first + len) lies inside the vector's allocation (whole
    // pages only); MADV_HUGEPAGE is a hint that changes no contents, and a
    // failure only means small pages, so its result is ignored.
    let _ = unsafe { madvise(addr, len, MmapAdvise::MADV_HUGEPAGE) };
}

#[cfg(not(target_os = "linux"))]
fn advise_huge(_: usize, _: usize) {}

/// A hint to bring `slice[i]` into cache; no effect if `i` is out of range or on other CPUs.
#[inline(always)]
pub(crate) fn prefetch<T>(slice: &[T], i: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(item) = slice.get(i) {
        // SAFETY: a prefetch only hints the cache; the pointer is valid (in bounds).
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                (item as *const T).cast::<i8>(),
            )
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (slice, i);
}
