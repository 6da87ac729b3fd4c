extension ClusterBuilder {
    /// One level of the `.float32` build, supercluster's step exactly: every item of level z + 1
    /// in order that no earlier item took searches the level's k-d tree (kdbush's `within`
    /// order) and takes its untaken neighbours, forming a cluster when they bring the count to
    /// `minPoints`. Returns level z, or nil when it equals level z + 1 (nothing merged or taken).
    /// Raw points that `isolation` rules out (with the margin for the trees' `Float` rounding)
    /// are kept without a search: it would find only themselves.
    ///
    /// - Complexity: O(n log n) for n items (one tree search each).
    mutating func clusterLevelOnTree(
        _ level: ContiguousArray<UInt32>, zoom z: Int, tree: KDTree<S>, isolation: IsolationBound?
    ) -> ContiguousArray<UInt32>? {
        let r = options.searchRadius(atZoom: z)
        let z8 = Int8(z)
        let minPoints = options.minPoints
        let isolated2 = isolation?.isolatedSquaredDistance(radius: r, float32: true) ?? .infinity
        // Per raw point (empty without the pre-pass): its nearest-point distance, or one that
        // every level threshold compares alike (`IsolationBound.nearest2`).
        let nearest2 = isolation?.nearest2 ?? []
        var next = ContiguousArray<UInt32>()
        next.reserveCapacity(level.count)
        var changed = false
        var neighbours = ContiguousArray<UInt32>()
        neighbours.reserveCapacity(256)
        for pos in 0..<level.count {
            let it = Int(level[pos])
            if lastZoom[it] <= z8 { continue }
            lastZoom[it] = z8
            if it < nearest2.count && nearest2[it] > isolated2 {
                next.append(UInt32(it))
                continue
            }
            let sx = x[it], sy = y[it]
            neighbours.removeAll(keepingCapacity: true)
            tree.forEachWithin(x: sx, y: sy, radius: r) { neighbours.append(UInt32(truncatingIfNeeded: $0)) }

            let n0 = Int(count[it])
            var n = n0
            for b in neighbours where lastZoom[Int(b)] > z8 { n += Int(count[Int(b)]) }

            if n > n0 && n >= minPoints {
                changed = true
                let c = x.count
                let id = Int32((pos << 5) + (z + 1) + featureCount)
                var wx = sx * Double(n0), wy = sy * Double(n0)
                let firstChild = childList.count
                var seedSeen = false
                beginProperties(seed: it)
                for bu in neighbours {
                    let b = Int(bu)
                    if b == it { seedSeen = true; childList.append(Int32(b)); continue }
                    if lastZoom[b] <= z8 { continue }
                    lastZoom[b] = z8
                    let nb = Double(count[b])
                    wx += x[b] * nb
                    wy += y[b] * nb
                    addMember(b, cluster: c, zoom: z)
                }
                let row = appendCluster(seed: it, x: wx / Double(n), y: wy / Double(n), count: n, id: id,
                                        zoom: z, firstChild: firstChild, seedSeen: seedSeen)
                next.append(UInt32(row))
            } else {
                next.append(UInt32(it))
                if n > n0 {
                    changed = true
                    for b in neighbours where lastZoom[Int(b)] > z8 {
                        lastZoom[Int(b)] = z8
                        next.append(b)
                    }
                }
            }
        }
        return changed ? next : nil
    }
}
