/// Where the GeoJSON parser puts the parts of each feature: the typed model (``FeatureListSink``)
/// or the columnar point form (``PointFeaturesBuilder``). The parser calls `beginFeature`, then
/// the readers for the members it meets (each reads the member's value at the parser's position),
/// then `commitFeature`, or `discardFeature` when the feature is skipped.
protocol FeatureSink {
    mutating func beginFeature()
    mutating func readGeometry(_ parser: inout GeoJSONParser) throws(ReadFailure)
    mutating func readProperties(_ parser: inout GeoJSONParser) throws(ReadFailure)
    mutating func setID(_ id: FeatureID?)
    /// Reads a bare geometry object as the geometry of a feature with no id and no properties.
    mutating func readBareGeometry(_ parser: inout GeoJSONParser) throws(ReadFailure)
    mutating func commitFeature(_ parser: inout GeoJSONParser) throws(ReadFailure)
    mutating func discardFeature()
}

/// Builds `[Feature]`.
struct FeatureListSink: FeatureSink {
    var features: [Feature] = []
    /// The feature being read.
    private var current = Feature(geometry: nil)

    mutating func beginFeature() {
        current = Feature(geometry: nil)
    }

    mutating func readGeometry(_ parser: inout GeoJSONParser) throws(ReadFailure) {
        current.geometry = try parser.parseGeometryValue()
    }

    mutating func readProperties(_ parser: inout GeoJSONParser) throws(ReadFailure) {
        var values: [JSONValue] = []
        values.reserveCapacity(parser.shapes.last.count)
        let shape = try parser.parseProperties(into: &values)
        current.properties = JSONObject(uniqueKeys: shape.names, values: values)
    }

    mutating func setID(_ id: FeatureID?) {
        current.id = id
    }

    mutating func readBareGeometry(_ parser: inout GeoJSONParser) throws(ReadFailure) {
        current.geometry = try parser.parseGeometryObject()
    }

    mutating func commitFeature(_ parser: inout GeoJSONParser) throws(ReadFailure) {
        features.append(current)
    }

    mutating func discardFeature() {}
}
