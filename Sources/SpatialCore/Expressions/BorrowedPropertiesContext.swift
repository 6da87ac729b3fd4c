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
    /// The feature id, if any.
    public var featureID: FeatureID?
    /// The geometry type name, if any.
    public var geometryType: String?

    @inlinable init(keys: UnsafeBufferPointer<String>, values: UnsafeBufferPointer<JSONValue>,
        zoom: Double, featureID: FeatureID?, geometryType: String?)
    {
        assert(keys.count == values.count, "keys and values must be parallel")
        self.keys = keys
        self.values = values
        self.zoom = zoom
        self.featureID = featureID
        self.geometryType = geometryType
    }

    /// The property's value, comparing lengths before strings. O(members).
    @inlinable public func value(forProperty key: PropertyKey) -> JSONValue? {
        for i in 0..<keys.count {
            let k = keys[i]
            if k.utf8.count == key.utf8Count && k == key.name { return values[i] }
        }
        return nil
    }

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
        try keys.withUnsafeBufferPointer { k in
            try values.withUnsafeBufferPointer { v in
                try body(BorrowedPropertiesContext(keys: k, values: v, zoom: zoom, featureID: featureID, geometryType: geometryType))
            }
        }
    }
}

extension Feature {
    /// Runs `body` with a reference-count-free context over this feature (properties, id, geometry
    /// type) at `zoom`. The context is valid only inside `body`. O(1) plus `body`.
    @inlinable public func withExpressionContext<R>(zoom: Double = 0, _ body: (BorrowedPropertiesContext) throws -> R) rethrows -> R {
        try properties.withExpressionContext(zoom: zoom, featureID: id, geometryType: Self.typeName(of: geometry), body)
    }

    /// The geometry type name, read from the case alone (no payload copy). O(1).
    @inlinable static func typeName(of geometry: Geometry?) -> String? {
        switch geometry {
        case .none: nil
        case .point?: "Point"
        case .multiPoint?: "MultiPoint"
        case .lineString?: "LineString"
        case .multiLineString?: "MultiLineString"
        case .polygon?: "Polygon"
        case .multiPolygon?: "MultiPolygon"
        case .geometryCollection?: "GeometryCollection"
        }
    }
}
