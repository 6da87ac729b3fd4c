/// The sort shared by the build's grids (`IsolationBound`, `LevelGrid`): 64-bit keys holding a
/// cell number above an item index, sorted by the cell bits only.
enum CellKeySort {
    /// The bits of a key below its cell number: the item's index.
    static let indexBits = 26
    /// The index bits of a key.
    static let indexMask: UInt64 = (1 << indexBits) - 1

    /// In `keys` sorted by cell: the first index in `from ..< to` (default: to the end) whose cell
    /// is at least `cell`, or `to`. O(log n).
    /// `cellShift`: the bits below the cell number (default ``indexBits``).
    static func firstIndex(ofCellAtLeast cell: UInt64, in keys: UnsafeBufferPointer<UInt64>, from: Int = 0, to: Int? = nil,
                           cellShift: Int = indexBits) -> Int {
        var lo = from, hi = to ?? keys.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if keys[mid] &>> UInt64(cellShift) < cell { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// In `keys` sorted by cell: the first index at or after `k` that begins a cell (`keys.count`
    /// past the last; `k` clamped to 0 … count). Splitting sorted keys there gives two halves that
    /// never share a cell. `cellShift`: the bits below the cell number. O(cell size).
    static func cellStart(atOrAfter k: Int, in keys: UnsafeBufferPointer<UInt64>, cellShift: Int = indexBits) -> Int {
        let n = keys.count
        guard k > 0 && k < n else { return Swift.min(Swift.max(k, 0), n) }
        let shift = UInt64(cellShift)
        var b = k
        while b < n && keys[b] &>> shift == keys[b - 1] &>> shift { b += 1 }
        return b
    }

    /// LSD radix sort of `a` by bits lowBit ..< highBit (stable): at most 13 bits a pass, 8 for
    /// fewer than 8,192 keys (where clearing and summing 8,192 counters would cost more than the
    /// extra pass), the bits shared evenly between the passes (18 bits: two passes of 9, not 13
    /// and 5: 512 counters to clear and sum a pass instead of 8,192). When `parallel`, each pass
    /// counts and scatters the two halves of the input on the two cores: the second half's keys
    /// of a digit go after the first half's, so the result is the sequential sort's.
    /// O(n · passes + 2^digit bits · passes).
    static func radixSort(_ a: inout ContiguousArray<UInt64>, scratch: inout ContiguousArray<UInt64>,
                          lowBit: Int, highBit: Int, parallel: Parallelism) {
        let n = a.count
        precondition(scratch.count == n)
        let maxDigitBits = n < 1 << 13 ? 8 : 13
        let bits = Swift.max(highBit - lowBit, 1)
        let passes = (bits + maxDigitBits - 1) / maxDigitBits
        let digitBits = (bits + passes - 1) / passes
        let radix = 1 << digitBits
        let mask = UInt64(radix - 1)
        // Per half: the digit counts, then each digit's next output slot.
        var slots = ContiguousArray<Int>(repeating: 0, count: parallel.isEnabled ? 2 * radix : radix)
        var shift = lowBit
        while shift < highBit {
            let s = UInt64(shift)
            slots.withUnsafeMutableBufferPointer { slots in
                a.withUnsafeBufferPointer { a in
                    scratch.withUnsafeMutableBufferPointer { t in
                        if !parallel.isEnabled {
                            count(a, shift: s, mask: mask, into: slots)
                            var total = 0
                            for d in 0 ..< radix {
                                let k = slots[d]
                                slots[d] = total
                                total &+= k
                            }
                            scatter(a, shift: s, mask: mask, slots: slots, into: t)
                            return
                        }
                        let first = UnsafeMutableBufferPointer(rebasing: slots[0 ..< radix])
                        let second = UnsafeMutableBufferPointer(rebasing: slots[radix...])
                        let low = UnsafeBufferPointer(rebasing: a[0 ..< n / 2])
                        let high = UnsafeBufferPointer(rebasing: a[n / 2 ..< n])
                        ParallelPair.run(parallel: parallel,
                                         { count(low, shift: s, mask: mask, into: first) },
                                         { count(high, shift: s, mask: mask, into: second) })
                        var total = 0
                        for d in 0 ..< radix {
                            let k0 = first[d], k1 = second[d]
                            first[d] = total
                            second[d] = total &+ k0
                            total &+= k0 &+ k1
                        }
                        ParallelPair.run(parallel: parallel,
                                         { scatter(low, shift: s, mask: mask, slots: first, into: t) },
                                         { scatter(high, shift: s, mask: mask, slots: second, into: t) })
                    }
                }
            }
            swap(&a, &scratch)
            shift += digitBits
        }
    }

    /// Sets `counts[d]` to the number of keys of `a` whose digit (`key >> shift & mask`) is d.
    @inline(__always)
    private static func count(_ a: UnsafeBufferPointer<UInt64>, shift: UInt64, mask: UInt64,
                              into counts: UnsafeMutableBufferPointer<Int>) {
        for d in counts.indices { counts[d] = 0 }
        for v in a { counts[Int((v &>> shift) & mask)] &+= 1 }
    }

    /// Writes each key of `a` to `t[slots[digit]]` and advances that slot: in order, so stable.
    /// The two halves' slot ranges are disjoint.
    @inline(__always)
    private static func scatter(_ a: UnsafeBufferPointer<UInt64>, shift: UInt64, mask: UInt64,
                                slots: UnsafeMutableBufferPointer<Int>, into t: UnsafeMutableBufferPointer<UInt64>) {
        for v in a {
            let d = Int((v &>> shift) & mask)
            t[slots[d]] = v
            slots[d] &+= 1
        }
    }
}
