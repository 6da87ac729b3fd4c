/// A hierarchical point clustering (supercluster's algorithm): for every zoom from `maxZoom` down to
/// `minZoom`, the items of the zoom above are greedily merged with their not-yet-assigned
/// neighbours within `radius / (extent · 2^z)` into count-weighted clusters.
///
/// Immutable and `Sendable`: build once, query from any thread.
///
/// Storage is struct-of-arrays: every item (input point or cluster) is a row of a few
/// `ContiguousArray`s; each zoom level is a static k-d tree over the ids of its items; a cluster's
/// children are a slice of one shared array. No per-item objects.
public struct ClusterIndex: Sendable {
    /// The largest number of input features (cluster ids must fit in 31 bits).
    public static let maximumFeatureCount = (Int(Int32.max) - 31) / 33

    /// The options the index was built with.
    public let options: ClusterOptions
    /// The cluster properties the index reduces.
    public let clusterProperties: [ClusterProperty]
    /// The number of input features, including those skipped for a null geometry (`N` in ids).
    public let featureCount: Int
    /// The number of input points clustered (features with a valid point geometry).
    public let pointCount: Int
    /// The indices of the features skipped for an invalid coordinate (only with
    /// ``InvalidCoordinatePolicy/skip``; features with a null geometry are not listed).
    public let skippedFeatureIndices: [Int]

    // Items: rows 0 ..< pointCount are the points in input order, then the clusters in the order
    // they were formed (zoom maxZoom first).
    let itemX: ContiguousArray<Double>
    let itemY: ContiguousArray<Double>
    let itemCount: ContiguousArray<Int32>
    /// Points: the input feature index; clusters: the cluster id.
    let itemRef: ContiguousArray<Int32>
    /// The row of the cluster that absorbed the item, or −1.
    let itemParent: ContiguousArray<Int32>
    /// The levels an item is present at: `itemLowLevel[row] … itemHighLevel[row]`.
    let itemLowLevel: ContiguousArray<Int8>
    let itemHighLevel: ContiguousArray<Int8>
    /// Per cluster (row − pointCount): the start of its children in ``childList``; one extra end.
    let childStart: ContiguousArray<Int32>
    /// The children of all clusters, each cluster's in its k-d neighbour order.
    let childList: ContiguousArray<Int32>
    /// Per zoom z (index z − minZoom): the first cluster row formed at z (rows of zoom z end where
    /// those of zoom z − 1 start, or at the end for minZoom).
    let zoomClusterStart: [Int]
    /// Per level z (index z − minZoom, z in minZoom … maxZoom + 1): its k-d tree.
    let trees: LevelTrees
    /// Typed property values, `numericStride` per item row (NaN = null).
    let numericValues: ContiguousArray<Double>
    /// Custom (JSON) property values, `customStride` per item row.
    let customValues: ContiguousArray<JSONValue>
    /// Expression-driven (`clusterProperties`) values, one per expression property per item row.
    let expressionValues: ContiguousArray<JSONValue>
    /// The parsed `clusterProperties` the index reduces (empty when none).
    public let expressionProperties: ClusterPropertyExpressions
    let numericProperties: [(name: String, aggregation: ClusterAggregation)]
    let customProperties: [(name: String, reducer: ClusterReducer)]

    // Input, per point row: the original coordinate; per feature: id and properties.
    let pointLongitude: ContiguousArray<Double>
    let pointLatitude: ContiguousArray<Double>
    /// Empty when no feature has properties (a build from bare coordinates): see
    /// ``properties(ofFeature:)``.
    let featureProperties: ContiguousArray<JSONObject>
    let featureIDs: ContiguousArray<FeatureID?>

    /// The properties of input feature `f`: an empty object when the index was built without
    /// any (it then stores none, 16 bytes per point less). O(1).
    func properties(ofFeature f: Int) -> JSONObject {
        featureProperties.isEmpty ? JSONObject() : featureProperties[f]
    }
}

