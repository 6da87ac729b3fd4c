import Foundation

/// A property name resolved once at parse time, so that contexts can find it cheaply.
///
/// `slot` is the name's position in an interned name table given to the parser (for example the
/// cluster-property names of a ``ClusterPropertyExpressions``), or −1 when there is none; contexts
/// that store values by slot read them without comparing strings. Other contexts compare the
/// cached UTF-8 length first and the string only when the lengths agree.
public struct PropertyKey: Hashable, Sendable, CustomStringConvertible {
    /// The property name.
    public let name: String
    /// The interned slot, or −1.
    public let slot: Int
    /// The UTF-8 length of `name`, compared before the string.
    @usableFromInline let utf8Count: Int
    /// The two machine words of `name`'s representation (inline bytes for short names, else the
    /// storage reference, which `name` keeps alive). A member name with the same words is the
    /// same string, so it is found without a string comparison (see ``position(in:hint:)``).
    @usableFromInline let nameWords: SIMD2<UInt64>

    /// A key for `name`, optionally with an interned slot. O(1) for native strings.
    @inlinable public init(_ name: String, slot: Int = -1) {
        self.name = name
        self.slot = slot
        self.utf8Count = name.utf8.count
        self.nameWords = PropertyKey.words(of: name)
    }

    /// Whether `candidate` is this key's name: the UTF-8 length first, then the string.
    /// O(length).
    @inlinable public func matches(_ candidate: String) -> Bool {
        candidate.utf8.count == utf8Count && candidate == name
    }

    /// The name. O(1).
    public var description: String { name }

    /// Keys are equal when their names are (the slot is a lookup hint). O(name length).
    @inlinable public static func == (lhs: PropertyKey, rhs: PropertyKey) -> Bool { lhs.name == rhs.name }

    /// Hashes the name. O(name length).
    @inlinable public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

extension JSONObject {
    /// The position of the member named by `key` (see ``PropertyKey/position(in:hint:)``). O(members).
    @inlinable public func index(for key: PropertyKey) -> Int? {
        var hint: Int32 = 0
        return keys.withUnsafeBufferPointer { key.position(in: $0, hint: &hint) }
    }

    /// The value of the member named by `key`, or `nil` when absent. O(members).
    @inlinable public func value(for key: PropertyKey) -> JSONValue? {
        guard let i = index(for: key) else { return nil }
        return values[i]
    }

    /// The member's number, or `nil` when absent or not a number (no value copy). O(members).
    @inlinable public func number(for key: PropertyKey) -> Double? {
        guard let i = index(for: key) else { return nil }
        return values.withUnsafeBufferPointer { buffer in
            if case .number(let n) = buffer[i] { return n }
            return nil
        }
    }
}

/// What an expression reads while it is evaluated: a feature's properties, id, geometry type, the
/// zoom and (in a cluster reduce) the accumulated value.
///
/// Evaluation is generic over the context, so each concrete context gets its own specialised code
/// (no existential in the hot path).
public protocol ExpressionContext {
    /// The value of a property, or `nil` when the key is absent. Should be O(1) or O(members).
    func value(forProperty key: PropertyKey) -> JSONValue?
    /// The property's number, or `nil` when it is absent or not a number (a fast path that
    /// contexts may implement without copying the value). O(members) at most.
    func number(forProperty key: PropertyKey) -> Double?
    /// Whether the property is present (even if null). O(members) at most.
    func hasProperty(_ key: PropertyKey) -> Bool
    /// The member names, when the context reads an object's name and value storage in place
    /// (then evaluation sites find keys by position, remembering where they found them); `nil`
    /// otherwise (the default). O(1).
    var borrowedMemberNames: UnsafeBufferPointer<String>? { get }
    /// The value of the member at a position of ``borrowedMemberNames`` (only called when that
    /// is not nil). O(1).
    func memberValue(at position: Int) -> JSONValue
    /// The number of the member at a position of ``borrowedMemberNames``, or `nil` when it is not
    /// a number (only called when that is not nil). O(1).
    func memberNumber(at position: Int) -> Double?
    /// All properties as an object (the `properties` operator). O(members) at most.
    var properties: JSONObject { get }
    /// The feature's id, when it has one. O(1).
    var featureID: FeatureID? { get }
    /// The geometry type name (`Point`, `LineString`, `Polygon`, …), when known. O(1).
    var geometryType: String? { get }
    /// The fractional zoom (0 where there is none). O(1).
    var zoom: Double { get }
    /// The value accumulated so far, inside a cluster reduce only. O(1).
    var accumulated: JSONValue? { get }
    /// Whether an icon image of this name is registered (the `image` operator yields null for a
    /// missing one). O(1).
    func hasImage(named name: String) -> Bool
}

extension ExpressionContext {
    /// Reads ``value(forProperty:)`` by default. O(members).
    @inlinable public func number(forProperty key: PropertyKey) -> Double? {
        if case .number(let n)? = value(forProperty: key) { return n }
        return nil
    }

