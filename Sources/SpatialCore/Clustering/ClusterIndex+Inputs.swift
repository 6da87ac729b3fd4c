extension ClusterIndex {
    /// Clusters the columnar point form that ``GeoJSON`` reading produces: coordinates straight
    /// from its contiguous buffer, null geometries skipped but kept in the numbering, feature ids
    /// and properties as read.
    ///
    /// Same cost, options and checks as ``init(features:options:properties:clusterProperties:invalidCoordinates:)``.
    /// Each point's properties object shares its member names with the table (only the values
    /// are copied).
    /// - Throws: the coordinate errors of ``ClusterError``.
    public init(
        points: PointFeatures, options: ClusterOptions = .default, properties: [ClusterProperty] = [],
        clusterProperties: ClusterPropertyExpressions = ClusterPropertyExpressions(),
        invalidCoordinates: InvalidCoordinatePolicy = .reject
    ) throws(ClusterError) {
        let n = points.count
        guard n <= Self.maximumFeatureCount else { throw .tooManyFeatures(n) }
        var input = ClusterInput(featureCount: n, policy: invalidCoordinates)
        var props = ContiguousArray<JSONObject>()
        props.reserveCapacity(n)
        var ids = ContiguousArray<FeatureID?>()
        var anyID = false
        for i in 0..<n {
            props.append(points.properties.object(at: i))
            let id = points.id(at: i)
            if id != nil { anyID = true }
            ids.append(id)
            guard points.hasGeometry(at: i) else { continue }
            let c = points.coordinates[i]
            try input.add(feature: i, longitude: c.x, latitude: c.y)
        }
        self.init(
            input: consume input, properties: props, ids: anyID ? ids : [], options: options, clusterProperties: properties,
            expressions: clusterProperties)
    }

    /// The items of a zoom level inside a geographic box; see
    /// ``clusters(west:south:east:north:zoom:)`` for the antimeridian, ≥360° and zoom rules.
    /// O(√n + k).
    public func clusters(in box: GeoBoundingBox, zoom: Double) -> [ClusterItem] {
        clusters(west: box.west, south: box.south, east: box.east, north: box.north, zoom: zoom)
    }
}
