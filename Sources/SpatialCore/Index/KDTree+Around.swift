import Foundation

/// Great-circle helpers for ``KDTree/around(longitude:latitude:maxResults:maxDistance:filter:)``
/// (geokdbush's formulas: haversine on a sphere of radius 6,371 km).
@usableFromInline
internal enum Geodesic {
    static let earthRadius = 6371.0
    static let radians = Double.pi / 180

    @inline(__always) static func haverSin(_ theta: Double) -> Double {
        let s = sin(theta / 2)
        return s * s
    }

    @inline(__always) static func haverSinDistance(_ haverSinDLng: Double, _ lat1: Double, _ lat2: Double) -> Double {
        cos(lat1 * radians) * cos(lat2 * radians) * haverSinDLng + haverSin((lat1 - lat2) * radians)
    }

    /// The latitude where the great circle through the query meets a meridian at its closest.
    static func vertexLatitude(_ lat: Double, _ haverSinDLng: Double) -> Double {
        let cosDLng = 1 - 2 * haverSinDLng
        if cosDLng <= 0 { return lat > 0 ? 90 : -90 }
        return atan(tan(lat * radians) / cosDLng) / radians
    }

    /// A lower bound of the haversine distance from the query to any point in the box.
    static func boxDistance(_ lng: Double, _ lat: Double, _ box: KDQueueEntry) -> Double {
        if lng >= box.minX && lng <= box.maxX {
            if lat < box.minY { return haverSin((lat - box.minY) * radians) }
            if lat > box.maxY { return haverSin((lat - box.maxY) * radians) }
            return 0
        }
        let haverSinDLng = Swift.min(haverSin((lng - box.minX) * radians), haverSin((lng - box.maxX) * radians))
        let extremum = vertexLatitude(lat, haverSinDLng)
        if extremum > box.minY && extremum < box.maxY {
            return haverSinDistance(haverSinDLng, lat, extremum)
        }
        return Swift.min(haverSinDistance(haverSinDLng, lat, box.minY), haverSinDistance(haverSinDLng, lat, box.maxY))
    }

    /// The great-circle distance in km between two lng/lat positions (haversine). O(1).
    static func distance(_ lng1: Double, _ lat1: Double, _ lng2: Double, _ lat2: Double) -> Double {
        let h = haverSinDistance(haverSin((lng1 - lng2) * radians), lat1, lat2)
        return 2 * earthRadius * asin(Swift.min(1, h.squareRoot()))
    }
}

extension KDTree {
    /// The ids of the points nearest to a lng/lat position by great-circle distance (km on a
    /// 6,371 km sphere), nearest first, as geokdbush's `around`: at most `maxResults`, within
    /// `maxDistance` km, skipping ids for which `filter` returns `false`.
    ///
    /// The tree must hold `x = longitude`, `y = latitude` in degrees. A `maxDistance` of half the
    /// Earth's circumference or more means no limit (geokdbush would wrap around there); a negative
    /// one finds nothing.
    ///
    /// - Complexity: O((k + log n) · nodeSize · log n) typical.
    public func around(
        longitude: Double, latitude: Double, maxResults: Int = .max, maxDistance: Double = .infinity,
        filter: ((Int) -> Bool)? = nil
    ) -> [Int] {
        var result: [Int] = []
        around(longitude: longitude, latitude: latitude, maxResults: maxResults, maxDistance: maxDistance,
               filter: filter, into: &result)
        return result
    }

