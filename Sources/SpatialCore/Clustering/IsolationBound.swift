/// For every input point, the squared distance to its nearest other point when that is at most
/// `h`, else +∞ — found in one O(n log n) pass over a grid of cell size `h` (sorted cell keys and a
/// sweep with three monotone pointers, no hashing, no per-point allocation).
///
/// Why it lets the build skip searches: a raw point whose nearest other point is farther than
/// 3r at zoom z has no neighbour within r at level z + 1. A cluster present there was formed at a
/// zoom z' > z; its centre lies within r(z') of its first item and, by induction, all its points
/// lie within 4 r(z') ≤ 2 r(z) of its centre, so a cluster within r(z) would put one of its points
/// within 3 r(z). Such a point is kept unchanged, exactly as the greedy step would keep it, and no
/// other item can find it either (the neighbour relation is symmetric).
struct IsolationBound {
    /// Per point row: squared nearest-other-point distance if ≤ h², else +∞.
    let nearest2: ContiguousArray<Double>
    /// The grid cell size (unit Mercator).
    let h: Double

    init(x: ContiguousArray<Double>, y: ContiguousArray<Double>, count m: Int, options: ClusterOptions) {
        // Cell size: 3 r at the coarsest zoom where a uniform spread of the points would still give
        // about two points per 3r-disc; at least 1/60000 so that cell keys fit in 32 bits.
        var z = options.maxZoom
        while z > options.minZoom {
            let r3 = 3 * options.searchRadius(atZoom: z - 1)
            if Double.pi * r3 * r3 * Double(m) > 2 { break }
            z -= 1
        }
        let h = Swift.max(3 * options.searchRadius(atZoom: z), 1.0 / 60000)
        self.h = h
        let w = Swift.min(Int((1 / h).rounded(.up)) + 1, 60001)
        var nearest = ContiguousArray<Double>(repeating: .infinity, count: m)
        guard m > 1 else {
            nearest2 = nearest
            return
        }
        var keys = ContiguousArray<UInt64>(unsafeUninitializedCapacity: m) { buf, n in
            for i in 0..<m {
                let cx = Swift.min(Swift.max(Int(x[i] / h), 0), w - 1)
                let cy = Swift.min(Swift.max(Int(y[i] / h), 0), w - 1)
                buf[i] = UInt64(cy * w + cx) << 32 | UInt64(i)
            }
            n = m
        }
        keys.sort()
        let h2 = h * h
        keys.withUnsafeBufferPointer { keys in
            x.withUnsafeBufferPointer { x in
                y.withUnsafeBufferPointer { y in
                    nearest.withUnsafeMutableBufferPointer { nearest in
                        var lo = (0, 0, 0)
                        var q = 0
                        // The three row ranges of the 3×3 block around a cell (start, end pairs).
                        var ranges = ContiguousArray<Int>(repeating: 0, count: 6)
                        var rangeCount = 0
                        while q < m {
                            let cell = Int(keys[q] >> 32)
                            var qe = q + 1
                            while qe < m && Int(keys[qe] >> 32) == cell { qe += 1 }
                            let cx = cell % w, cy = cell / w
                            rangeCount = 0
                            for dy in -1...1 {
                                let ry = cy + dy
                                guard ry >= 0 && ry < w else { continue }
                                let lowKey = ry * w + Swift.max(cx - 1, 0)
                                let highKey = ry * w + Swift.min(cx + 1, w - 1)
                                var p = dy == -1 ? lo.0 : dy == 0 ? lo.1 : lo.2
                                while p < m && Int(keys[p] >> 32) < lowKey { p += 1 }
                                if dy == -1 { lo.0 = p } else if dy == 0 { lo.1 = p } else { lo.2 = p }
                                var e = p
                                while e < m && Int(keys[e] >> 32) <= highKey { e += 1 }
                                if e > p {
                                    ranges[2 * rangeCount] = p
                                    ranges[2 * rangeCount + 1] = e
                                    rangeCount += 1
                                }
                            }
                            for a in q..<qe {
                                let ia = Int(keys[a] & 0xffff_ffff)
                                let ax = x[ia], ay = y[ia]
                                var best = Double.infinity
                                for k in 0..<rangeCount {
                                    for j in ranges[2 * k]..<ranges[2 * k + 1] where j != a {
                                        let ib = Int(keys[j] & 0xffff_ffff)
                                        let dx = x[ib] - ax, dy = y[ib] - ay
                                        let d2 = dx * dx + dy * dy
                                        if d2 < best { best = d2 }
                                    }
                                }
                                nearest[ia] = best <= h2 ? best : .infinity
                            }
                            q = qe
                        }
                    }
                }
            }
        }
        nearest2 = nearest
    }

    /// The squared distance beyond which a raw point is isolated at search radius `r`: (3r)² with
    /// a small absolute margin for rounding, or +∞ (nothing known) when 3r exceeds the grid cell. O(1).
    @inline(__always) func isolatedSquaredDistance(radius r: Double) -> Double {
        let t = 3 * r + 1e-13
        return t <= h ? t * t : .infinity
    }
}
