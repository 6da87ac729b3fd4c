/// Point features in columns: the form the spatial indexes and the clustering build from.
///
/// Feature `i` (0-based, in input order) has its position in `coordinates[i]`, its id (if any)
/// in ``id(at:)`` and its properties in ``properties``, a table that stores every distinct
/// property name once and each feature's values in one flat array, so that a name is resolved to
/// a ``PropertyColumn`` once and then read per feature with no string comparison.
///
/// Only `Point` geometries (and `null`) are accepted: reading a file with any other geometry
/// fails with ``GeoJSONError/Kind-swift.enum/notAPoint`` naming the feature index and the type
/// (or, with ``GeoJSONReader/Options/skipInvalidFeatures``, skips and reports that feature), and
/// building from `[Feature]` throws ``PointFeaturesError``. A feature with a `null` geometry keeps
/// its place in the numbering: its coordinates are NaN and ``hasGeometry(at:)`` is false. (A
/// feature that the reader skips is left out of the numbering; ``report`` gives its input index.)
public struct PointFeatures: Sendable {
    /// (longitude, latitude) in degrees per feature; (NaN, NaN) where the geometry is `null`.
    /// Longitudes are as read (not wrapped); latitudes lie in −90 … 90.
    public private(set) var coordinates: ContiguousArray<SIMD2<Double>>
    /// The third value of each position (NaN where a position had none); empty when no position
    /// had one.
    public private(set) var altitudes: ContiguousArray<Double>
    /// One bit per feature, set where the geometry is `null`.
    private var nullGeometryBits: [UInt64]
    /// The number of features whose geometry is `null`.
    public private(set) var nullGeometryCount: Int
    /// The ids per feature; empty when no feature has one.
    private var ids: ContiguousArray<FeatureID?>
    /// The properties of every feature.
    public private(set) var properties: PropertyTable
    /// What the reader skipped (empty when built from `[Feature]`).
    public var report: GeoJSONReadReport

    /// The number of features. O(1).
    public var count: Int { coordinates.count }

    /// Whether feature `i` has a geometry (false for `"geometry": null`). O(1).
    public func hasGeometry(at i: Int) -> Bool {
        nullGeometryBits[i >> 6] & (1 << UInt64(i & 63)) == 0
    }

    /// The position of feature `i`, or `nil` for a null geometry. O(1).
    public func position(at i: Int) -> Position? {
        guard hasGeometry(at: i) else { return nil }
        let c = coordinates[i]
        let altitude = altitudes.isEmpty || altitudes[i].isNaN ? nil : altitudes[i]
        return Position(longitude: c.x, latitude: c.y, altitude: altitude)
    }

    /// The id of feature `i`. O(1).
    public func id(at i: Int) -> FeatureID? {
        precondition(i >= 0 && i < count, "feature index out of range")
        return ids.isEmpty ? nil : ids[i]
    }

    /// Feature `i` as a full ``Feature``. O(its properties).
    public func feature(at i: Int) -> Feature {
        Feature(id: id(at: i), geometry: position(at: i).map { .point($0) }, properties: properties.object(at: i))
    }

    /// All features in the typed model. O(n · properties).
    public var features: [Feature] { (0..<count).map(feature(at:)) }

    init(
        coordinates: ContiguousArray<SIMD2<Double>>, altitudes: ContiguousArray<Double>,
        nullGeometryBits: [UInt64], nullGeometryCount: Int, ids: ContiguousArray<FeatureID?>,
        properties: PropertyTable, report: GeoJSONReadReport
    ) {
        self.coordinates = coordinates
        self.altitudes = altitudes
        self.nullGeometryBits = nullGeometryBits
        self.nullGeometryCount = nullGeometryCount
        self.ids = ids
        self.properties = properties
        self.report = report
    }

