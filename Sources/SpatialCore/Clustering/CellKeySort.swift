/// The sort shared by the build's grids (`IsolationBound`, `LevelGrid`): 64-bit keys holding a
/// cell number above an item index, sorted by the cell bits only.
enum CellKeySort {
    /// LSD radix sort of `a` by bits lowBit ..< highBit (13 bits a pass; stable). O(n · passes).
    static func radixSort(_ a: inout ContiguousArray<UInt64>, scratch: inout ContiguousArray<UInt64>, lowBit: Int, highBit: Int) {
        var counts = ContiguousArray<Int>(repeating: 0, count: 1 << 13)
        var shift = lowBit
        while shift < highBit {
            let s = UInt64(shift)
            let mask: UInt64 = (1 << 13) - 1
            counts.withUnsafeMutableBufferPointer { c in
                for i in 0..<c.count { c[i] = 0 }
                a.withUnsafeBufferPointer { a in
                    scratch.withUnsafeMutableBufferPointer { t in
                        for v in a { c[Int((v >> s) & mask)] += 1 }
                        var total = 0
                        for i in 0..<c.count { let k = c[i]; c[i] = total; total += k }
                        for v in a {
                            let d = Int((v >> s) & mask)
                            t[c[d]] = v
                            c[d] += 1
                        }
                    }
                }
            }
            swap(&a, &scratch)
            shift += 13
        }
    }
}
