import Foundation
import SpatialCore

/// The `indexes` group: the k-d tree and the packed R-tree on 1M synthetic items.
///
/// - `kdtree.build`: 1M lng/lat points of `Synthetic.uniform` (the oracle's stream), `Double` storage.
/// - `kdtree.range-1pct` / `kdtree.range-0.01pct`: 1,000 boxes covering 1% / 0.01% of the data's
///   extent; `kdtree.range-1deg`: 1,000 boxes 1° on a side (`x ± 0.5°`, the reference's "range
///   (1°)", paired with `within` radius 0.5° as kdbush's own benchmark pairs `±r` with radius r);
///   `kdtree.range-2deg`: 1,000 boxes of ±1° (what `range-1deg` timed before, kept for comparison).
/// - `kdtree.within`: 1,000 circles of radius 0.5°; `kdtree.nearest`: 10,000 k = 1 queries
///   (`nearest(to:k:into:)` into a reused buffer).
/// - `rtree.build`: 1M boxes as flatbush's benchmark makes them (LCG seed 1234, the oracle's
///   boxes); `rtree.search-1pct` / `rtree.search-0.01pct`: 1,000 searches with square boxes
///   covering exactly 1% / 0.01% (flatbush's benchmark); `rtree.neighbors`: 10,000 k = 1 queries
///   at the min corners of the first 10,000 boxes (as flatbush's benchmark asks them).
/// The queries use the allocation-free variants (into a reused buffer, or a visitor), the fair
/// counterpart of a JavaScript call that returns a fresh array.
/// Every figure is the time for the whole batch, in ms. Bytes per item are printed as notes.
func benchIndexes(_ bench: Bench) throws {
    let n = 1_000_000
    let dataset = "uniform-\(Synthetic.sizeName(n))"
    let kdFigures = ["kdtree.build", "kdtree.range-1pct", "kdtree.range-0.01pct", "kdtree.range-1deg",
                     "kdtree.range-2deg", "kdtree.within", "kdtree.nearest"]
    let rFigures = ["rtree.build", "rtree.search-1pct", "rtree.search-0.01pct", "rtree.neighbors"]
    let wanted = { (names: [String]) in names.contains { bench.wants($0) || bench.wants("\($0)/\(dataset)") } }
    if wanted(kdFigures) { try benchKDTree(bench, n: n, dataset: dataset) }
    if wanted(rFigures) { try benchRTree(bench, n: n, dataset: dataset) }
}

/// The k-d tree figures' points: `Synthetic.uniform(n)` as two coordinate columns.
private func kdBenchPoints(_ n: Int) -> (x: [Double], y: [Double]) {
    let points = Synthetic.uniform(n)
    return (points.map(\.longitude), points.map(\.latitude))
}

/// The R-tree figures' boxes, as flatbush's benchmark makes them: x, y uniform in [0, 99), each
/// side up to 1 (the oracle's boxes, seed 1234), as four columns.
private func rtreeBenchBoxes(_ n: Int) -> (minX: [Double], minY: [Double], maxX: [Double], maxY: [Double]) {
    var rng = LCG(seed: 1234)
    var minX = [Double](), minY = [Double](), maxX = [Double](), maxY = [Double]()
    for _ in 0..<n {
        let x = rng.next53() * 99, y = rng.next53() * 99
        minX.append(x)
        minY.append(y)
        maxX.append(x + rng.next53())
        maxY.append(y + rng.next53())
    }
    return (minX, minY, maxX, maxY)
}

