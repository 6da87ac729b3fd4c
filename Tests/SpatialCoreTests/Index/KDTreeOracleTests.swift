import Foundation
import Testing
@testable import SpatialCore

/// The k-d tree against kdbush 4.1.0's outputs (`../shared/oracle/kdbush-*.json`): the same
/// k-d layout (id hash and serialized sha256), the same ids and the same traversal order for 100
/// range and 100 within queries, for each of the three configurations, on the built tree and on
/// one read back from its bytes.
@Suite("KDTree oracle")
struct KDTreeOracleTests {
    @Test(arguments: 0..<3)
    func matchesKDBush(config index: Int) throws {
        guard let points = IndexOracle.random100k, let input = IndexOracle.kdbushInput,
            let output = IndexOracle.kdbushOutput
        else { return }
        let entry = output.configs[index]
        #expect(entry.config.nodeSize == input.configs[index].nodeSize)
        if entry.config.arrayType == "Float32Array" {
            try check(KDTree<Float>(points, nodeSize: entry.config.nodeSize), entry, input)
        } else {
            try check(KDTree<Double>(points, nodeSize: entry.config.nodeSize), entry, input)
        }
    }

    func check<S: KDTreeScalar>(
        _ tree: KDTree<S>, _ entry: IndexOracle.KDBushOutput.Config, _ input: IndexOracle.KDBushInput
    ) throws {
        // The layout.
        let layoutIDs = tree.ids.map { Int($0) }
        #expect(fnv1a32(layoutIDs) == entry.index_ids_fnv1a)
        #expect(Array(layoutIDs.prefix(64)) == entry.index_ids_first64)
        let bytes = tree.data
        #expect(bytes.count == entry.serialized_bytes)
        #expect(SHA256.hex(bytes) == entry.serialized_sha256)

        // The queries.
        let reread = try KDTree<S>(data: bytes)
        #expect(reread.data == bytes)
        #expect(input.range_queries.count == entry.range.count && entry.range.count == 100)
        for (b, expected) in zip(input.range_queries, entry.range) {
            for t in [tree, reread] {
                let found = t.range(minX: b[0], minY: b[1], maxX: b[2], maxY: b[3])
                #expect(found.count == expected.count)
                #expect(found.sorted() == expected.ids, "range \(b)")
                #expect(found == expected.native_order, "range order \(b)")
            }
        }
        #expect(input.within_queries.count == entry.within.count && entry.within.count == 100)
        for (w, expected) in zip(input.within_queries, entry.within) {
            for t in [tree, reread] {
                let found = t.within(x: w[0], y: w[1], radius: w[2])
                #expect(found.count == expected.count)
                #expect(found.sorted() == expected.ids, "within \(w)")
                #expect(found == expected.native_order, "within order \(w)")
                var visited: [Int] = []
                t.forEachWithin(x: w[0], y: w[1], radius: w[2]) { visited.append($0) }
                #expect(visited == found)
            }
        }
    }
}
