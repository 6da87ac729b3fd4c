/// A JSON value: the model of GeoJSON properties, style documents and expression literals.
///
/// Numbers are `Double`, as in JavaScript, so a value read from text and written back is the same
/// number bit for bit. Objects keep their members in document order (see ``JSONObject``).
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

extension JSONValue {
    /// The number, when this value is one. O(1).
    @inlinable public var numberValue: Double? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The string, when this value is one. O(1).
    @inlinable public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The Boolean, when this value is one. O(1).
    @inlinable public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The elements, when this value is an array. O(1).
    @inlinable public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The object, when this value is one. O(1).
    @inlinable public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// Whether this value is `null`. O(1).
    @inlinable public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The member named `key` when this value is an object, else `nil`. O(members).
    @inlinable public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `null`. O(1).
    public init(nilLiteral: ()) { self = .null }
    /// `true` or `false`. O(1).
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A number (JSON numbers are `Double`s). O(1).
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A number. O(1).
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A string. O(1).
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array of the elements, in order. O(n).
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object of the members, in order (a repeated key keeps its last value). O(n²) for n members.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}

/// A JSON object whose members keep their document order.
///
/// Property objects of real GeoJSON files hold a handful to a few dozen members, so members are
/// stored as two parallel arrays and found by a linear scan; hot paths (expressions, clustering)
/// resolve a key to its position once and then read ``value(at:)``.
/// A duplicate key keeps its last value, as `JSON.parse` does.
public struct JSONObject: Hashable, Sendable {
    /// The member names in document order.
    public internal(set) var keys: [String]
    /// The member values, parallel to ``keys``.
    public internal(set) var values: [JSONValue]

    /// An empty object. O(1).
    public init() {
        keys = []
        values = []
    }

    /// An object with the given members in order; a repeated key keeps its last value. O(n²) worst case.
    public init<S: Sequence>(_ members: S) where S.Element == (String, JSONValue) {
        keys = []
        values = []
        for (k, v) in members { self[k] = v }
    }

    /// Builds from parallel arrays that the caller guarantees to be free of duplicate keys.
    @usableFromInline init(uniqueKeys keys: [String], values: [JSONValue]) {
        precondition(keys.count == values.count)
        self.keys = keys
        self.values = values
    }

    /// The number of members. O(1).
    @inlinable public var count: Int { keys.count }

    /// Whether the object has no members. O(1).
    @inlinable public var isEmpty: Bool { keys.isEmpty }

    /// The position of `key`, or `nil`. O(members).
    @inlinable public func index(forKey key: String) -> Int? {
        keys.firstIndex(of: key)
    }

    /// The value at a position from ``index(forKey:)``. O(1).
    @inlinable public func value(at index: Int) -> JSONValue { values[index] }

    /// The member named `key`; setting `nil` removes it. O(members).
    public subscript(key: String) -> JSONValue? {
        get {
            guard let i = index(forKey: key) else { return nil }
            return values[i]
        }
        set {
            if let i = index(forKey: key) {
                if let newValue {
                    values[i] = newValue
                } else {
                    keys.remove(at: i)
                    values.remove(at: i)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    /// Appends a member without checking for an existing key (the caller knows it is new). O(1).
    public mutating func appendUnchecked(key: String, value: JSONValue) {
        keys.append(key)
        values.append(value)
    }

    /// The members in order.
    public var members: Zip2Sequence<[String], [JSONValue]> { zip(keys, values) }

    /// Objects are equal when they hold the same members, whatever their order. O(n) for n
    /// members in the same order, O(n²) otherwise.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.keys == rhs.keys { return lhs.values == rhs.values }
        for (k, v) in lhs.members where rhs[k] != v { return false }
        return true
    }

    /// Hashes the members, whatever their order (as `==` compares them). O(n) for n members.
    public func hash(into hasher: inout Hasher) {
        // Order-independent, to agree with ==.
        var acc = 0
        for (k, v) in members {
            var h = Hasher()
            h.combine(k)
            h.combine(v)
            acc ^= h.finalize()
        }
        hasher.combine(count)
        hasher.combine(acc)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// An object of the members, in order (a repeated key keeps its last value). O(n²) for n members.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}