    /// The point form of `features`. O(n · properties).
    /// - Throws: ``PointFeaturesError`` naming the first feature whose geometry is neither a
    ///   `Point` nor `nil`, or whose position is not finite or has a latitude outside −90 … 90.
    public init(_ features: [Feature]) throws(PointFeaturesError) {
        var builder = PointFeaturesBuilder()
        var keys = KeyTable()
        var shapes = ShapeTable()
        var lastNames: [String] = []
        var ids: [Int32] = []
        builder.reserve(features.count)
        for (index, feature) in features.enumerated() {
            var parts = builder.newParts()
            switch feature.geometry {
            case nil: break
            case .point(let p)?:
                guard p.longitude.isFinite, p.latitude.isFinite, p.altitude?.isFinite ?? true else {
                    throw PointFeaturesError(kind: .nonFiniteNumber, featureIndex: index, message: "a coordinate is not finite")
                }
                guard p.latitude >= -90 && p.latitude <= 90 else {
                    throw PointFeaturesError(
                        kind: .latitudeOutOfRange, featureIndex: index, message: "latitude \(p.latitude) is outside -90 … 90")
                }
                parts.position = p
            case let geometry?:
                throw PointFeaturesError(
                    kind: .notAPoint, featureIndex: index,
                    message: "the geometry is a \(geometry.typeName); only Point (or null) is accepted here")
            }
            parts.id = feature.id
            let object = feature.properties
            if object.keys != lastNames {
                ids.removeAll(keepingCapacity: true)
                for var name in object.keys { ids.append(name.withUTF8 { keys.id(of: $0) }) }
                shapes.last = shapes.shape(ids, names: keys)
                lastNames = object.keys
            }
            parts.shape = shapes.last.id
            for value in object.values { builder.values.push(value) }
            builder.commit(parts)
        }
        self = builder.build(keys: keys, shapes: shapes, report: GeoJSONReadReport())
    }
}

/// Why ``PointFeatures/init(_:)`` refused a feature.
public struct PointFeaturesError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `.notAPoint`, `.nonFiniteNumber` or `.latitudeOutOfRange`.
    public var kind: GeoJSONError.Kind
    /// The index of the feature in the input array.
    public var featureIndex: Int
    /// A sentence for people.
    public var message: String

    /// An error from its parts. O(1).
    public init(kind: GeoJSONError.Kind, featureIndex: Int, message: String) {
        self.kind = kind
        self.featureIndex = featureIndex
        self.message = message
    }

    /// The error as a sentence that names the feature. O(length of the sentence).
    public var description: String { "feature \(featureIndex): \(message)" }
}

/// The properties of point features: distinct names once, values in one flat array.
///
/// Each feature's properties object has a *shape*, its ordered list of names; shapes are stored
/// once (real files have one or a few). Feature `i`'s values are `values[offset(i) ..< offset(i + 1)]`
/// in the order of its shape's names.
public struct PropertyTable: Sendable {
    /// Every distinct name of a top-level property, in order of first appearance.
    public let keys: [String]
    /// Name numbers (indices into `keys`) of each shape, in member order.
    let shapeKeys: [[Int32]]
    /// The names of each shape (shared by the `JSONObject`s built from this table).
    let shapeNames: [[String]]
    /// The shape of each feature.
    let featureShapes: ContiguousArray<Int32>
    /// Where each feature's values start in `values`; one extra entry marks the end.
    let valueOffsets: ContiguousArray<UInt32>
    /// The values of all features, feature after feature.
    let values: [JSONValue]

    /// The number of features. O(1).
    public var count: Int { featureShapes.count }

    /// The properties of feature `i` as an object (its names array is shared, not copied).
    /// O(its properties).
    public func object(at i: Int) -> JSONObject {
        let start = Int(valueOffsets[i])
        let end = Int(valueOffsets[i + 1])
        return JSONObject(uniqueKeys: shapeNames[Int(featureShapes[i])], values: Array(values[start..<end]))
    }

    /// The column of property `name`: resolve it once, then read it per feature in O(1).
    /// O(shapes · names per shape); a name that no feature has gives a column of `nil`s.
    public func column(_ name: String) -> PropertyColumn {
        let key = keys.firstIndex(of: name).map(Int32.init)
        let slots = shapeKeys.map { shape in key.flatMap { k in shape.firstIndex(of: k).map(Int32.init) } ?? -1 }
        return PropertyColumn(name: name, slotByShape: slots, table: self)
    }

    /// The value of property `name` of feature `i`, or `nil` when it has no such member (a
    /// `null` value is `.null`). O(names of its shape); prefer ``column(_:)`` in loops.
    public func value(_ name: String, at i: Int) -> JSONValue? {
        let shape = Int(featureShapes[i])
        for (slot, k) in shapeKeys[shape].enumerated() where keys[Int(k)] == name {
            return values[Int(valueOffsets[i]) + slot]
        }
        return nil
    }
}

/// One property resolved for fast reading across all features of a ``PropertyTable``.
public struct PropertyColumn: Sendable {
    /// The property name.
    public let name: String
    /// Per shape: the position of the name among its members, or −1.
    let slotByShape: [Int32]
    let table: PropertyTable

