/// How positions are stored and searched while clustering.
public enum ClusterPrecision: Sendable, Hashable {
    /// Coordinates and neighbour searches in `Double`, as MapLibre Native does (the default): the
    /// same clusters as its engine. Where the order of a seed's neighbours changes the result
    /// (`minPoints` ≥ 4, order-dependent reduces such as `concat`), they are taken in the order
    /// its k-d tree reports them; elsewhere sums (centres, `+`) may differ from it by rounding.
    case double
    /// Compatibility with supercluster 8 (GL JS): a point's unit-Mercator position is rounded to
    /// `Float` when stored, every level's k-d tree searches `Float` positions, and cluster centres
    /// are computed from the stored `Double` positions of their members. Reproduces what GL JS shows.
    case float32
}

/// A rejected clustering option: which one, and the value given.
public enum ClusterOptionsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `minZoom` is negative or above `maxZoom`.
    case minZoomOutOfRange(Int, maxZoom: Int)
    /// `maxZoom` is above 30 (cluster ids hold 5 bits of zoom) or negative.
    case maxZoomOutOfRange(Int)
    /// `minPoints` is below 1.
    case minPointsOutOfRange(Int)
    /// `radius` is not a finite number above 0.
    case invalidRadius(Double)
    /// `extent` is not a finite number above 0.
    case invalidExtent(Double)
    /// `nodeSize` is outside 2 … 65535.
    case nodeSizeOutOfRange(Int)
    /// A MapLibre `clusterMaxZoom` at or above the source `maxzoom`: clusters would never split.
    case clusterMaxZoomNotBelowSourceMaxZoom(clusterMaxZoom: Int, maxzoom: Int)

    /// A sentence naming the option and the value. O(1).
    public var description: String {
        switch self {
        case .minZoomOutOfRange(let v, let maxZoom): "minZoom \(v) is outside 0 … maxZoom (\(maxZoom))"
        case .maxZoomOutOfRange(let v): "maxZoom \(v) is outside 0 … 30"
        case .minPointsOutOfRange(let v): "minPoints \(v) is below 1"
        case .invalidRadius(let v): "radius \(v) is not a finite number above 0"
        case .invalidExtent(let v): "extent \(v) is not a finite number above 0"
        case .nodeSizeOutOfRange(let v): "nodeSize \(v) is outside 2 … 65535"
        case .clusterMaxZoomNotBelowSourceMaxZoom(let c, let m):
            "clusterMaxZoom \(c) is not below the source maxzoom \(m): clusters would never split"
        }
    }
}

/// Validated options of a ``ClusterIndex`` (supercluster's options, same defaults).
///
/// Every stored property is checked by the initialiser, so a value of this type is always usable.
public struct ClusterOptions: Sendable, Hashable {
    /// The lowest zoom that gets its own level of clusters (0 … maxZoom).
    public let minZoom: Int
    /// The highest zoom that clusters points (minZoom … 30); level `maxZoom + 1` holds the points.
    public let maxZoom: Int
    /// The fewest points that form a cluster (≥ 1).
    public let minPoints: Int
    /// The cluster radius in units of ``extent`` (> 0, finite).
    public let radius: Double
    /// The tile extent that ``radius`` is measured in (> 0, finite).
    public let extent: Double
    /// The leaf size of each level's k-d tree (2 … 65535). It shapes the order in which a search
    /// reports neighbours, which `.float32` follows always and `.double` where the order changes
    /// the result; `.double` caps the leaves of the trees its queries search at 64.
    public let nodeSize: Int
    /// When true, a point's tile id is its input index.
    public let generateId: Bool
    /// How positions are stored and searched.
    public let precision: ClusterPrecision
    /// Whether a build (either precision) runs the isolation pre-pass: when it pays (`nil`, the
    /// default; see `IsolationBound.pays`), always or never (tests force both; the result is the
    /// same).
    var isolationPrePass: Bool? = nil
    /// From how many items a build splits a grid pass or the projection over the two cores
    /// (`nil`: the library's `ParallelPair.threshold` for grid passes,
    /// `ClusterBuilder.projectionParallelFrom` for the projection). Tests set 0 to run the
    /// two-core paths on small inputs; the result is the same either way.
    var parallelThreshold: Int? = nil
    /// Below what sampled number of items within r of an item (itself included) a `.double` level
    /// takes its neighbours from one sweep's pair lists instead of searching (`nil`: 3, or 6 on
    /// levels larger than the core's cache; see `ClusterBuilder.neighbourSource`). Tests set
    /// `.infinity` (pair lists wherever their size limit allows) or 0 (searches only); the
    /// result is the same.
    var pairsBelow: Double? = nil
    /// From how many items a `.double` build takes a level to be larger than the core's own
    /// cache (`nil`: `LevelGrid.prefetchFrom`): its loops over items at random places then ask
    /// for their loads ahead, it takes pair lists up to a denser sample (see ``pairsBelow``), and
    /// a searched level marks the items that have a neighbour before its walk. Tests set 0 to run
    /// those paths on small inputs; the result is the same either way.
    var prefetchFrom: Int? = nil
    /// Whether a `.double` level without the isolation pre-pass shares one pair sweep with the
    /// level below it (`nil`: when the build predicts both levels sparse enough for pair lists;
    /// see `ClusterBuilder.sharesSweep`). Tests force both; the result is the same either way.
    var sharedSweeps: Bool? = nil
    /// ``prefetchFrom``, or the library's `LevelGrid.prefetchFrom`. O(1).
    var prefetchThreshold: Int { prefetchFrom ?? LevelGrid.prefetchFrom }

