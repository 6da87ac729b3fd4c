/// Where the GeoJSON parser puts the parts of each feature: the typed model (``FeatureListSink``)
/// or the columnar point form (``PointFeaturesBuilder``). For each feature the parser takes fresh
/// `Parts` (held in its own locals, so a finished feature is moved, not copied), calls the readers
/// for the members it meets (each reads the member's value at the parser's position), then
/// `commit`, or `discard` when the feature is skipped.
protocol FeatureSink {
    associatedtype Parts
    mutating func newParts() -> Parts
    mutating func readGeometry(into parts: inout Parts, _ parser: inout GeoJSONParser) throws(ReadFailure)
    mutating func readProperties(into parts: inout Parts, _ parser: inout GeoJSONParser) throws(ReadFailure)
    mutating func setID(_ id: FeatureID?, in parts: inout Parts)
    /// Reads a bare geometry object as the geometry of a feature with no id and no properties.
    mutating func readBareGeometry(into parts: inout Parts, _ parser: inout GeoJSONParser) throws(ReadFailure)
    mutating func commit(_ parts: consuming Parts)
    mutating func discard(_ parts: consuming Parts)
}

/// Builds `[Feature]`.
struct FeatureListSink: FeatureSink {
    var features: [Feature] = []

    func newParts() -> Feature { Feature(geometry: nil) }

    func readGeometry(into parts: inout Feature, _ parser: inout GeoJSONParser) throws(ReadFailure) {
        parts.geometry = try parser.parseGeometryValue()
    }

    func readProperties(into parts: inout Feature, _ parser: inout GeoJSONParser) throws(ReadFailure) {
        let stack = parser.s.valueStack
        let start = stack.count
        let shape = try parser.parseProperties(into: stack)
        parts.properties = JSONObject(uniqueKeys: shape.names, values: stack.popArray(from: start))
    }

    func setID(_ id: FeatureID?, in parts: inout Feature) {
        parts.id = id
    }

    func readBareGeometry(into parts: inout Feature, _ parser: inout GeoJSONParser) throws(ReadFailure) {
        parts.geometry = try parser.parseGeometryObject()
    }

    mutating func commit(_ parts: consuming Feature) {
        features.append(consume parts)
    }

    func discard(_ parts: consuming Feature) {}
}
