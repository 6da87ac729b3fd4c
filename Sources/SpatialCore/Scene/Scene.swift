import Foundation

/// A headless map scene: GeoJSON sources (clustered or not), an ordered list of style layers
/// (bottom first), registered icon images and a camera. It answers which features are drawn under
/// a point or inside a rectangle of the view, as MapLibre's `visibleFeatures(at:)` would, without
/// a renderer (`projection-and-queries.md`).
///
/// Immutable indexes, `Sendable`: build once (O(n log n) per source, plus the per-level reach
/// bounds of each layer), then move the ``camera`` and query from any thread. Each query searches
/// one k-d tree per queried layer (the source's level at the camera's zoom) with a radius that
/// bounds the layer's largest footprint there, so it costs O(log n + k) for k candidates near the
/// query, never a scan of all features.
public struct Scene: Sendable {
    /// The layers, bottom first.
    public let layers: [StyleLayer]
    /// The ids of the sources, in the order given.
    public let sourceIdentifiers: [String]
    /// Registered icon images: name → size in points (as `style.setImage`).
    public let images: [String: CGSize]
    /// The camera the queries use.
    public var camera: Camera

    let sources: [SceneSourceIndex]
    let prepared: [SceneLayer]

    /// Builds a scene from Swift values. O(n log n) per source plus the reach bounds
    /// (O(items · data-driven values) per layer and level).
    /// - Throws: ``SceneError`` for a duplicate source or layer id, a layer naming an unknown
    ///   source, bad clustering options or input (path `sources.<id>`), or an image with a
    ///   negative or non-finite size (path `images.<name>`).
    public init(
        sources: [GeoJSONSource], layers: [StyleLayer], images: [String: CGSize] = [:], camera: Camera
    ) throws(SceneError) {
        for (name, size) in images {
            let w = Double(size.width), h = Double(size.height)
            guard w.isFinite, h.isFinite, w >= 0, h >= 0 else {
                throw SceneError(path: "images.\(name)", reason: "image size \(w)x\(h) must be finite and not negative")
            }
        }
        var built: [SceneSourceIndex] = []
        var position: [String: Int] = [:]
        for s in sources {
            guard position[s.id] == nil else { throw SceneError(path: "sources.\(s.id)", reason: "duplicate source id") }
            position[s.id] = built.count
            built.append(try SceneSourceIndex(source: s, path: "sources.\(s.id)"))
        }
        var seen = Set<String>()
        var prepared: [SceneLayer] = []
        for (i, l) in layers.enumerated() {
            guard seen.insert(l.id).inserted else {
                throw SceneError(path: "layers[\(i)].id", reason: "duplicate layer id \"\(l.id)\"")
            }
            var sourceIndex = -1
            if let name = l.source {
                guard let k = position[name] else {
                    throw SceneError(path: "layers[\(i)].source", reason: "unknown source \"\(name)\"")
                }
                sourceIndex = k
            }
            guard !l.minZoom.isNaN else { throw SceneError(path: "layers[\(i)].minzoom", reason: "must be a number") }
            guard !l.maxZoom.isNaN else { throw SceneError(path: "layers[\(i)].maxzoom", reason: "must be a number") }
            let values = LayerValues(l)
            var reach: [Double] = []
            if sourceIndex >= 0, l.kind == .circle || l.kind == .symbol {
                let index = built[sourceIndex]
                for level in index.levelSlots.indices {
                    reach.append(SceneLayer.reach(of: l, values: values, index: index, level: level, images: images))
                }
            }
            prepared.append(SceneLayer(layer: l, source: sourceIndex, values: values, reach: reach))
        }
        self.layers = layers
        self.sourceIdentifiers = sources.map(\.id)
        self.images = images
        self.camera = camera
        self.sources = built
        self.prepared = prepared
    }

    /// The cluster index of a clustered source (for `children`, `leaves`, `expansionZoom`), or
    /// `nil` for an unknown or unclustered source. O(sources).
    public func clusterIndex(forSource id: String) -> ClusterIndex? {
        sources.first { $0.id == id }?.clusterIndex
    }
}

/// One answer of a scene query: the feature, the layer that draws it and its source.
public struct VisibleFeature: Hashable, Sendable {
    /// The feature as drawn: an input feature with its original id and properties, or a cluster
    /// (id = `cluster_id`; properties `cluster`, `cluster_id`, `point_count`,
    /// `point_count_abbreviated` and the cluster properties) with a point geometry at its centre.
    public let feature: Feature
    /// The drawn point (longitude wrapped into −180 ..< 180). For a feature drawn at several
    /// positions (a MultiPoint, a line's vertices): the topmost one the query touches, or for
    /// `nearestFeatures` the nearest.
    public let coordinate: Coordinate
    /// The id of the layer that draws it.
    public let layerIdentifier: String
    /// The id of the layer's source.
    public let sourceIdentifier: String
    /// The cluster id when the feature is a cluster.
    public let clusterID: ClusterID?
    /// The distance in points from the query to the footprint (0 when the query touches it).
    public let distance: Double

    /// The feature's properties. O(1).
    @inlinable public var properties: JSONObject { feature.properties }

    /// The haversine ground distance in metres from `coordinate` to the feature's point. O(1).
    public func groundDistance(from coordinate: Coordinate) -> Double {
        coordinate.distance(to: self.coordinate)
    }
}
