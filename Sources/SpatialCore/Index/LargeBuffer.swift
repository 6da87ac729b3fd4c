#if os(Linux) && canImport(Glibc)
import Glibc
#endif

/// Page hints for the large arrays an index build writes once.
///
/// On Linux a fresh multi-megabyte allocation is mapped lazily, one 4 KiB page fault per page on
/// first write; building a 1M-point k-d tree faults in about 20 MB that way. Asking for
/// transparent huge pages (`MADV_HUGEPAGE`) on the 2 MiB-aligned interior of such a buffer before
/// it is written takes one fault per 2 MiB instead, and fewer TLB misses for the queries later. It is only a hint: where huge pages are unavailable (or on other
/// systems) nothing changes, and the contents are the same either way. Measure before using it:
/// the R-tree build's arrays faulted in more slowly with it, build after build.
@usableFromInline
internal enum LargeBuffer {
    /// Buffers smaller than this are left alone (they hold no whole aligned huge page worth it).
    @inlinable static var threshold: Int { 4 << 20 }

    /// Hints that `buffer`, not yet written, is worth backing with huge pages. O(1).
    @inlinable
    static func adviseHugePages<T>(_ buffer: UnsafeMutableBufferPointer<T>) {
        adviseHugePages(UnsafeMutableRawPointer(buffer.baseAddress), bytes: buffer.count &* MemoryLayout<T>.stride)
    }

    /// Hints that `bytes` bytes from `start`, not yet written, are worth backing with huge pages.
    @usableFromInline
    static func adviseHugePages(_ start: UnsafeMutableRawPointer?, bytes: Int) {
        #if os(Linux) && canImport(Glibc)
        guard let start, bytes >= threshold else { return }
        let huge = UInt(2 << 20)
        let first = (UInt(bitPattern: start) &+ huge &- 1) & ~(huge &- 1)
        let end = (UInt(bitPattern: start) &+ UInt(bytes)) & ~(huge &- 1)
        guard end > first, let aligned = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(aligned, Int(end &- first), MADV_HUGEPAGE)
        #endif
    }
}
