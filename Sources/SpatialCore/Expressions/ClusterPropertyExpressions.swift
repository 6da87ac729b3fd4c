/// The parsed `clusterProperties` of a clustered source: per property a map expression
/// (evaluated once per input point) and a reduce expression (evaluated once per merge).
///
/// Accepts the Mapbox forms `{"name": [operator, mapExpr]}` (the shorthand for the reduce
/// `[operator, ["accumulated"], ["get", name]]`; any operator taking two operands) and
/// `{"name": [reduceExpr, mapExpr]}`. In a reduce, `["get", name]` reads the **member's** value
/// under a cluster-property name (resolved to a slot at parse time) and `["accumulated"]` the value
/// so far. An evaluation error gives null, so null stays null through later reduces.
public struct ClusterPropertyExpressions: Hashable, @unchecked Sendable {
    /// One cluster property.
    public struct Property: Hashable, Sendable {
        /// The property name (the key in cluster features' properties).
        public let name: String
        /// Evaluated on each input point's properties (no zoom).
        public let map: Expression
        /// Evaluated per merge with ``ClusterReduceContext``.
        public let reduce: Expression
    }

    /// The properties in document order.
    public let properties: [Property]
    /// The property names in order (a member's values are stored in this order).
    public let names: [String]
    /// The map expressions, parallel to `names`.
    @usableFromInline let maps: [Expression]
    /// The reduce expressions, parallel to `names`.
    @usableFromInline let reduces: [Expression]
    /// Unretained references to the flat programs (kept alive by `maps` / `reduces`) with their
    /// types, so that the hot loops reach them without reference counting; nil where the tree is used.
    @usableFromInline let mapPrograms: [(program: Unmanaged<FlatProgram>, type: ExpressionType)?]
    @usableFromInline let reducePrograms: [(program: Unmanaged<FlatProgram>, type: ExpressionType)?]

    /// Equal when the properties are. O(total expression size).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.properties == rhs.properties }

    /// Hashes the properties. O(total expression size).
    public func hash(into hasher: inout Hasher) { hasher.combine(properties) }

    /// The number of properties. O(1).
    public var count: Int { properties.count }

    /// No cluster properties. O(1).
    public init() { self.init(properties: []) }

    init(properties: [Property]) {
        self.properties = properties
        names = properties.map(\.name)
        maps = properties.map(\.map)
        reduces = properties.map(\.reduce)
        func unretained(_ e: Expression) -> (program: Unmanaged<FlatProgram>, type: ExpressionType)? {
            e.program.isComplete ? (Unmanaged.passUnretained(e.program), e.type) : nil
        }
        mapPrograms = maps.map(unretained)
        reducePrograms = reduces.map(unretained)
    }

    /// Evaluates map (`reduce == false`) or reduce expression `index`; errors give null.
    @inlinable func run<C: ExpressionContext>(_ index: Int, reduce: Bool, _ context: C) -> JSONValue {
        if let (program, type) = reduce ? reducePrograms[index] : mapPrograms[index] {
            return program._withUnsafeGuaranteedRef { $0.evaluate(type: type, context) } ?? .null
        }
        return (reduce ? reduces : maps)[index].evaluate(context) ?? .null
    }

    /// Parses a `clusterProperties` object.
    ///
    /// - Throws: ``ExpressionParseError`` whose path starts with the property name
    ///   (`sum[0][1]`); prefix it with the source's location.
    /// - Complexity: O(size of the JSON).
    public init(json: JSONObject) throws(ExpressionParseError) {
        var slots: [String: Int] = [:]
        for (i, name) in json.keys.enumerated() { slots[name] = i }
        var result: [Property] = []
        for (name, value) in json.members {
            let base: [JSONPathComponent] = [.key(name)]
            func fail(_ components: [JSONPathComponent], _ reason: String) -> ExpressionParseError {
                ExpressionParseError(components: base + components, reason: reason)
            }
            guard case .array(let pair) = value, pair.count == 2 else {
                throw fail([], "a cluster property must be [operator, map expression] or [reduce expression, map expression]")
            }
            let map: Expression
            do {
                map = try Expression(json: pair[1], purpose: .clusterMap, propertySlots: [:])
            } catch {
                throw ExpressionParseError(components: base + [.index(1)] + error.components, reason: error.reason)
            }
            let reduceJSON: JSONValue
            switch pair[0] {
            case .string(let op):
                reduceJSON = [.string(op), ["accumulated"], ["get", .string(name)]]
            case .array:
                reduceJSON = pair[0]
            default:
                throw fail([.index(0)], "the reduce must be an operator name or an expression")
            }
            let reduce: Expression
            do {
                reduce = try Expression(json: reduceJSON, purpose: .clusterReduce, propertySlots: slots)
            } catch {
                if case .string(let op) = pair[0] {
                    throw fail([.index(0)], "\"\(op)\" cannot reduce two values (\(error.reason))")
                }
                throw ExpressionParseError(components: base + [.index(0)] + error.components, reason: error.reason)
            }
            result.append(Property(name: name, map: map, reduce: reduce))
        }
        self.init(properties: result)
    }