    /// Reads ``value(forProperty:)`` by default. O(members).
    @inlinable public func hasProperty(_ key: PropertyKey) -> Bool { value(forProperty: key) != nil }

    /// None by default. O(1).
    @inlinable public var borrowedMemberNames: UnsafeBufferPointer<String>? { nil }
    /// Null by default (never called without ``borrowedMemberNames``). O(1).
    @inlinable public func memberValue(at position: Int) -> JSONValue { .null }
    /// Nil by default (never called without ``borrowedMemberNames``). O(1).
    @inlinable public func memberNumber(at position: Int) -> Double? { nil }

    /// No id by default. O(1).
    @inlinable public var featureID: FeatureID? { nil }
    /// No geometry type by default. O(1).
    @inlinable public var geometryType: String? { nil }
    /// Zoom 0 by default. O(1).
    @inlinable public var zoom: Double { 0 }
    /// No accumulated value by default. O(1).
    @inlinable public var accumulated: JSONValue? { nil }
    /// Every image is there by default. O(1).
    @inlinable public func hasImage(named name: String) -> Bool { true }
}

/// Evaluates expressions on a ``Feature`` (its properties, id and geometry type) at a zoom.
public struct FeatureExpressionContext: ExpressionContext {
    /// The feature.
    public var feature: Feature
    /// The fractional zoom.
    public var zoom: Double

    /// A context for `feature` at `zoom`. O(1).
    @inlinable public init(feature: Feature, zoom: Double = 0) {
        self.feature = feature
        self.zoom = zoom
    }

    /// O(members).
    @inlinable public func value(forProperty key: PropertyKey) -> JSONValue? {
        feature.properties.value(for: key)
    }

    /// O(members).
    @inlinable public func number(forProperty key: PropertyKey) -> Double? { feature.properties.number(for: key) }

    /// O(members).
    @inlinable public func hasProperty(_ key: PropertyKey) -> Bool { feature.properties.index(for: key) != nil }

    /// O(1).
    @inlinable public var properties: JSONObject { feature.properties }
    /// O(1).
    @inlinable public var featureID: FeatureID? { feature.id }
    /// O(1).
    @inlinable public var geometryType: String? { feature.geometry?.typeName }
}

/// Evaluates expressions on a plain properties object, with optional id, geometry type and zoom.
public struct JSONObjectExpressionContext: ExpressionContext {
    /// The properties.
    public var properties: JSONObject
    /// The fractional zoom.
    public var zoom: Double
    /// The feature id, if any.
    public var featureID: FeatureID?
    /// The geometry type name, if any.
    public var geometryType: String?
    /// The registered icon images by name (`nil`: every name counts as registered).
    public var images: [String: CGSize]?

    /// A context over `properties`. O(1).
    @inlinable public init(
        properties: JSONObject, zoom: Double = 0, featureID: FeatureID? = nil, geometryType: String? = nil,
        images: [String: CGSize]? = nil
    ) {
        self.properties = properties
        self.zoom = zoom
        self.featureID = featureID
        self.geometryType = geometryType
        self.images = images
    }

    /// Whether `images` has the name (or is `nil`). O(1).
    @inlinable public func hasImage(named name: String) -> Bool { images.map { $0[name] != nil } ?? true }

    /// O(members).
    @inlinable public func value(forProperty key: PropertyKey) -> JSONValue? {
        properties.value(for: key)
    }

    /// O(members).
    @inlinable public func number(forProperty key: PropertyKey) -> Double? { properties.number(for: key) }

    /// O(members).
    @inlinable public func hasProperty(_ key: PropertyKey) -> Bool { properties.index(for: key) != nil }
}
