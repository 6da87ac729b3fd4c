/// One feature of a ``ClusterTile``: an item with integer tile coordinates.
public struct ClusterTileFeature: Hashable, Sendable {
    /// The item (cluster or input point).
    public let item: ClusterItem
    /// The position in tile units: `round(extent · (p · 2^z − tileOrigin))`, rounded as
    /// JavaScript's `Math.round` (a half goes up), as supercluster's `getTile` does in both
    /// precisions (MapLibre Native's port rounds a half away from zero: −0.5 gives −1 there, 0
    /// here); outside 0 … extent in the padding and for the wrapped copies. With an extent (or
    /// radius) so large that this passes ±2^62, it is clamped there.
    public let x: Int
    /// See ``x``.
    public let y: Int

    /// The tile feature id: the cluster id, else the input index with `generateId`, else the
    /// feature's own id. O(1).
    public var id: FeatureID? {
        switch item {
        case .cluster(let c): .number(Double(c.id.rawValue))
        case .point(let p): p.id
        }
    }

    /// The tile feature's tags: the cluster's properties, or the point's properties. O(properties).
    public var tags: JSONObject {
        switch item {
        case .cluster(let c): c.properties
        case .point(let p): p.properties
        }
    }
}

/// The items of one tile, as supercluster's `getTile` gives them.
public struct ClusterTile: Hashable, Sendable {
    /// The features in order: the tile's own, then the wrapped copies.
    public let features: [ClusterTileFeature]
}

extension ClusterIndex {
    /// The items of level z inside tile (x, y), padded by radius / extent on each side, with the
    /// copies wrapped across the antimeridian for x = 0 and x = 2^z − 1; `nil` for an empty tile
    /// (or a tile outside the zoom's grid). O(√n + k).
    public func tile(z: Int, x: Int, y: Int) -> ClusterTile? {
        guard z >= 0, z <= 62 else { return nil }
        let z2 = Double(sign: .plus, exponent: z, significand: 1)
        guard x >= 0, y >= 0, Double(x) < z2, Double(y) < z2 else { return nil }
        let level = levelZoom(Double(z))
        let p = options.radius / options.extent
        let top = (Double(y) - p) / z2
        let bottom = (Double(y) + 1 + p) / z2
        var features: [ClusterTileFeature] = []
        func add(_ minX: Double, _ maxX: Double, originX: Double) {
            let visit: (Int) -> Void = { row in
                let item = self.item(row: row)
                var px = self.itemX[row], py = self.itemY[row]
                if row < self.pointCount {
                    // Points use their unrounded projection, as supercluster does.
                    px = UnitMercator.x(longitude: UnitMercator.wrap(longitude: self.pointLongitude[row]))
                    py = UnitMercator.y(latitude: self.pointLatitude[row])
                }
                let tx = UnitMercator.jsRound(self.options.extent * (px * z2 - originX))
                let ty = UnitMercator.jsRound(self.options.extent * (py * z2 - Double(y)))
                features.append(ClusterTileFeature(item: item, x: Self.tileUnits(tx), y: Self.tileUnits(ty)))
            }
            forEachRow(level: level, minX: minX, minY: top, maxX: maxX, maxY: bottom, visit)
        }
        add((Double(x) - p) / z2, (Double(x) + 1 + p) / z2, originX: Double(x))
        if x == 0 { add(1 - p / z2, 1, originX: z2) }
        if Double(x) == z2 - 1 { add(0, p / z2, originX: -1) }
        return features.isEmpty ? nil : ClusterTile(features: features)
    }

    /// A rounded tile position as an `Int`, clamped to ±2^62 (an extent or radius near
    /// `Double.greatestFiniteMagnitude` is valid, and would overflow the conversion). O(1).
    static func tileUnits(_ v: Double) -> Int {
        let limit = Double(1 << 62)
        return Int(Swift.min(Swift.max(v, -limit), limit))
    }
}
