import Foundation
import Testing
@testable import SpatialCore

/// The R-tree against flatbush 4.6.2's outputs (`../shared/oracle/flatbush-*.json`): the same
/// layout (indices hash, bounds, serialized sha256), the same ids for 100 searches, the same
/// neighbour order for 25 queries (runs of equal distance compared as sets), on the built tree
/// and on one read back from its bytes.
@Suite("PackedRTree oracle")
struct PackedRTreeOracleTests {
    static func boxes(_ flat: [Double]) -> [SIMD4<Double>] {
        stride(from: 0, to: flat.count, by: 4).map { SIMD4(flat[$0], flat[$0 + 1], flat[$0 + 2], flat[$0 + 3]) }
    }

    /// Squared box distance as flatbush computes it.
    static func sqDist(_ b: SIMD4<Double>, _ x: Double, _ y: Double) -> Double {
        let dx = x < b.x ? b.x - x : x > b.z ? x - b.z : 0
        let dy = y < b.y ? b.y - y : y > b.w ? y - b.w : 0
        return dx * dx + dy * dy
    }

    /// Splits `ids` into runs of equal distance and compares each run as a set.
    static func sameUpToTies(_ found: [Int], _ expected: [Int], _ boxes: [SIMD4<Double>], _ x: Double, _ y: Double) -> Bool {
        guard found.count == expected.count else { return false }
        var i = 0
        while i < expected.count {
            let d = sqDist(boxes[expected[i]], x, y)
            var j = i
            while j < expected.count && sqDist(boxes[expected[j]], x, y) == d { j += 1 }
            if Set(found[i..<j]) != Set(expected[i..<j]) { return false }
            i = j
        }
        return true
    }

    @Test(arguments: 0..<2)
    func matchesFlatbush(config index: Int) throws {
        guard let input = IndexOracle.flatbushInput, let output = IndexOracle.flatbushOutput else { return }
        let entry = output.configs[index]
        let boxes = Self.boxes(input.boxes)
        let tree = try PackedRTree(boxes, nodeSize: entry.config.nodeSize)
        #expect(tree.count == boxes.count)
        #expect(fnv1a32(tree.indices) == entry.indices_fnv1a)
        #expect(Array(tree.bounds.indices.map { tree.bounds[$0] }) == entry.bounds)
        let bytes = tree.data
        #expect(bytes.count == entry.serialized_bytes)
        #expect(SHA256.hex(bytes) == entry.serialized_sha256)
        let reread = try PackedRTree(data: bytes)
        #expect(reread.data == bytes)

        #expect(input.search_queries.count == 100 && entry.search.count == 100)
        for (q, expected) in zip(input.search_queries, entry.search) {
            for t in [tree, reread] {
                let found = t.search(minX: q[0], minY: q[1], maxX: q[2], maxY: q[3])
                #expect(found.count == expected.count)
                #expect(found.sorted() == expected.ids, "search \(q)")
                if let order = expected.native_order { #expect(found == order, "search order \(q)") }
            }
        }
        let neighborQueries = input.neighbor_queries + input.neighbor_queries_extra
        let neighborResults = entry.neighbors + entry.neighbors_extra
        #expect(neighborQueries.count == 25 && neighborResults.count == 25)
        for (q, expected) in zip(neighborQueries, neighborResults) {
            for t in [tree, reread] {
                let found = t.neighbors(
                    x: q.x, y: q.y, maxResults: q.maxResults ?? .max, maxDistance: q.maxDistance ?? .infinity)
                #expect(found.count == expected.count)
                #expect(Self.sameUpToTies(found, expected.ids, boxes, q.x, q.y), "neighbors \(q)")
                if let distances = expected.sq_dists {
                    #expect(found.map { Self.sqDist(boxes[$0], q.x, q.y) } == distances.map { $0 ?? .infinity })
                }
            }
        }
    }
}