private func benchKDTree(_ bench: Bench, n: Int, dataset: String) throws {
    let (xs, ys) = kdBenchPoints(n)
    var tree: KDTree<Double>? = nil
    try xs.withUnsafeBufferPointer { x in
        try ys.withUnsafeBufferPointer { y in
            tree = try KDTree<Double>(x: x, y: y)
            bench.measure("kdtree.build", dataset: dataset, n: n) {
                blackHole(try? KDTree<Double>(x: x, y: y))
            }
        }
    }
    guard let tree else { return }
    bench.note("kdtree: \(tree.data.count) serialized bytes, \(fmt(Double(tree.data.count) / Double(n))) bytes per point (raw x, y: 16)")
    noteIndexMemory(bench, kind: "kdtree", n: n, rawBytesPerItem: 20, rawArrays: "UInt32 ids + Double x, y")

    var rng = LCG(seed: 777)
    func boxes(fraction: Double) -> [SIMD4<Double>] {
        let w = 360 * fraction.squareRoot(), h = 170 * fraction.squareRoot()
        return (0..<1000).map { _ in
            let x = -180 + (360 - w) * rng.next53(), y = -85 + (170 - h) * rng.next53()
            return SIMD4(x, y, x + w, y + h)
        }
    }
    var buffer: [Int] = []
    buffer.reserveCapacity(40_000)
    for (suffix, queries) in [("1pct", boxes(fraction: 0.01)), ("0.01pct", boxes(fraction: 0.0001))] {
        bench.measure("kdtree.range-\(suffix)", dataset: dataset, n: queries.count) {
            for q in queries {
                buffer.removeAll(keepingCapacity: true)
                tree.range(minX: q.x, minY: q.y, maxX: q.z, maxY: q.w, into: &buffer)
            }
            blackHole(buffer.count)
        }
    }
    let centres = (0..<10_000).map { _ in SIMD2(-180 + 360 * rng.next53(), -85 + 170 * rng.next53()) }
    for (name, half) in [("kdtree.range-1deg", 0.5), ("kdtree.range-2deg", 1.0)] {
        bench.measure(name, dataset: dataset, n: 1000) {
            for p in centres.prefix(1000) {
                buffer.removeAll(keepingCapacity: true)
                tree.range(minX: p.x - half, minY: p.y - half, maxX: p.x + half, maxY: p.y + half, into: &buffer)
            }
            blackHole(buffer.count)
        }
    }
    bench.measure("kdtree.within", dataset: dataset, n: 1000) {
        for p in centres.prefix(1000) {
            buffer.removeAll(keepingCapacity: true)
            tree.within(x: p.x, y: p.y, radius: 0.5, into: &buffer)
        }
        blackHole(buffer.count)
    }
    bench.measure("kdtree.nearest", dataset: dataset, n: centres.count) {
        var sum = 0
        for p in centres {
            buffer.removeAll(keepingCapacity: true)
            tree.nearest(to: p, k: 1, into: &buffer)
            sum &+= buffer.first ?? 0
        }
        blackHole(sum)
    }
}

private func benchRTree(_ bench: Bench, n: Int, dataset: String) throws {
    let (minX, minY, maxX, maxY) = rtreeBenchBoxes(n)
    var tree: PackedRTree? = nil
    try minX.withUnsafeBufferPointer { x0 in
        try minY.withUnsafeBufferPointer { y0 in
            try maxX.withUnsafeBufferPointer { x1 in
                try maxY.withUnsafeBufferPointer { y1 in
                    tree = try PackedRTree(minX: x0, minY: y0, maxX: x1, maxY: y1)
                    bench.measure("rtree.build", dataset: dataset, n: n) {
                        blackHole(try? PackedRTree(minX: x0, minY: y0, maxX: x1, maxY: y1))
                    }
                }
            }
        }
    }
    guard let tree else { return }
    bench.note("rtree: \(tree.data.count) serialized bytes, \(fmt(Double(tree.data.count) / Double(n))) bytes per box (raw boxes: 32)")
    noteIndexMemory(bench, kind: "rtree", n: n, rawBytesPerItem: 36, rawArrays: "4 Double box sides + UInt32 ids")

    var queryRNG = LCG(seed: 99)
    func queries(fraction: Double) -> [SIMD4<Double>] {
        let side = 100 * fraction.squareRoot()
        return (0..<1000).map { _ in
            let x = queryRNG.next53() * (100 - side), y = queryRNG.next53() * (100 - side)
            return SIMD4(x, y, x + side, y + side)
        }
    }
    var buffer: [Int] = []
    buffer.reserveCapacity(40_000)
    for (suffix, batch) in [("1pct", queries(fraction: 0.01)), ("0.01pct", queries(fraction: 0.0001))] {
        bench.measure("rtree.search-\(suffix)", dataset: dataset, n: batch.count) {
            for q in batch {
                buffer.removeAll(keepingCapacity: true)
                tree.search(minX: q.x, minY: q.y, maxX: q.z, maxY: q.w, into: &buffer)
            }
            blackHole(buffer.count)
        }
    }
    let points = (0..<10_000).map { SIMD2(minX[$0], minY[$0]) }
    bench.measure("rtree.neighbors", dataset: dataset, n: points.count) {
        var sum = 0
        for p in points {
            tree.forEachNeighbor(x: p.x, y: p.y, maxResults: 1) { sum &+= $0; return false }
        }
        blackHole(sum)
    }
}