/// The per-level trees. Both precisions keep their coordinates as `Float`: `.float32` searches
/// those, as supercluster does; `.double` searches them with a box widened by
/// ``ClusterIndex/treeMargin`` and lets the rows' `Double` coordinates decide, so its trees take
/// half the memory of `Double` ones (cities500: 36.7 → 32.8 MiB added by the build; see
/// PERFORMANCE.md, forty-second session).
enum LevelTrees: Sendable {
    /// `.float32`: one exact kdbush tree per level (index z − minZoom).
    case float([KDTree<Float>])
    /// `.double`: snapshot trees, each shared by consecutive levels, and per level the snapshots
    /// to search; an item found there belongs to level z when it is present at z.
    case double(segments: [KDTree<Float>], levels: [[Int32]])
}

extension ClusterIndex {
    /// Clusters point features. A feature with a null geometry is skipped but keeps its number.
    ///
    /// O(n log n) per zoom level in the worst case; levels where nothing merges cost a neighbour
    /// search per item.
    /// - Throws: ``ClusterError/unsupportedGeometry(featureIndex:type:)`` for a non-point geometry,
    ///   ``ClusterError/invalidCoordinate(featureIndex:longitude:latitude:)`` for NaN, infinity or
    ///   a latitude outside −90 … 90. Longitudes outside ±180 are wrapped.
    ///
    /// Cluster properties come as typed aggregations or closures (`properties`) and/or as parsed
    /// Mapbox `clusterProperties` expressions (`clusterProperties`); the cluster's property object
    /// lists them in that order.
    public init(
        features: [Feature], options: ClusterOptions = .default, properties: [ClusterProperty] = [],
        clusterProperties: ClusterPropertyExpressions = ClusterPropertyExpressions(),
        invalidCoordinates: InvalidCoordinatePolicy = .reject
    ) throws(ClusterError) {
        guard features.count <= Self.maximumFeatureCount else { throw .tooManyFeatures(features.count) }
        var input = ClusterInput(featureCount: features.count, policy: invalidCoordinates)
        var props = ContiguousArray<JSONObject>()
        props.reserveCapacity(features.count)
        var ids = ContiguousArray<FeatureID?>()
        var anyID = false
        ids.reserveCapacity(features.count)
        for (i, f) in features.enumerated() {
            props.append(f.properties)
            ids.append(f.id)
            if f.id != nil { anyID = true }
            guard let g = f.geometry else { continue }
            guard case .point(let p) = g else { throw .unsupportedGeometry(featureIndex: i, type: g.typeName) }
            try input.add(feature: i, longitude: p.longitude, latitude: p.latitude)
        }
        self.init(
            input: consume input, properties: props, ids: anyID ? ids : [], options: options, clusterProperties: properties,
            expressions: clusterProperties)
    }

    /// Clusters plain coordinates, with one property object per coordinate (or none at all).
    ///
    /// Same cost and checks as ``init(features:options:properties:clusterProperties:invalidCoordinates:)``; point `i` is feature `i`.
    /// - Throws: ``ClusterError/propertyCountMismatch(coordinates:properties:)`` when `properties`
    ///   is neither empty nor as long as `coordinates`, and the coordinate errors.
    public init(
        coordinates: some Collection<Coordinate>, properties: [JSONObject] = [],
        options: ClusterOptions = .default, clusterProperties: [ClusterProperty] = [],
        expressions: ClusterPropertyExpressions = ClusterPropertyExpressions(),
        invalidCoordinates: InvalidCoordinatePolicy = .reject
    ) throws(ClusterError) {
        guard coordinates.count <= Self.maximumFeatureCount else { throw .tooManyFeatures(coordinates.count) }
        guard properties.isEmpty || properties.count == coordinates.count else {
            throw .propertyCountMismatch(coordinates: coordinates.count, properties: properties.count)
        }
        var input = ClusterInput(featureCount: coordinates.count, policy: invalidCoordinates)
        // A contiguous collection is read through one buffer: the generic iteration costs a
        // witness call (and tuple metadata for `enumerated()`) per element.
        let read: Result<Void, ClusterError>? = coordinates.withContiguousStorageIfAvailable { buffer in
            do throws(ClusterError) {
                // All valid (the usual case): one check pass and the columns written in place.
                if input.addAllIfValid(buffer) { return .success(()) }
                for i in buffer.indices { try input.add(feature: i, longitude: buffer[i].longitude, latitude: buffer[i].latitude) }
                return .success(())
            } catch { return .failure(error) }
        }
        switch read {
        case .success?: break
        case .failure(let error)?: throw error
        case nil:
            var i = 0
            for c in coordinates {
                try input.add(feature: i, longitude: c.longitude, latitude: c.latitude)
                i += 1
            }
        }
        // Bare coordinates keep no property objects at all (an empty one is 16 bytes a point).
        let props = ContiguousArray(properties)
        self.init(
            input: consume input, properties: props, ids: [], options: options, clusterProperties: clusterProperties,
            expressions: expressions)
    }
}