    /// Options are equal when their public values are: the build overrides above change how the
    /// index is built, never what it holds. O(1).
    public static func == (a: ClusterOptions, b: ClusterOptions) -> Bool {
        a.minZoom == b.minZoom && a.maxZoom == b.maxZoom && a.minPoints == b.minPoints && a.radius == b.radius
            && a.extent == b.extent && a.nodeSize == b.nodeSize && a.generateId == b.generateId && a.precision == b.precision
    }

    /// Hashes the values `==` compares. O(1).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(minZoom)
        hasher.combine(maxZoom)
        hasher.combine(minPoints)
        hasher.combine(radius)
        hasher.combine(extent)
        hasher.combine(nodeSize)
        hasher.combine(generateId)
        hasher.combine(precision)
    }

    /// Options from their values; defaults are supercluster's. O(1).
    /// - Throws: ``ClusterOptionsError`` naming the first value out of range.
    public init(
        minZoom: Int = 0, maxZoom: Int = 16, minPoints: Int = 2, radius: Double = 40,
        extent: Double = 512, nodeSize: Int = 64, generateId: Bool = false,
        precision: ClusterPrecision = .double
    ) throws(ClusterOptionsError) {
        guard maxZoom >= 0, maxZoom <= 30 else { throw .maxZoomOutOfRange(maxZoom) }
        guard minZoom >= 0, minZoom <= maxZoom else { throw .minZoomOutOfRange(minZoom, maxZoom: maxZoom) }
        guard minPoints >= 1 else { throw .minPointsOutOfRange(minPoints) }
        guard radius.isFinite, radius > 0 else { throw .invalidRadius(radius) }
        guard extent.isFinite, extent > 0 else { throw .invalidExtent(extent) }
        guard nodeSize >= 2, nodeSize <= 65535 else { throw .nodeSizeOutOfRange(nodeSize) }
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.minPoints = minPoints
        self.radius = radius
        self.extent = extent
        self.nodeSize = nodeSize
        self.generateId = generateId
        self.precision = precision
    }

    /// The default options (radius 40, extent 512, zooms 0 … 16, minPoints 2, `.double`). O(1).
    public static let `default`: ClusterOptions = try! ClusterOptions()

    /// The search radius at `zoom` in unit Mercator: `radius / (extent · 2^zoom)`. O(1).
    @inlinable func searchRadius(atZoom zoom: Int) -> Double {
        radius / (extent * pow2(zoom))
    }
}

/// `2^z` as a `Double` for the zooms this module uses (0 … 31), as JavaScript's `Math.pow(2, z)`.
@inlinable func pow2(_ z: Int) -> Double {
    Double(sign: .plus, exponent: z, significand: 1)
}

/// The clustering options of a MapLibre / Mapbox GeoJSON source, mapped onto ``ClusterOptions``.
///
/// `clusterRadius` becomes `radius` (extent 512) and `clusterMaxZoom` becomes `maxZoom`.
/// A `clusterMaxZoom` at or above the source `maxzoom` is rejected: the clusters would never split
/// when the map is zoomed in, a long-standing trap of the style specification.
public struct MapLibreOptions: Sendable, Hashable {
    /// The style's `clusterRadius` (default 50).
    public var clusterRadius: Double
    /// The style's `clusterMaxZoom` (unset: one below the source `maxzoom`, so 17 by default).
    public var clusterMaxZoom: Int
    /// The style's `clusterMinPoints` (default 2).
    public var clusterMinPoints: Int
    /// The source `maxzoom` (default 18).
    public var maxzoom: Int

    /// Source options with MapLibre's defaults (50, 17, 2, 18). An unset `clusterMaxZoom` is one
    /// below `maxzoom`, as MapLibre GL JS derives it: a source with `maxzoom` 14 alone clusters up
    /// to zoom 13 (a fixed 17 would be rejected against it). O(1).
    public init(clusterRadius: Double = 50, clusterMaxZoom: Int? = nil, clusterMinPoints: Int = 2, maxzoom: Int = 18) {
        self.clusterRadius = clusterRadius
        self.clusterMaxZoom = clusterMaxZoom ?? maxzoom &- 1
        self.clusterMinPoints = clusterMinPoints
        self.maxzoom = maxzoom
    }

    /// The equivalent ``ClusterOptions``. O(1).
    /// - Throws: ``ClusterOptionsError`` for a value out of range, or
    ///   ``ClusterOptionsError/clusterMaxZoomNotBelowSourceMaxZoom(clusterMaxZoom:maxzoom:)``.
    public func clusterOptions(precision: ClusterPrecision = .double) throws(ClusterOptionsError) -> ClusterOptions {
        guard clusterMaxZoom < maxzoom else {
            throw .clusterMaxZoomNotBelowSourceMaxZoom(clusterMaxZoom: clusterMaxZoom, maxzoom: maxzoom)
        }
        return try ClusterOptions(
            maxZoom: clusterMaxZoom, minPoints: clusterMinPoints, radius: clusterRadius, extent: 512,
            precision: precision)
    }
}
