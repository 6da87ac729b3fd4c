/// The kind of a style layer. Only `circle` and `symbol` layers have footprints; every other
/// declared type is kept and never hit.
public enum StyleLayerKind: Hashable, Sendable {
    /// A `circle` layer: a disc of `circle-radius + circle-stroke-width` per drawn position.
    case circle
    /// A `symbol` layer: an icon box and/or a text box per point.
    case symbol
    /// Any other style layer type (`fill`, `line`, `heatmap`, …), accepted and never hit.
    case other(String)

    /// The kind named by a style `type` string. O(1).
    public init(type: String) {
        switch type {
        case "circle": self = .circle
        case "symbol": self = .symbol
        default: self = .other(type)
        }
    }

    /// The style `type` string. O(1).
    public var typeName: String {
        switch self {
        case .circle: "circle"
        case .symbol: "symbol"
        case .other(let t): t
        }
    }
}

/// One layer of a scene, as a MapLibre style declares it: what it draws (`kind`), from which
/// source, which features (`filter`), at which zooms, and the paint/layout values that decide each
/// feature's footprint.
///
/// Paint and layout values are parsed ``Expression``s (constants, expressions or legacy functions
/// converted by ``Expression/init(styleValue:interpolatable:)``), keyed by their style names
/// (`circle-radius`, `icon-size`, …); names the scene does not use are kept and ignored.
public struct StyleLayer: Hashable, Sendable {
    /// The layer id (`styleLayerIdentifiers` select layers by it).
    public var id: String
    /// What the layer draws.
    public var kind: StyleLayerKind
    /// The id of the source the layer draws from (`nil` for source-less types such as `background`).
    public var source: String?
    /// Which features the layer draws (`nil`: all). Evaluated at the camera's zoom.
    public var filter: Expression?
    /// The layer shows when `minZoom ≤ zoom < maxZoom`.
    public var minZoom: Double
    /// The layer shows when `minZoom ≤ zoom < maxZoom`. Unset, it is `+∞`: the layer shows up to
    /// the camera's highest zoom, 24 included (MapLibre's unset `maxzoom`).
    public var maxZoom: Double
    /// `visibility: none` sets this to false: nothing of the layer is hit.
    public var isVisible: Bool
    /// Paint values by style name.
    public var paint: [String: Expression]
    /// Layout values by style name (`visibility` is ``isVisible``).
    public var layout: [String: Expression]

    /// A layer from Swift values. O(1).
    public init(
        id: String, kind: StyleLayerKind, source: String?, filter: Expression? = nil,
        minZoom: Double = 0, maxZoom: Double = .infinity, isVisible: Bool = true,
        paint: [String: Expression] = [:], layout: [String: Expression] = [:]
    ) {
        self.id = id
        self.kind = kind
        self.source = source
        self.filter = filter
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.isVisible = isVisible
        self.paint = paint
        self.layout = layout
    }

    /// Whether the layer is drawn at `zoom` (visible and `minZoom ≤ zoom < maxZoom`). O(1).
    @inlinable public func isShown(atZoom zoom: Double) -> Bool {
        isVisible && minZoom <= zoom && zoom < maxZoom
    }

    /// The value of a paint or layout property (paint first), or `nil` when unset. O(1).
    public func value(_ name: String) -> Expression? {
        paint[name] ?? layout[name]
    }
}

/// A GeoJSON source of a scene: features, and optionally MapLibre clustering.
public struct GeoJSONSource: Hashable, Sendable {
    /// The source id that layers name.
    public var id: String
    /// The features, in source order (the order they are drawn in when not clustered).
    public var features: [Feature]
    /// Whether the source clusters its points (`cluster: true`).
    public var isClustered: Bool
    /// The clustering options (`clusterRadius`, `clusterMaxZoom`, `clusterMinPoints`, `maxzoom`).
    public var clusterOptions: MapLibreOptions
    /// The parsed `clusterProperties`.
    public var clusterProperties: ClusterPropertyExpressions

    /// A source from Swift values. O(1).
    public init(
        id: String, features: [Feature], isClustered: Bool = false, clusterOptions: MapLibreOptions = MapLibreOptions(),
        clusterProperties: ClusterPropertyExpressions = ClusterPropertyExpressions()
    ) {
        self.id = id
        self.features = features
        self.isClustered = isClustered
        self.clusterOptions = clusterOptions
        self.clusterProperties = clusterProperties
    }

    /// Sources are equal when their ids, options and features are. O(features).
    public static func == (lhs: GeoJSONSource, rhs: GeoJSONSource) -> Bool {
        lhs.id == rhs.id && lhs.isClustered == rhs.isClustered && lhs.clusterOptions == rhs.clusterOptions
            && lhs.clusterProperties == rhs.clusterProperties && lhs.features == rhs.features
    }

    /// Hashes the id and options. O(1).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(isClustered)
        hasher.combine(features.count)
    }
}

/// Why a scene could not be built: the JSON path (or Swift location) of the bad value and why.
public struct SceneError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where: a style JSON path such as `layers[3].paint.circle-radius`, or `sources.hydrants`.
    public var path: String
    /// What is wrong, in words.
    public var reason: String

    /// An error at `path`. O(1).
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `path: reason`. O(1).
    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}