/// What building does with a NaN or infinite coordinate or a latitude outside −90 … 90.
public enum InvalidCoordinatePolicy: Sendable, Hashable {
    /// Throw ``ClusterError/invalidCoordinate(featureIndex:longitude:latitude:)`` (the default).
    case reject
    /// Skip the feature (it keeps its number) and list it in ``ClusterIndex/skippedFeatureIndices``.
    case skip
}

/// Validated input points before clustering.
struct ClusterInput {
    let featureCount: Int
    let policy: InvalidCoordinatePolicy
    var skipped: [Int] = []
    var feature = ContiguousArray<Int32>()
    var longitude = ContiguousArray<Double>()
    var latitude = ContiguousArray<Double>()

    init(featureCount: Int, policy: InvalidCoordinatePolicy) {
        self.featureCount = featureCount
        self.policy = policy
    }

    /// Whether a point can be clustered: finite, latitude within −90 … 90. O(1).
    @inline(__always) static func isValid(longitude lng: Double, latitude lat: Double) -> Bool {
        lng.isFinite && lat.isFinite && lat >= -90 && lat <= 90
    }

    /// Adds point `index` as feature `index`; an invalid one is skipped or thrown as the policy
    /// says. O(1) amortized.
    mutating func add(feature index: Int, longitude lng: Double, latitude lat: Double) throws(ClusterError) {
        guard Self.isValid(longitude: lng, latitude: lat) else {
            if policy == .skip {
                skipped.append(index)
                return
            }
            throw .invalidCoordinate(featureIndex: index, longitude: lng, latitude: lat)
        }
        // Room for every feature at the first point added this way (`addAllIfValid` writes its
        // own exact-size columns, so nothing is reserved up front).
        if feature.capacity == 0 {
            feature.reserveCapacity(featureCount)
            longitude.reserveCapacity(featureCount)
            latitude.reserveCapacity(featureCount)
        }
        feature.append(Int32(index))
        longitude.append(lng)
        latitude.append(lat)
    }

    /// Adds every point of `points` (point i as feature i) into an empty input when all of them
    /// are valid, written in place; returns false, adding nothing, when one is not (the caller
    /// then adds them one by one, so that the policy applies). O(n).
    mutating func addAllIfValid(_ points: UnsafeBufferPointer<Coordinate>) -> Bool {
        assert(feature.isEmpty, "points already added")
        for c in points where !Self.isValid(longitude: c.longitude, latitude: c.latitude) { return false }
        let n = points.count
        feature = ContiguousArray(filling: n) { feature in
            for i in 0 ..< n { feature[i] = Int32(truncatingIfNeeded: i) }
        }
        longitude = ContiguousArray(filling: n) { longitude in
            for i in 0 ..< n { longitude[i] = points[i].longitude }
        }
        latitude = ContiguousArray(filling: n) { latitude in
            for i in 0 ..< n { latitude[i] = points[i].latitude }
        }
        return true
    }
}
