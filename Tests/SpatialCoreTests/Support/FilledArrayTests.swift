import Testing
@testable import SpatialCore

/// Arrays written in place, and the two-core split of an item loop, against plain loops.
@Suite("Support: arrays filled in place, halves over two cores")
struct FilledArrayTests {
    @Test("fillingUpTo keeps exactly the elements written, for every count up to the capacity",
          arguments: [0, 1, 2, 7, 100])
    func fillingUpTo(capacity: Int) {
        for kept in 0 ... capacity {
            var called = false
            let a = ContiguousArray<UInt32>(fillingUpTo: capacity) { buffer in
                called = true
                #expect(buffer.count == capacity)
                for i in 0 ..< kept { buffer[i] = UInt32(i * 3 + 1) }
                return kept
            }
            #expect(Array(a) == (0 ..< kept).map { UInt32($0 * 3 + 1) })
            // An empty capacity hands out no buffer (the shared empty storage is never written).
            #expect(called == (capacity > 0))
        }
    }

    @Test("halves covers 0 ..< count once, in two parts split at count / 2, on one core or two",
          arguments: [0, 1, 2, 3, 1_001])
    func halves(count: Int) {
        for parallel in [false, true] {
            var seen = [Int](repeating: 0, count: count)
            var lowPart = 0 ..< 0, highPart = 0 ..< 0
            seen.withUnsafeMutableBufferPointer { seen in
                ParallelPair.halves(of: count, parallel: Parallelism(parallel)) { part in
                    for i in part { seen[i] += 1 }
                    if part.lowerBound == 0 && part.upperBound == count / 2 { lowPart = part } else { highPart = part }
                }
            }
            #expect(seen.allSatisfy { $0 == 1 }, "parallel \(parallel)")
            #expect(lowPart == 0 ..< count / 2 && highPart == count / 2 ..< count, "parallel \(parallel)")
        }
    }
}
