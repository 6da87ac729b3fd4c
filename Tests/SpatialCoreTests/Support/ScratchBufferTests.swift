import Testing
@testable import SpatialCore

/// The build loops' scratch lists, against an array given the same operations.
@Suite("Support: scratch buffer")
struct ScratchBufferTests {
    @Test("appends, inserts and clears like an array, across growth", arguments: [1, 16, 17, 1_000])
    func behavesLikeAnArray(count n: Int) {
        var buffer = ScratchBuffer<Int32>(capacity: 4)
        defer { buffer.deallocate() }
        var expected: [Int32] = []
        for round in 0 ..< 2 {
            for i in 0 ..< n {
                let value = Int32(i * 3 + round)
                buffer.append(value)
                expected.append(value)
                // Inserts at the front, in the middle and at the end, some of them when full.
                if i % 7 == 3 {
                    let at = [0, expected.count / 2, expected.count][i % 3]
                    buffer.insert(-value, at: at)
                    expected.insert(-value, at: at)
                }
            }
            #expect(buffer.count == expected.count)
            #expect(Array(buffer.elements) == expected, "round \(round), n \(n)")
            #expect((0 ..< buffer.count).allSatisfy { buffer[$0] == expected[$0] })
            buffer.removeAll()
            expected.removeAll()
            #expect(buffer.count == 0 && buffer.elements.isEmpty)
        }
    }

    @Test("an insert into a full buffer grows it first")
    func insertWhenFull() {
        var buffer = ScratchBuffer<UInt64>(capacity: 16)
        defer { buffer.deallocate() }
        for i in 0 ..< 16 { buffer.append(UInt64(i)) }
        buffer.insert(99, at: 0)
        #expect(Array(buffer.elements) == [99] + (0 ..< 16).map { UInt64($0) })
    }
}