/// Notes the memory one index build over `n` of the bench's items takes, measured by a fresh
/// probe process (`runIndexMemoryProbe`): the peak the build adds and what the finished tree
/// keeps resident, next to the raw arrays of the same items (`rawBytesPerItem`).
private func noteIndexMemory(_ bench: Bench, kind: String, n: Int, rawBytesPerItem: Double, rawArrays: String) {
    let readings = memoryProbeReadings(spec: "\(kind):\(n)")
    guard readings.count == 2 else { return bench.note("memory \(kind): the probe failed") }
    let mb = { (bytes: Double) in String(format: "%.1f MB", bytes / 1_048_576) }
    let raw = rawBytesPerItem * Double(n)
    bench.note("memory \(kind): \(mb(readings[1])) held by the tree (\(fmt(readings[1] / Double(n))) bytes per item, "
        + "\(String(format: "%.2f", readings[1] / raw))x the raw arrays, \(rawArrays): \(mb(raw))), "
        + "\(mb(readings[0])) peak added by the build (input excluded)")
}

/// The memory probe for one index build (`kdtree:N` or `rtree:N`): builds the bench's tree over
/// `N` items with the inputs kept alive, then prints the peak resident size the build added and
/// the resident size the finished tree keeps (after freed memory went back to the OS), in bytes,
/// and exits.
func runIndexMemoryProbe(_ spec: String) -> Never {
    let parts = spec.split(separator: ":")
    guard parts.count == 2, let n = Int(parts[1]) else { exit(2) }
    func measure(_ build: () throws -> Any) -> Never {
        returnFreedMemoryToOS()
        let before = PeakMemory.resident() ?? 0
        PeakMemory.reset()
        let tree = try? build()
        let peak = PeakMemory.current() ?? before
        returnFreedMemoryToOS()
        let held = PeakMemory.resident() ?? before
        blackHole(tree)
        print(Swift.max(0, peak - before), Swift.max(0, held - before))
        exit(0)
    }
    if parts[0] == "kdtree" {
        let (xs, ys) = kdBenchPoints(n)
        measure {
            try xs.withUnsafeBufferPointer { x in try ys.withUnsafeBufferPointer { y in try KDTree<Double>(x: x, y: y) } }
        }
    }
    let (minX, minY, maxX, maxY) = rtreeBenchBoxes(n)
    measure {
        try minX.withUnsafeBufferPointer { x0 in
            try minY.withUnsafeBufferPointer { y0 in
                try maxX.withUnsafeBufferPointer { x1 in
                    try maxY.withUnsafeBufferPointer { y1 in try PackedRTree(minX: x0, minY: y0, maxX: x1, maxY: y1) }
                }
            }
        }
    }
}