    /// The value of this property for feature `i`, or `nil` when the feature lacks it. O(1).
    @inline(__always) public func value(at i: Int) -> JSONValue? {
        let slot = slotByShape[Int(table.featureShapes[i])]
        // Not `slot < 0 ? nil : …`: there `nil` would be the JSON value null.
        guard slot >= 0 else { return .none }
        return table.values[Int(table.valueOffsets[i]) + Int(slot)]
    }

    /// The value for feature `i` when it is a number. O(1).
    @inline(__always) public func number(at i: Int) -> Double? {
        value(at: i)?.numberValue
    }
}

/// Accumulates the columns of ``PointFeatures``, one feature at a time; the GeoJSON reader
/// drives it as a ``FeatureSink``.
struct PointFeaturesBuilder: FeatureSink {
    var coordinates: ContiguousArray<SIMD2<Double>> = []
    var altitudes: ContiguousArray<Double> = []
    var nullBits: [UInt64] = []
    var nullCount = 0
    var ids: ContiguousArray<FeatureID?> = []
    var shapes: ContiguousArray<Int32> = []
    var offsets: ContiguousArray<UInt32> = [0]
    /// The property values of all features so far, feature after feature.
    let values = ValueStack()

    /// The parts of the feature being read.
    struct Parts {
        var position: Position?
        var id: FeatureID?
        var shape: Int32 = 0
        /// Where its values start in `values`.
        var valueStart: Int
    }

    mutating func reserve(_ n: Int) {
        coordinates.reserveCapacity(n)
        shapes.reserveCapacity(n)
        offsets.reserveCapacity(n + 1)
        nullBits.reserveCapacity(n / 64 + 1)
    }

    func newParts() -> Parts { Parts(valueStart: values.count) }

    func readGeometry(into parts: inout Parts, _ parser: inout GeoJSONParser) throws(ReadFailure) {
        if case .point(let p)? = try parser.parseGeometryValue(pointsOnly: true) {
            parts.position = p
        } else {
            parts.position = nil
        }
    }

    func readProperties(into parts: inout Parts, _ parser: inout GeoJSONParser) throws(ReadFailure) {
        values.removeAll(from: parts.valueStart)  // a repeated "properties" member replaces the first
        parts.shape = try parser.parseProperties(into: values).id
    }

    func setID(_ id: FeatureID?, in parts: inout Parts) {
        parts.id = id
    }

    func readBareGeometry(into parts: inout Parts, _ parser: inout GeoJSONParser) throws(ReadFailure) {
        if case .point(let p) = try parser.parseGeometryObject(pointsOnly: true) { parts.position = p }
    }

    mutating func commit(_ parts: consuming Parts) {
        let i = coordinates.count
        if i & 63 == 0 { nullBits.append(0) }
        if let p = parts.position {
            coordinates.append(SIMD2(p.longitude, p.latitude))
        } else {
            coordinates.append(SIMD2(.nan, .nan))
            nullBits[i >> 6] |= 1 << UInt64(i & 63)
            nullCount += 1
        }
        if let altitude = parts.position?.altitude {
            if altitudes.isEmpty { altitudes = ContiguousArray(repeating: .nan, count: i) }
            altitudes.append(altitude)
        } else if !altitudes.isEmpty {
            altitudes.append(.nan)
        }
        if parts.id != nil || !ids.isEmpty {
            // The first id: the features before it had none.
            if ids.count < i { ids.append(contentsOf: repeatElement(nil, count: i - ids.count)) }
            ids.append(parts.id)
        }
        shapes.append(parts.shape)
        offsets.append(UInt32(values.count))
    }

    func discard(_ parts: consuming Parts) {
        values.removeAll(from: parts.valueStart)
    }

    func build(keys: KeyTable, shapes table: ShapeTable, report: GeoJSONReadReport) -> PointFeatures {
        PointFeatures(
            coordinates: coordinates, altitudes: altitudes, nullGeometryBits: nullBits, nullGeometryCount: nullCount,
            ids: ids,
            properties: PropertyTable(
                keys: keys.strings, shapeKeys: table.shapes.map(\.keyIDs), shapeNames: table.shapes.map(\.names),
                featureShapes: shapes, valueOffsets: offsets, values: values.popArray(from: 0)),
            report: report)
    }
}
