/// The drawable items of one source, per zoom level, indexed for screen-space queries.
///
/// An item is a drawn point: an unclustered feature's position (each position of a MultiPoint),
/// or a cluster-index item (cluster or point). Items are stored once (struct-of-arrays, by slot)
/// and each level lists its items in draw order with a k-d tree in unit Mercator whose ids are
/// the draw ranks, so a query finds candidates in O(log n + k) and orders them by rank.
struct SceneSourceIndex: Sendable {
    /// The source id.
    let id: String
    /// The cluster index of a clustered source.
    let clusterIndex: ClusterIndex?
    /// Per slot: position in unit Mercator.
    let x: ContiguousArray<Double>
    let y: ContiguousArray<Double>
    /// Per slot: the feature as results return it (id, point geometry, properties).
    let features: ContiguousArray<Feature>
    /// Per slot: the coordinate returned (longitude wrapped).
    let coordinates: ContiguousArray<Coordinate>
    /// Per slot: the geometry type name the expressions see.
    let geometryTypes: ContiguousArray<String>
    /// Per slot: the cluster id, or −1 for a point.
    let clusterIDs: ContiguousArray<Int>
    /// Per slot: the feature it draws. The positions of one unclustered feature (a MultiPoint's
    /// points, a line's vertices) are consecutive slots with the same value, so a query reports
    /// the feature once per layer; every other slot has a value of its own.
    let featureOfSlot: ContiguousArray<Int32>
    /// The zoom of the first level.
    let firstLevel: Int
    /// Per level: slots in draw order (bottom first).
    let levelSlots: [ContiguousArray<Int32>]
    /// Per level: k-d tree over the level's items, id = draw rank.
    let levelTrees: [KDTree<Double>]

    /// The level used at a fractional zoom: floored and clamped to the source's levels. O(1).
    func level(atZoom zoom: Double) -> Int {
        let f = zoom.rounded(.down)
        if !(f > Double(firstLevel)) { return 0 }
        return min(Int(f) - firstLevel, levelSlots.count - 1)
    }

    /// The zoom interval a level serves (for bounding zoom-dependent values). O(1).
    func zoomInterval(ofLevel level: Int) -> ClosedRange<Double> {
        let lo = level == 0 ? 0 : Double(firstLevel + level)
        let hi = level == levelSlots.count - 1 ? 24 : Double(firstLevel + level + 1)
        return lo...max(lo, hi)
    }

    /// Indexes a source: clusters it when asked. O(n log n).
    init(source: GeoJSONSource, path: String) throws(SceneError) {
        id = source.id
        var x = ContiguousArray<Double>(), y = ContiguousArray<Double>()
        var features = ContiguousArray<Feature>(), coords = ContiguousArray<Coordinate>()
        var types = ContiguousArray<String>(), clusterIDs = ContiguousArray<Int>()
        var featureOfSlot = ContiguousArray<Int32>()
        var levelSlots: [ContiguousArray<Int32>] = []
        func add(_ f: Feature, _ c: Coordinate, _ m: SIMD2<Double>, type: String, cluster: Int, feature: Int? = nil) {
            featureOfSlot.append(Int32(feature ?? x.count))
            x.append(m.x)
            y.append(m.y)
            features.append(f)
            coords.append(c.wrapped)
            types.append(type)
            clusterIDs.append(cluster)
        }
        if source.isClustered {
            let options: ClusterOptions
            do { options = try source.clusterOptions.clusterOptions() } catch {
                throw SceneError(path: path, reason: error.description)
            }
            let index: ClusterIndex
            do {
                index = try ClusterIndex(
                    features: source.features, options: options, clusterProperties: source.clusterProperties)
            } catch {
                throw SceneError(path: path + ".data", reason: error.description)
            }
            clusterIndex = index
            firstLevel = options.minZoom
            var slotOfRow = [Int32](repeating: -1, count: index.itemX.count)
            for z in options.minZoom...(options.maxZoom + 1) {
                var slots = ContiguousArray<Int32>()
                index.forEachRow(level: z, minX: -1, minY: -1, maxX: 2, maxY: 2) { row in
                    if slotOfRow[row] < 0 {
                        slotOfRow[row] = Int32(x.count)
                        let item = index.item(row: row)
                        switch item {
                        case .point(let p):
                            // Returned with its longitude wrapped, as every coordinate a scene returns.
                            let c = p.coordinate
                            let w = c.wrapped
                            add(Feature(id: p.id, geometry: .point(Position(longitude: w.longitude, latitude: w.latitude)),
                                        properties: p.properties),
                                c, p.mercator, type: "Point", cluster: -1)
                        case .cluster(let c):
                            let w = c.coordinate.wrapped
                            add(Feature(id: .number(Double(c.id.rawValue)),
                                        geometry: .point(Position(longitude: w.longitude, latitude: w.latitude)),
                                        properties: c.properties),
                                w, c.mercator, type: "Point", cluster: c.id.rawValue)
                        }
                    }
                    slots.append(slotOfRow[row])
                }
                levelSlots.append(slots)
            }
        } else {
            clusterIndex = nil
            firstLevel = 0
            var slots = ContiguousArray<Int32>()
            for (i, f) in source.features.enumerated() {
                guard let g = f.geometry else { continue }
                for p in SceneSourceIndex.positions(of: g) {
                    guard p.longitude.isFinite, p.latitude.isFinite, p.latitude >= -90, p.latitude <= 90 else {
                        throw SceneError(
                            path: path + ".data.features[\(i)]",
                            reason: "invalid coordinate (\(p.longitude), \(p.latitude))")
                    }
                    slots.append(Int32(x.count))
                    let c = p.coordinate
                    // A Point is returned with its longitude wrapped, as every coordinate a scene
                    // returns (other geometries as given: wrapping each position would tear a
                    // line across the antimeridian).
                    var drawn = f
                    if case .point(var q) = g, q.longitude != c.wrapped.longitude {
                        q.longitude = c.wrapped.longitude
                        drawn.geometry = .point(q)
                    }
                    add(drawn, c, WebMercator.projectUnit(c.wrapped), type: g.typeName, cluster: -1, feature: i)
                }
            }
            levelSlots.append(slots)
        }
        var trees: [KDTree<Double>] = []
        for slots in levelSlots {
            let points = slots.map { SIMD2(x[Int($0)], y[Int($0)]) }
            do { trees.append(try KDTree<Double>(points, nodeSize: 16)) } catch {
                throw SceneError(path: path, reason: "cannot index the source: \(error)")
            }
        }
        self.x = x
        self.y = y
        self.features = features
        self.coordinates = coords
        self.geometryTypes = types
        self.clusterIDs = clusterIDs
        self.featureOfSlot = featureOfSlot
        self.levelSlots = levelSlots
        self.levelTrees = trees
    }

    /// The drawn positions of a geometry: every position of points and multipoints; the vertices
    /// of lines and polygons (where a circle layer draws them). O(positions).
    static func positions(of g: Geometry) -> [Position] {
        switch g {
        case .point(let p): [p]
        case .multiPoint(let ps), .lineString(let ps): ps
        case .multiLineString(let ls), .polygon(let ls): ls.flatMap { $0 }
        case .multiPolygon(let ps): ps.flatMap { $0.flatMap { $0 } }
        case .geometryCollection(let gs): gs.flatMap(positions(of:))
        }
    }
}
