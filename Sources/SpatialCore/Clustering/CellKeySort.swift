/// The sort shared by the build's grids (`IsolationBound`, `LevelGrid`): 64-bit keys holding a
/// cell number above an item index, sorted by the cell bits only.
enum CellKeySort {
    /// Bits sorted per pass.
    static var digitBits: Int { 13 }

    /// LSD radix sort of `a` by bits lowBit ..< highBit (13 bits a pass; stable). When
    /// `parallel`, each pass counts and scatters the two halves of the input on the two cores:
    /// the second half's keys of a digit go after the first half's, so the result is the
    /// sequential sort's. O(n · passes).
    static func radixSort(_ a: inout ContiguousArray<UInt64>, scratch: inout ContiguousArray<UInt64>,
                          lowBit: Int, highBit: Int, parallel: Bool) {
        let n = a.count
        precondition(scratch.count == n)
        let half = parallel ? n / 2 : n
        let radix = 1 << digitBits
        // Per half: the digit counts, then each digit's next output slot.
        var slots = ContiguousArray<Int>(repeating: 0, count: 2 * radix)
        var shift = lowBit
        while shift < highBit {
            let s = UInt64(shift)
            let mask = UInt64(radix - 1)
            slots.withUnsafeMutableBufferPointer { slots in
                let first = UnsafeMutableBufferPointer(rebasing: slots[0 ..< radix])
                let second = UnsafeMutableBufferPointer(rebasing: slots[radix...])
                a.withUnsafeBufferPointer { a in
                    scratch.withUnsafeMutableBufferPointer { t in
                        let low = UnsafeBufferPointer(rebasing: a[0 ..< half])
                        let high = UnsafeBufferPointer(rebasing: a[half ..< n])
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
