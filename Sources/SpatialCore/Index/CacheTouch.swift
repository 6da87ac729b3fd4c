/// Early loads for the memory-bound index traversals.
///
/// On a large tree a query's leaves are in DRAM, and a scan that meets their cache lines one by
/// one pays one miss latency after another. Reading one byte of each line as soon as the
/// traversal knows it will visit them puts all those misses in flight together. Swift has no
/// prefetch instruction, so these are ordinary loads; their bytes are folded into a value that
/// ``keep(_:)`` consumes, so the optimiser cannot drop them. The loads stay inside the buffers
/// the callers pass.
@usableFromInline
internal enum CacheTouch {
    /// The cache line size assumed (64 bytes on current x86-64 and ARM64 cores).
    @inlinable static var line: Int { 64 }

    /// Loads one byte per cache line of `bytes` bytes from `start` (`bytes > 0`), folded into one.
    @inlinable @inline(__always)
    static func lines(_ start: UnsafeRawPointer, bytes: Int) -> UInt8 {
        var offset = 0
        var folded: UInt8 = 0
        while offset < bytes {
            folded |= start.load(fromByteOffset: offset, as: UInt8.self)
            offset &+= line
        }
        return folded
    }

    /// Consumes folded bytes: they feed a store that never runs (the sink is never negative),
    /// which the optimiser cannot prove.
    @inlinable @inline(__always)
    static func keep(_ folded: UInt8) {
        if indexTouchSink < 0 { indexTouchSink = Int(folded) }
    }
}

/// Where ``CacheTouch/keep(_:)`` would send the touched bytes. Always 0 and never written (the
/// store is guarded by `< 0`), so threads only ever read it: no data race.
@usableFromInline nonisolated(unsafe) internal var indexTouchSink = 0
