import Foundation
import SpatialCore

/// A plain greedy clustering over arrays, written from the spec (clustering.md, "Algorithm"), for
/// comparison with ``ClusterIndex``. Neighbours are found by a sort-and-sweep over x and an exact
/// `d² ≤ r²` test (no tree). Their order:
/// - `.double` with minPoints 1–3: ascending item row (points first in input order, then clusters
///   as formed), the order the index takes there (where no order changes the result);
/// - `.double` with minPoints ≥ 4: the order of the C++ kdbush that MapLibre Native's engine
///   searches (a node's middle item, its lower half, then its upper half), walked here over the
///   layout of the public `KDTree<Double>` as its kdbush bytes (`data`) give it;
/// - `.float32`: the order of the public `KDTree<Float>` (kdbush's), built over the level's stored
///   positions, after checking that it finds exactly the swept set.
struct ReferenceClustering {
    struct Item: Equatable {
        var row: Int
        var id: Int  // input index for points, cluster id for clusters
        var x: Double
        var y: Double
        var count: Int
        var children: [Int] = []  // rows, in neighbour order (seed included)
    }

    /// Levels by zoom: `levels[z]` for z in minZoom … maxZoom + 1, items in level order.
    var levels: [Int: [Item]] = [:]
    var rows: [Item] = []

    init(longitudes: [Double], latitudes: [Double], options: ClusterOptions, featureCount: Int, featureIndex: [Int]) throws {
        let f32 = options.precision == .float32
        var level: [Int] = []
        for i in 0..<longitudes.count {
            var lng = longitudes[i]
            if lng < -180 || lng > 180 { lng = ((lng + 180).truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) - 180 }
            var x = lng / 360 + 0.5
            let s = sin(latitudes[i] * Double.pi / 180)
            var y = 0.5 - 0.25 * log((1 + s) / (1 - s)) / Double.pi
            y = y < 0 ? 0 : (y > 1 ? 1 : y)
            if f32 { x = Double(Float(x)); y = Double(Float(y)) }
            rows.append(Item(row: i, id: featureIndex[i], x: x, y: y, count: 1))
            level.append(i)
        }
        levels[options.maxZoom + 1] = level.map { rows[$0] }
        var assignedAt = [Int](repeating: Int.max, count: rows.count)
        for z in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
            let r = options.radius / (options.extent * pow(2, Double(z)))
            // Positions as searched: Float-rounded in .float32.
            let sx = level.map { f32 ? Double(Float(rows[$0].x)) : rows[$0].x }
            let sy = level.map { f32 ? Double(Float(rows[$0].y)) : rows[$0].y }
            let byX = level.indices.sorted { sx[$0] < sx[$1] }
            let sortedX = byX.map { sx[$0] }
            let tree: KDTree<Float>? = f32 ? try sx.withUnsafeBufferPointer { xs in
                try sy.withUnsafeBufferPointer { ys in try KDTree<Float>(x: xs, y: ys, nodeSize: options.nodeSize) }
            } : nil
            // `.double`, minPoints ≥ 4: the tree's layout (level positions in k-d order).
            let layout: [Int]? = !f32 && options.minPoints >= 4 ? try sx.withUnsafeBufferPointer { xs in
                try sy.withUnsafeBufferPointer { ys in
                    Self.layout(of: try KDTree<Double>(x: xs, y: ys, nodeSize: options.nodeSize))
                }
            } : nil
            // A radius search in the C++ kdbush's order over `layout`.
            func nativeWithin(_ qx: Double, _ qy: Double, _ layout: [Int]) -> [Int] {
                var out: [Int] = []
                func visit(_ left: Int, _ right: Int, _ axis: Int) {
                    if right < left { return }
                    if right - left <= options.nodeSize {
                        for i in left...right {
                            let p = layout[i], dx = sx[p] - qx, dy = sy[p] - qy
                            if dx * dx + dy * dy <= r * r { out.append(p) }
                        }
                        return
                    }
                    let m = (left + right) >> 1, p = layout[m]
                    let dx = sx[p] - qx, dy = sy[p] - qy
                    if dx * dx + dy * dy <= r * r { out.append(p) }
                    if axis == 0 ? qx - r <= sx[p] : qy - r <= sy[p] { visit(left, m - 1, 1 - axis) }
                    if axis == 0 ? qx + r >= sx[p] : qy + r >= sy[p] { visit(m + 1, right, 1 - axis) }
                }
                visit(0, layout.count - 1, 0)
                return out
            }
            func neighbours(_ qx: Double, _ qy: Double) -> [Int] {  // level positions
                var lo = 0, hi = sortedX.count
                while lo < hi { let m = (lo + hi) / 2; if sortedX[m] < qx - r { lo = m + 1 } else { hi = m } }
                var found: [Int] = []
                var k = lo
                while k < sortedX.count && sortedX[k] <= qx + r {
                    let p = byX[k]
                    let dx = sx[p] - qx, dy = sy[p] - qy
                    if dx * dx + dy * dy <= r * r { found.append(p) }
                    k += 1
                }
                if let tree {
                    let kd = tree.within(x: qx, y: qy, radius: r)
                    precondition(Set(kd) == Set(found), "KDTree.within disagrees with the sweep")
                    return kd
                }
                if let layout {
                    let kd = nativeWithin(qx, qy, layout)
                    precondition(Set(kd) == Set(found) && kd.count == found.count, "the k-d order disagrees with the sweep")
                    return kd
                }
                return found.sorted { level[$0] < level[$1] }
            }
            var next: [Int] = []
            for pos in level.indices {
                let it = level[pos]
                if assignedAt[it] <= z { continue }
                assignedAt[it] = z
                let nb = neighbours(rows[it].x, rows[it].y)
                let n0 = rows[it].count
                var n = n0
                for p in nb where assignedAt[level[p]] > z { n += rows[level[p]].count }
                if n > n0 && n >= options.minPoints {
                    var wx = rows[it].x * Double(n0), wy = rows[it].y * Double(n0)
                    var children: [Int] = []
                    var seedSeen = false
                    for p in nb {
                        let b = level[p]
                        if b == it { seedSeen = true; children.append(b); continue }
                        if assignedAt[b] <= z { continue }
                        assignedAt[b] = z
                        wx += rows[b].x * Double(rows[b].count)
                        wy += rows[b].y * Double(rows[b].count)
                        children.append(b)
                    }
                    if !seedSeen { children.insert(it, at: 0) }
                    let id = (pos << 5) + (z + 1) + featureCount
                    rows.append(Item(row: rows.count, id: id, x: wx / Double(n), y: wy / Double(n), count: n, children: children))
                    assignedAt.append(Int.max)
                    next.append(rows.count - 1)
                } else {
                    next.append(it)
                    if n > n0 {
                        for p in nb where assignedAt[level[p]] > z {
                            assignedAt[level[p]] = z
                            next.append(level[p])
                        }
                    }
                }
            }
            level = next
            levels[z] = level.map { rows[$0] }
        }
    }

    /// The ids of `tree` in k-d order, read from its kdbush bytes: an 8-byte header, then the ids
    /// as `UInt16` below 65,536 items, else `UInt32`, little-endian.
    static func layout(of tree: KDTree<Double>) -> [Int] {
        let bytes = tree.data, n = tree.count
        let width = n < 65_536 ? 2 : 4
        return (0..<n).map { i in
            (0..<width).reduce(0) { v, b in v | Int(bytes[8 + i * width + b]) << (8 * b) }
        }
    }
}
