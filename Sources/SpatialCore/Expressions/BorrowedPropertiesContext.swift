/// A context over borrowed property storage: evaluating against it does no reference counting,
/// which makes it the fastest way to run an expression over many features.
///
/// Obtain one only through ``Feature/withExpressionContext(zoom:_:)`` or
/// ``JSONObject/withExpressionContext(zoom:featureID:geometryType:_:)``; it is valid only inside
/// that closure (it points into the object's storage) and must not be stored or returned.
public struct BorrowedPropertiesContext: ExpressionContext {
    @usableFromInline let keys: UnsafeBufferPointer<String>
    @usableFromInline let values: UnsafeBufferPointer<JSONValue>
    /// The fractional zoom.
    public var zoom: Double
    /// The feature id, read in place (so that the context stays trivially copyable).
    @usableFromInline let idPointer: UnsafePointer<FeatureID?>
    /// The geometry type as a small code (0 none, 1… the GeoJSON types), so that the context
    /// stays trivially copyable.
    @usableFromInline var geometryCode: UInt8

    @inlinable init(keys: UnsafeBufferPointer<String>, values: UnsafeBufferPointer<JSONValue>,
        zoom: Double, idPointer: UnsafePointer<FeatureID?>, geometryCode: UInt8)
    {
        assert(keys.count == values.count, "keys and values must be parallel")
        self.keys = keys
        self.values = values
        self.zoom = zoom
        self.idPointer = idPointer
        self.geometryCode = geometryCode
    }

    /// The feature id, if any. O(1).
    @inlinable public var featureID: FeatureID? { idPointer.pointee }

    /// The member names in place: evaluation sites find keys by position. O(1).
    @inlinable public var borrowedMemberNames: UnsafeBufferPointer<String>? { keys }

    /// The member value at `position`. O(1).
    @inlinable public func memberValue(at position: Int) -> JSONValue { values[position] }

    /// The member number at `position`, read in place. O(1).
    @inlinable public func memberNumber(at position: Int) -> Double? {
        if case .number(let n) = values[position] { return n }
        return nil
    }

    /// The geometry type names by code.
    @usableFromInline static let geometryNames: [String?] = [
        nil, "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection",
    ]

    /// The geometry type name, if any. O(1).
    @inlinable public var geometryType: String? {
        Int(geometryCode) < Self.geometryNames.count ? Self.geometryNames[Int(geometryCode)] : nil
    }

    /// The code of a geometry type name (0 when unknown or nil). O(1).
    @inlinable static func code(of name: String?) -> UInt8 {
        guard let name, let i = geometryNames.firstIndex(of: name) else { return 0 }
        return UInt8(i)
    }

    /// The position of the property (see ``PropertyKey/position(in:hint:)``). O(members).
    @inlinable func index(of key: PropertyKey) -> Int? {
        var hint: Int32 = 0
        return key.position(in: keys, hint: &hint)
    }

    /// The property's value. O(members).
    @inlinable public func value(forProperty key: PropertyKey) -> JSONValue? {
        guard let i = index(of: key) else { return nil }
        return values[i]
    }

    /// The property's number, read in place. O(members).
    @inlinable public func number(forProperty key: PropertyKey) -> Double? {
        guard let i = index(of: key) else { return nil }
        if case .number(let n) = values[i] { return n }
        return nil
    }

    /// Whether the property is present. O(members).
    @inlinable public func hasProperty(_ key: PropertyKey) -> Bool { index(of: key) != nil }

    /// The properties copied into an object. O(members).
    public var properties: JSONObject {
        var object = JSONObject()
        for i in 0..<keys.count { object[keys[i]] = values[i] }
        return object
    }
}

extension JSONObject {
    /// Runs `body` with a reference-count-free context over this object's members.
    /// The context is valid only inside `body`. O(1) plus `body`.
    @inlinable public func withExpressionContext<R>(
        zoom: Double = 0, featureID: FeatureID? = nil, geometryType: String? = nil,
        _ body: (BorrowedPropertiesContext) throws -> R
    ) rethrows -> R {
        try withUnsafePointer(to: featureID) { id in
            try keys.withUnsafeBufferPointer { k in
                try values.withUnsafeBufferPointer { v in
                    try body(BorrowedPropertiesContext(
                        keys: k, values: v, zoom: zoom, idPointer: id,
                        geometryCode: BorrowedPropertiesContext.code(of: geometryType)))
                }
            }
        }
    }
}

extension Feature {
    /// Runs `body` with a reference-count-free context over this feature (properties, id, geometry
    /// type) at `zoom`. The context is valid only inside `body`. O(1) plus `body`.
    @inlinable public func withExpressionContext<R>(zoom: Double = 0, _ body: (BorrowedPropertiesContext) throws -> R) rethrows -> R {
        let code = Self.geometryCode(of: geometry)
        return try withUnsafePointer(to: id) { id in
            try properties.keys.withUnsafeBufferPointer { k in
                try properties.values.withUnsafeBufferPointer { v in
                    try body(BorrowedPropertiesContext(keys: k, values: v, zoom: zoom, idPointer: id, geometryCode: code))
                }
            }
        }
    }

    /// Runs `body` with a reference-count-free context over the feature at `feature`, read in
    /// place: unlike `buffer[i].withExpressionContext`, which copies the whole feature (with its
    /// reference counts) because `body` could write to the buffer, nothing is copied. The feature
    /// must stay unchanged while `body` runs. O(1) plus `body`.
    @inlinable public static func withExpressionContext<R>(
        at feature: UnsafePointer<Feature>, zoom: Double = 0, _ body: (BorrowedPropertiesContext) throws -> R
    ) rethrows -> R {
        let raw = UnsafeRawPointer(feature)
        let id = (raw + MemoryLayout<Feature>.offset(of: \Feature.id).unsafelyUnwrapped)
            .assumingMemoryBound(to: FeatureID?.self)
        let properties = (raw + MemoryLayout<Feature>.offset(of: \Feature.properties).unsafelyUnwrapped)
            .assumingMemoryBound(to: JSONObject.self)
        let code = geometryCode(of: feature.pointee.geometry)
        return try properties.pointee.keys.withUnsafeBufferPointer { k in
            try properties.pointee.values.withUnsafeBufferPointer { v in
                try body(BorrowedPropertiesContext(keys: k, values: v, zoom: zoom, idPointer: id, geometryCode: code))
            }
        }
    }

    /// The geometry type code of ``BorrowedPropertiesContext``, read from the case alone. O(1).
    @inlinable static func geometryCode(of geometry: Geometry?) -> UInt8 {
        switch geometry {
        case .none: 0
        case .point?: 1
        case .multiPoint?: 2
        case .lineString?: 3
        case .multiLineString?: 4
        case .polygon?: 5
        case .multiPolygon?: 6
        case .geometryCollection?: 7
        }
    }
}

extension UnsafeBufferPointer where Element == Feature {
    /// Runs `body` with a reference-count-free context over feature `index`, read in place (see
    /// ``Feature/withExpressionContext(at:zoom:_:)``): the fast way to evaluate an expression on
    /// every feature of an array, inside `features.withUnsafeBufferPointer`.
    /// `index` must be a valid index. O(1) plus `body`.
    @inlinable public func withExpressionContext<R>(
        at index: Int, zoom: Double = 0, _ body: (BorrowedPropertiesContext) throws -> R
    ) rethrows -> R {
        precondition(index >= 0 && index < count, "feature index out of range")
        return try Feature.withExpressionContext(at: baseAddress.unsafelyUnwrapped + index, zoom: zoom, body)
    }
}
