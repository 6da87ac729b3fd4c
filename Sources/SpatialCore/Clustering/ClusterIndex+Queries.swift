extension ClusterIndex {
    /// The level of a (possibly fractional or out-of-range) zoom: floored, clamped to
    /// minZoom … maxZoom + 1; NaN gives minZoom. O(1).
    func levelZoom(_ zoom: Double) -> Int {
        guard !zoom.isNaN else { return options.minZoom }
        let f = zoom.rounded(.down)
        if f <= Double(options.minZoom) { return options.minZoom }
        if f >= Double(options.maxZoom + 1) { return options.maxZoom + 1 }
        return Int(f)
    }

    /// The items of a zoom level inside a box `[west, south, east, north]` in degrees.
    ///
    /// The zoom is floored and clamped to minZoom … maxZoom + 1. A box with west > east crosses
    /// the antimeridian (the eastern part's items come first); a box 360° wide or wider returns the
    /// whole level; longitudes outside ±180 are normalised and latitudes clamped to ±90. Items come
    /// in k-d tree order (supercluster's order in `.float32`). O(√n + k).
    public func clusters(west: Double, south: Double, east: Double, north: Double, zoom: Double) -> [ClusterItem] {
        var result: [ClusterItem] = []
        forEachCluster(west: west, south: south, east: east, north: north, zoom: zoom) { result.append($0) }
        return result
    }

    /// ``clusters(west:south:east:north:zoom:)`` with the box as `[west, south, east, north]`;
    /// a box that does not have four values gives no items. O(√n + k).
    public func clusters(in bbox: [Double], zoom: Double) -> [ClusterItem] {
        guard bbox.count == 4 else { return [] }
        return clusters(west: bbox[0], south: bbox[1], east: bbox[2], north: bbox[3], zoom: zoom)
    }

    /// Calls `body` with each item of ``clusters(west:south:east:north:zoom:)``, in the same order,
    /// without collecting them. O(√n + k).
    public func forEachCluster(
        west: Double, south: Double, east: Double, north: Double, zoom: Double, _ body: (ClusterItem) -> Void
    ) {
        forEachRow(west: west, south: south, east: east, north: north, zoom: zoom) { body(item(row: $0)) }
    }

    /// Visits the item rows of a box query (supercluster's normalisation and split). O(√n + k).
    func forEachRow(
        west: Double, south: Double, east: Double, north: Double, zoom: Double, _ body: (Int) -> Void
    ) {
        guard !west.isNaN, !south.isNaN, !east.isNaN, !north.isNaN else { return }
        var minLng = ((west + 180).truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) - 180
        let minLat = max(-90, min(90, south))
        var maxLng = east == 180 ? 180
            : ((east + 180).truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) - 180
        let maxLat = max(-90, min(90, north))
        if !(west.isFinite && east.isFinite) || east - west >= 360 {
            minLng = -180
            maxLng = 180
        } else if minLng > maxLng {
            forEachRow(west: minLng, south: minLat, east: 180, north: maxLat, zoom: zoom, body)
            forEachRow(west: -180, south: minLat, east: maxLng, north: maxLat, zoom: zoom, body)
            return
        }
        let z = levelZoom(zoom)
        let x0 = UnitMercator.x(longitude: minLng), x1 = UnitMercator.x(longitude: maxLng)
        let y0 = UnitMercator.y(latitude: maxLat), y1 = UnitMercator.y(latitude: minLat)
        forEachRow(level: z, minX: x0, minY: y0, maxX: x1, maxY: y1, body)
    }

    /// How far a `.double` query widens its box before searching the level trees, whose
    /// coordinates are the rows' rounded to `Float`: in [0, 1], where unit Mercator coordinates
    /// lie, rounding moves a value by at most 2^-25, so every row inside the box is found; the
    /// rows' own `Double` coordinates then decide. O(1).
    static var treeMargin: Double { 0x1p-23 }

    /// Visits the rows of level z inside a unit-Mercator box, in tree order. O(√n + k).
    @inline(__always)
    func forEachRow(level z: Int, minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (Int) -> Void) {
        switch trees {
        case .float(let t):
            t[z - options.minZoom].forEachInRange(minX: minX, minY: minY, maxX: maxX, maxY: maxY, body)
        case .double(let segments, let levels):
            let z8 = Int8(z)
            let e = Self.treeMargin
            itemLowLevel.withUnsafeBufferPointer { low in
                itemHighLevel.withUnsafeBufferPointer { high in
                    itemX.withUnsafeBufferPointer { itemX in
                        itemY.withUnsafeBufferPointer { itemY in
                            for s in levels[z - options.minZoom] {
                                segments[Int(s)].forEachInRange(minX: minX - e, minY: minY - e, maxX: maxX + e, maxY: maxY + e) { row in
                                    // Presence first: a snapshot holds rows of other levels too.
                                    guard low[row] <= z8 && z8 <= high[row] else { return }
                                    let x = itemX[row], y = itemY[row]
                                    if minX <= x && x <= maxX && minY <= y && y <= maxY { body(row) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The item stored at a row. O(1).
    func item(row: Int) -> ClusterItem {
        if row < pointCount {
            let f = Int(itemRef[row])
            let id: FeatureID? = options.generateId ? .number(Double(f)) : (featureIDs.isEmpty ? nil : featureIDs[f])
            return .point(ClusteredPoint(
                index: f, id: id,
                coordinate: Coordinate(latitude: pointLatitude[row], longitude: pointLongitude[row]),
                mercator: SIMD2(itemX[row], itemY[row]), properties: properties(ofFeature: f)))
        }
        return .cluster(Cluster(
            id: ClusterID(rawValue: Int(itemRef[row])),
            coordinate: Coordinate(latitude: UnitMercator.latitude(y: itemY[row]), longitude: UnitMercator.longitude(x: itemX[row])),
            mercator: SIMD2(itemX[row], itemY[row]), pointCount: Int(itemCount[row]),
            clusterProperties: reducedProperties(row: row)))
    }

    /// The reduced cluster properties of a row (empty without cluster properties). O(properties).
    func reducedProperties(row: Int) -> JSONObject {
        if numericProperties.isEmpty && customProperties.isEmpty && expressionProperties.count == 0 { return JSONObject() }
        var o = JSONObject()
        let nn = numericProperties.count, nc = customProperties.count
        for (k, p) in numericProperties.enumerated() {
            o[p.name] = p.aggregation.jsonValue(numericValues[row * nn + k])
        }
        for (k, p) in customProperties.enumerated() {
            o[p.name] = customValues[row * nc + k]
        }
        let ne = expressionProperties.count
        for (k, p) in expressionProperties.properties.enumerated() {
            o[p.name] = expressionValues[row * ne + k]
        }
        return o
    }

    /// The row of a cluster id, or nil. O(log clusters).
    func clusterRow(_ id: ClusterID) -> Int? {
        guard let (_, originZoom) = id.origin(featureCount: featureCount) else { return nil }
        let z = originZoom - 1
        guard z >= options.minZoom, z <= options.maxZoom else { return nil }
        var lo = zoomClusterStart[z - options.minZoom]
        var hi = z == options.minZoom ? itemX.count : zoomClusterStart[z - 1 - options.minZoom]
        guard id.rawValue <= Int(Int32.max) else { return nil }
        let target = Int32(id.rawValue)
        while lo < hi {
            let mid = (lo + hi) >> 1
            if itemRef[mid] < target { lo = mid + 1 } else { hi = mid }
        }
        return lo < itemX.count && lo < (z == options.minZoom ? itemX.count : zoomClusterStart[z - 1 - options.minZoom])
            && itemRef[lo] == target ? lo : nil
    }

    /// The cluster with this id, as queries return it. O(log clusters + properties).
    /// - Throws: ``ClusterError/noCluster(_:)`` for an id this index did not produce.
    public func cluster(_ id: ClusterID) throws(ClusterError) -> Cluster {
        guard let row = clusterRow(id), case .cluster(let c) = item(row: row) else { throw .noCluster(id) }
        return c
    }

    /// The rows of a cluster's children, in k-d neighbour order. O(1).
    @inline(__always) func childRows(ofClusterRow row: Int) -> Range<Int> {
        let k = row - pointCount
        return Int(childStart[k])..<Int(childStart[k + 1])
    }

    /// The items one zoom below the cluster whose parent it is (supercluster's `getChildren`),
    /// in supercluster's order in `.float32`; in `.double`, in the order the build took them
    /// (row order, or MapLibre Native's k-d order where that order changes the clusters).
    /// O(children).
    /// - Throws: ``ClusterError/noCluster(_:)`` for an id this index did not produce.
    public func children(of id: ClusterID) throws(ClusterError) -> [ClusterItem] {
        guard let row = clusterRow(id) else { throw .noCluster(id) }
        return childRows(ofClusterRow: row).map { item(row: Int(childList[$0])) }
    }

    /// The input points of a cluster, depth-first through its children in ``children(of:)``'s
    /// order, after skipping `offset` of them (whole sub-clusters are skipped while their count
    /// fits in the offset); at most `limit` points, all of them when `limit` is nil. In `.double`
    /// a page can therefore hold other points than MapLibre Native's page at the same offset;
    /// all pages together hold the same points. O(depth · children + limit).
    /// - Throws: ``ClusterError/noCluster(_:)``, ``ClusterError/negativeLimit(_:)``,
    ///   ``ClusterError/negativeOffset(_:)``.
    public func leaves(of id: ClusterID, limit: Int? = 10, offset: Int = 0) throws(ClusterError) -> [ClusteredPoint] {
        if let limit, limit < 0 { throw .negativeLimit(limit) }
        guard offset >= 0 else { throw .negativeOffset(offset) }
        guard let row = clusterRow(id) else { throw .noCluster(id) }
        let limit = limit ?? Int.max
        var result: [ClusteredPoint] = []
        if limit == 0 { return result }
        var skipped = 0
        appendLeaves(row: row, limit: limit, offset: offset, skipped: &skipped, into: &result)
        return result
    }

    private func appendLeaves(row: Int, limit: Int, offset: Int, skipped: inout Int, into result: inout [ClusteredPoint]) {
        for k in childRows(ofClusterRow: row) {
            let child = Int(childList[k])
            if child >= pointCount {
                let n = Int(itemCount[child])
                if skipped + n <= offset {
                    skipped += n
                } else {
                    appendLeaves(row: child, limit: limit, offset: offset, skipped: &skipped, into: &result)
                }
            } else if skipped < offset {
                skipped += 1
            } else if case .point(let p) = item(row: child) {
                result.append(p)
            }
            if result.count == limit { break }
        }
    }

    /// The zoom at which the cluster splits: from the zoom after the one it was formed at, go down
    /// while it has exactly one child; at most maxZoom + 1 (supercluster's
    /// `getClusterExpansionZoom`). O(depth).
    /// - Throws: ``ClusterError/noCluster(_:)`` for an id this index did not produce.
    public func expansionZoom(of id: ClusterID) throws(ClusterError) -> Int {
        guard var row = clusterRow(id), let origin = id.origin(featureCount: featureCount) else { throw .noCluster(id) }
        var zoom = origin.zoom - 1
        while zoom <= options.maxZoom {
            let children = childRows(ofClusterRow: row)
            zoom += 1
            guard children.count == 1 else { break }
            let only = Int(childList[children.lowerBound])
            guard only >= pointCount else { break }
            row = only
        }
        return zoom
    }
}
