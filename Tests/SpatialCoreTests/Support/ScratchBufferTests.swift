import Testing
@testable import SpatialCore

/// The build loops' scratch lists, against an array given the same operations.
@Suite("Support: scratch buffer")
struct ScratchBufferTests {
    @Test("appends and clears like an array, across growth", arguments: [1, 16, 17, 1_000])
    func behavesLikeAnArray(count n: Int) {
        var buffer = ScratchBuffer<Int32>(capacity: 4)
        defer { buffer.deallocate() }
        var expected: [Int32] = []
        for round in 0 ..< 2 {
            for i in 0 ..< n {
                let value = Int32(i * 3 + round)
                buffer.append(value)
                expected.append(value)
            }
            #expect(buffer.count == expected.count)
            #expect(Array(buffer.elements) == expected, "round \(round), n \(n)")
            #expect((0 ..< buffer.count).allSatisfy { buffer[$0] == expected[$0] })
            buffer.removeAll()
            expected.removeAll()
            #expect(buffer.count == 0 && buffer.elements.isEmpty)
        }
    }

    @Test("a run written in place keeps the count its writer returns, growing first when needed",
          arguments: [1, 15, 16, 40, 1_000])
    func appendsRunsInPlace(run n: Int) {
        var buffer = ScratchBuffer<UInt64>(capacity: 16)
        defer { buffer.deallocate() }
        var expected: [UInt64] = []
        for round in 0 ..< 3 {
            // Every value is written; those of odd value are kept (the count steps only for them).
            buffer.append(upTo: n) { out in
                var kept = 0
                for i in 0 ..< n {
                    let value = UInt64(round * 10_000 + i)
                    out[kept] = value
                    kept += Int(value & 1)
                }
                return kept
            }
            expected += (0 ..< n).map { UInt64(round * 10_000 + $0) }.filter { $0 & 1 == 1 }
            buffer.append(7)
            expected.append(7)
            #expect(Array(buffer.elements) == expected, "round \(round), run \(n)")
        }
    }

    @Test("values written with a keep flag stay only when kept, across growth", arguments: [1, 16, 17, 1_000])
    func keepsFlaggedValues(count n: Int) {
        var buffer = ScratchBuffer<UInt64>(capacity: 16)
        defer { buffer.deallocate() }
        var expected: [UInt64] = []
        // Kept in an irregular pattern (every third value, and the multiples of 5), runs of
        // dropped values included, so that a dropped value's slot is reused by the next one.
        for i in 0 ..< 3 * n {
            let value = UInt64(i)
            let keep = i % 3 == 0 || i % 5 == 0
            buffer.append(value, keeping: keep)
            if keep { expected.append(value) }
        }
        #expect(buffer.count == expected.count)
        #expect(Array(buffer.elements) == expected, "n \(n)")
    }
}