    /// Parses a `clusterProperties` value from a style document, which must be an object.
    /// - Throws: ``ExpressionParseError``. - Complexity: O(size of the JSON).
    public init(jsonValue json: JSONValue) throws(ExpressionParseError) {
        guard case .object(let object) = json else {
            throw ExpressionParseError(reason: "clusterProperties must be an object")
        }
        try self.init(json: object)
    }

    /// The mapped value of property `index` for one point; an error gives null.
    /// - Complexity: O(size of the map expression); no allocation for scalar results.
    @inlinable public func mapValue<C: ExpressionContext>(_ index: Int, _ context: C) -> JSONValue {
        run(index, reduce: false, context)
    }

    /// The mapped values of all properties for one point, in order. O(total expression size).
    @inlinable public func mapValues<C: ExpressionContext>(_ context: C) -> [JSONValue] {
        (0..<mapPrograms.count).map { run($0, reduce: false, context) }
    }

    /// Writes the mapped values of all properties for one point into `output` (one per property,
    /// in order), with no allocation. O(total expression size).
    @inlinable public func map<C: ExpressionContext>(_ context: C, into output: UnsafeMutableBufferPointer<JSONValue>) {
        assert(output.count >= maps.count, "the output must hold one value per cluster property")
        for i in 0..<mapPrograms.count { output[i] = run(i, reduce: false, context) }
    }

    /// Reduces a member into property `index`: evaluates its reduce with `accumulated` and the
    /// member's values (in ``names`` order); an error gives null.
    /// - Complexity: O(size of the reduce expression); no allocation for scalar results.
    @inlinable public func reduceValue<Values: RandomAccessCollection>(
        _ index: Int, accumulated: JSONValue, member: Values
    ) -> JSONValue where Values.Element == JSONValue, Values.Index == Int {
        let context = ClusterReduceContext(accumulated: accumulated, member: member, names: names)
        return run(index, reduce: true, context)
    }

    /// Reduces a member's values into the accumulated values, property by property.
    /// `accumulated` and `member` hold one value per property in ``names`` order.
    /// - Complexity: O(total reduce size).
    @inlinable public func reduce<Values: RandomAccessCollection>(
        _ accumulated: inout [JSONValue], member: Values
    ) where Values.Element == JSONValue, Values.Index == Int {
        var context = ClusterReduceContext(accumulated: .null, member: member, names: names)
        for i in 0..<reducePrograms.count {
            context.accumulated = accumulated[i]
            accumulated[i] = run(i, reduce: true, context)
        }
    }

    /// The cluster properties as a `clusterProperties` JSON object (reduce expressions in full).
    /// O(total expression size).
    public var jsonValue: JSONValue {
        var object = JSONObject()
        for p in properties { object.appendUnchecked(key: p.name, value: [p.reduce.jsonValue, p.map.jsonValue]) }
        return .object(object)
    }
}

/// The context of a cluster reduce: `["accumulated"]` is the value so far and `["get", name]`
/// reads the member's value under a cluster-property name (by slot, without string compares).
public struct ClusterReduceContext<Values: RandomAccessCollection>: ExpressionContext
where Values.Element == JSONValue, Values.Index == Int {
    /// The value accumulated so far.
    public var accumulated: JSONValue?
    /// The member's values, one per cluster property in order.
    public var member: Values
    /// The cluster-property names, for look-ups of names computed at run time.
    @usableFromInline let names: [String]

    /// A reduce context over a member's values (in `names` order). O(1).
    @inlinable public init(accumulated: JSONValue, member: Values, names: [String]) {
        self.accumulated = accumulated
        self.member = member
        self.names = names
    }

    /// The member's value: by slot when the key has one, else by name. O(1) / O(properties).
    @inlinable public func value(forProperty key: PropertyKey) -> JSONValue? {
        var slot = key.slot
        if slot < 0 {
            guard let i = names.firstIndex(of: key.name) else { return nil }
            slot = i
        }
        guard slot < member.count else { return nil }
        return member[member.startIndex + slot]
    }

    /// The member's number, read in place. O(1) by slot.
    @inlinable public func number(forProperty key: PropertyKey) -> Double? {
        if key.slot >= 0 && key.slot < member.count {
            if case .number(let n) = member[member.startIndex + key.slot] { return n }
            return nil
        }
        if case .number(let n)? = value(forProperty: key) { return n }
        return nil
    }

    /// The member's values as an object. O(properties).
    public var properties: JSONObject {
        var object = JSONObject()
        for (i, name) in names.enumerated() where i < member.count {
            object.appendUnchecked(key: name, value: member[member.startIndex + i])
        }
        return object
    }
}
