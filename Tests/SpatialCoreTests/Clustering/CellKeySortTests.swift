import Testing
@testable import SpatialCore

/// The build grids' radix sort, sequential and split over two cores, against the standard sort.
@Suite("Clustering: cell key sort")
struct CellKeySortTests {
    /// Keys as the grids make them: a cell number above bit 26, the item index below, items in
    /// ascending order. A stable sort by the cell bits then orders by the whole key.
    static func keys(count n: Int, cellBits: Int, seed: UInt64) -> ContiguousArray<UInt64> {
        var state = seed
        return ContiguousArray((0 ..< n).map { i -> UInt64 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            // Few distinct cells for small cellBits: many equal cells, which stability must order.
            let cell = (state >> 20) & ((1 << UInt64(cellBits)) - 1)
            return cell << 26 | UInt64(i)
        })
    }

    @Test("stable by cell, identical with and without the two-core split",
          arguments: [0, 1, 2, 3, 1_000, 65_537], [1, 5, 9, 13, 14, 18, 27, 38])
    func sortsByCell(count n: Int, cellBits: Int) {
        let input = Self.keys(count: n, cellBits: cellBits, seed: UInt64(n * 64 + cellBits))
        let expected = ContiguousArray(input.sorted())
        for parallel in [false, true] {
            var a = input
            var scratch = ContiguousArray<UInt64>(repeating: 0, count: n)
            CellKeySort.radixSort(&a, scratch: &scratch, lowBit: 26, highBit: 26 + cellBits, parallel: Parallelism(parallel, yielding: PauseGate()))
            // The first difference, not two whole arrays, in the failure message.
            let firstDifference = a.count != n ? 0 : a.indices.first { a[$0] != expected[$0] }
            #expect(firstDifference == nil, "n \(n), \(cellBits) cell bits, parallel \(parallel)")
        }
    }
}
