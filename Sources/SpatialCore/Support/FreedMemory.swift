#if os(Linux) && canImport(Glibc)
import Glibc
#endif

/// Hands memory the process has freed back to the operating system, between the phases of a
/// large build.
///
/// glibc's allocator serves a block from a fresh mapping only while it is larger than its
/// mmap threshold, and raises that threshold (up to 32 MiB) each time such a mapping is freed.
/// After the first level of a clustering build, the next levels' multi-megabyte scratch arrays
/// therefore come from the heap, and what they free stays resident as holes that the following
/// levels, whose arrays have other sizes, only partly reuse. `malloc_trim(0)` releases the free
/// pages of every arena (it does not move live blocks). A clustering build calls it once, where
/// its levels first shrink (see `ClusterBuilder.run()`): measured on 1M blob points, the peak
/// resident memory a build adds is 135 MiB with that release and 155 MiB without.
///
/// Elsewhere (Darwin's allocator returns large blocks on free, musl has no trim) this does nothing.
enum FreedMemory {
    #if os(Linux) && canImport(Glibc)
    /// `malloc_trim`, looked up once (it is glibc's, not in the Glibc module's headers).
    private static let trim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_LAZY), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
    #endif

    /// Builds over fewer items than this do not trim: their scratch is too small to matter and
    /// the trim walks every arena's free lists.
    static let worthFrom = 1 << 16

    /// Returns the free pages of the allocator's arenas to the system where the platform
    /// allows it. O(free blocks of the process's heaps).
    static func release() {
        #if os(Linux) && canImport(Glibc)
        _ = trim?(0)
        #endif
    }
}