    /// Appends to `result` (kept as is before them) the ids
    /// ``around(longitude:latitude:maxResults:maxDistance:filter:)`` returns, in its order. No
    /// allocation beyond `result`'s growth while at most 128 points and nodes wait in the search's
    /// queue (its room is on the machine stack, see `StackRoom`; a few nearest points around a
    /// place stay within it); beyond that the queue moves to the heap for the rest of the query.
    ///
    /// A queued node is kept as its depth and first position, and its bounding box is rebuilt from
    /// the root's splits when it is expanded (a handful of steps), so that a queue entry is two
    /// words instead of a box.
    ///
    /// - Complexity: O((k + log n) · nodeSize · log n) typical.
    public func around(
        longitude: Double, latitude: Double, maxResults: Int = .max, maxDistance: Double = .infinity,
        filter: ((Int) -> Bool)? = nil, into result: inout [Int]
    ) {
        let n = ids.count
        guard n > 0, maxResults > 0, maxDistance >= 0 else { return }
        let lng = longitude, lat = latitude
        let angle = maxDistance / Geodesic.earthRadius
        let maxHaverSin = angle >= Double.pi ? 1.0 : Geodesic.haverSin(angle)
        let root = KDQueueEntry(left: 0, right: n - 1, axis: 0, minX: -180, minY: -90, maxX: 180, maxY: 90)
        let room = StackRoom.capacity(of: Int.self)
        var found = 0
        withUnsafeTemporaryAllocation(of: Double.self, capacity: room) { keys in
        withUnsafeTemporaryAllocation(of: Int.self, capacity: room) { payloads in
            // Payloads: a point is −1 − id; a node is depth << 40 | left (non-negative).
            var queue = PriorityQueue<Int>(keys: keys.baseAddress.unsafelyUnwrapped,
                                           payloads: payloads.baseAddress.unsafelyUnwrapped, capacity: room)
            defer { queue.release() }
            ids.withUnsafeBufferPointer { ids in
                coords.withUnsafeBufferPointer { coords in
                    func pushPoint(_ i: Int) {
                        let id = Int(ids[i])
                        if let filter, !filter(id) { return }
                        let h = Geodesic.haverSin((lng - coords[2 * i].indexDouble) * Geodesic.radians)
                        let d = Geodesic.haverSinDistance(h, lat, coords[2 * i + 1].indexDouble)
                        queue.push(-1 - id, key: d)
                    }
                    // The node at `depth` whose first position is `left`, with the box the root's
                    // splits give it (a child's left is below its parent's middle exactly when it
                    // is the lower child).
                    func node(depth: Int, left: Int) -> KDQueueEntry {
                        var box = root
                        for _ in 0 ..< depth {
                            let m = (box.left + box.right) >> 1
                            if left < m {
                                box.right = m - 1
                                if box.axis == 0 { box.maxX = coords[2 * m].indexDouble } else { box.maxY = coords[2 * m + 1].indexDouble }
                            } else {
                                box.left = m + 1
                                if box.axis == 0 { box.minX = coords[2 * m].indexDouble } else { box.minY = coords[2 * m + 1].indexDouble }
                            }
                            box.axis = 1 - box.axis
                        }
                        return box
                    }
                    var current: (depth: Int, box: KDQueueEntry)? = (0, root)
                    while let (depth, box) = current {
                        let left = box.left, right = box.right
                        if right - left <= nodeSize {
                            var i = left
                            while i <= right { pushPoint(i); i += 1 }
                        } else {
                            let m = (left + right) >> 1
                            pushPoint(m)
                            let midX = coords[2 * m].indexDouble
                            let midY = coords[2 * m + 1].indexDouble
                            var lower = box, upper = box
                            lower.left = left; lower.right = m - 1; lower.axis = 1 - box.axis
                            upper.left = m + 1; upper.right = right; upper.axis = 1 - box.axis
                            if box.axis == 0 { lower.maxX = midX; upper.minX = midX } else { lower.maxY = midY; upper.minY = midY }
                            queue.push((depth + 1) << 40 | lower.left, key: Geodesic.boxDistance(lng, lat, lower))
                            queue.push((depth + 1) << 40 | upper.left, key: Geodesic.boxDistance(lng, lat, upper))
                        }
                        current = nil
                        while !queue.isEmpty {
                            let top = queue.minPayload
                            if top < 0 {
                                if queue.minKey > maxHaverSin { return }
                                queue.pop()
                                result.append(-1 - top)
                                found += 1
                                if found == maxResults { return }
                            } else {
                                queue.pop()
                                let depth = top >> 40
                                current = (depth, node(depth: depth, left: top & (1 << 40 - 1)))
                                break
                            }
                        }
                    }
                }
            }
        }
        }
    }
}

/// The great-circle distance in km between two lng/lat positions in degrees (haversine on a
/// 6,371 km sphere, as geokdbush's `distance`). O(1).
public func greatCircleDistance(longitude1: Double, latitude1: Double, longitude2: Double, latitude2: Double) -> Double {
    Geodesic.distance(longitude1, latitude1, longitude2, latitude2)
}
