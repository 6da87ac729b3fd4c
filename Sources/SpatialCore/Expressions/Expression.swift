/// A parsed, type-checked style expression (MapLibre / Mapbox style spec v8), ready to be
/// evaluated many times.
///
/// Parse once with ``init(json:purpose:)`` (or ``init(filter:)`` / ``init(styleValue:interpolatable:)`` for the
/// legacy forms too), then evaluate against any ``ExpressionContext``. Evaluation never throws:
/// ``evaluate(_:)`` returns `nil` for an evaluation error, ``evaluateFilter(_:)`` treats an error
/// as `false` and ``evaluateNumber(_:default:)`` falls back to a default.
/// Two expressions are equal when their trees are.
public struct Expression: Hashable, Sendable {
    @usableFromInline let root: Node
    /// The statically inferred result type (`value` when only known at run time).
    public let type: ExpressionType
    /// The flat, reference-count-free form of `root` (when `program.isComplete`).
    @usableFromInline let program: FlatProgram

    @usableFromInline init(root: Node, type: ExpressionType) {
        self.root = root
        self.type = type
        self.program = FlatProgram(root)
    }

    /// Expressions are equal when their trees are. O(size of the tree).
    public static func == (lhs: Expression, rhs: Expression) -> Bool { lhs.root == rhs.root }

    /// Hashes the tree. O(size of the tree).
    public func hash(into hasher: inout Hasher) { hasher.combine(root) }

    /// Parses an expression for a purpose (which decides where `zoom` and `accumulated` may be).
    /// A bare number, string, Boolean or null is a constant expression.
    ///
    /// - Throws: ``ExpressionParseError`` naming the JSON path (`[3][1]`) and the reason.
    /// - Complexity: O(size of the JSON).
    public init(json: JSONValue, purpose: ExpressionPurpose = .filter) throws(ExpressionParseError) {
        try self.init(json: json, purpose: purpose, propertySlots: [:])
    }

    /// Parses with an interned table of property names, whose `["get", name]` carry their slot.
    init(json: JSONValue, purpose: ExpressionPurpose, propertySlots: [String: Int]) throws(ExpressionParseError) {
        var parser = ExpressionParser(purpose: purpose, slots: propertySlots)
        let (node, type) = try parser.parseRoot(json)
        self.init(root: node, type: type)
    }

    /// The expression as JSON, such that parsing it again gives an equal expression.
    /// O(size of the tree).
    public var jsonValue: JSONValue { root.jsonValue }

    /// The sections of a top-level `format` expression, else `nil` (for the scene, which
    /// measures each section at its `font-scale`). O(1).
    var formatSections: [FormatSection]? {
        if case .format(let sections) = root { return sections }
        return nil
    }

    /// Whether the expression reads the zoom. O(size of the tree).
    public var isZoomDependent: Bool { root.anyNode { if case .zoom = $0 { true } else { false } } }

    /// Whether the expression uses the `image` operator (whose result depends on the context's
    /// registered images). O(size of the tree).
    var readsImages: Bool { root.anyNode { if case .image = $0 { true } else { false } } }

    /// Whether the expression reads no feature data (properties, id, geometry type, accumulated).
    /// O(size of the tree).
    public var isFeatureConstant: Bool {
        !root.anyNode {
            switch $0 {
            case .get, .getDynamic, .has, .hasDynamic, .id, .geometryType, .properties, .accumulated: true
            default: false
            }
        }
    }

    /// Evaluates the expression; `nil` is an evaluation error (`.null` is the JSON null).
    /// Allocation-free when the result is a scalar already in the tree or the properties.
    /// - Complexity: O(size of the tree) plus property look-ups.
    @inlinable public func evaluate<C: ExpressionContext>(_ context: C) -> JSONValue? {
        // A statically numeric or Boolean expression takes the fast path (same result).
        if program.isComplete { return program.evaluate(type: type, context) }
        switch type {
        case .number:
            guard let n = root.number(context) else { return nil }
            return .number(n)
        case .boolean:
            guard let b = root.boolean(context) else { return nil }
            return .bool(b)
        default:
            return root.evaluate(context)
        }
    }

    /// Evaluates a filter or predicate: `true` only when the result is the Boolean `true`
    /// (an error or a non-Boolean is `false`). - Complexity: O(size of the tree).
    @inlinable public func evaluateFilter<C: ExpressionContext>(_ context: C) -> Bool {
        if program.isComplete { return program.boolean(program.root, context) ?? false }
        return root.boolean(context) ?? false
    }

    /// Evaluates a numeric paint/layout value: an error, a non-number, null or NaN gives
    /// `defaultValue`. - Complexity: O(size of the tree).
    @inlinable public func evaluateNumber<C: ExpressionContext>(_ context: C, default defaultValue: Double) -> Double {
        guard let n = evaluateDouble(context), !n.isNaN else { return defaultValue }
        return n
    }

    /// The fast numeric path: the number, or `nil` for an error or a non-number.
    /// - Complexity: O(size of the tree); no allocation.
    @inlinable public func evaluateDouble<C: ExpressionContext>(_ context: C) -> Double? {
        if program.isComplete { return program.number(program.root, context) }
        return root.number(context)
    }
}

extension Expression: CustomStringConvertible {
    /// The expression as compact JSON text. O(size of the tree).
    public var description: String { JSONText.json(jsonValue) }
}

extension Node {
    /// Whether this node or a descendant satisfies `predicate`. O(size of the tree).
    func anyNode(_ predicate: (Node) -> Bool) -> Bool {
        if predicate(self) { return true }
        return children.contains { $0.anyNode(predicate) }
    }

    /// The direct sub-expressions. O(children).
    var children: [Node] {
        switch self {
        case .literal, .get, .has, .id, .geometryType, .properties, .zoom, .accumulated, .e, .pi, .ln2: []
        case .getDynamic(let a), .hasDynamic(let a), .length(let a), .not(let a), .unary(_, let a),
            .typeOf(let a), .toString(let a), .toBoolean(let a), .upcase(let a), .downcase(let a),
            .featureState(let a), .image(let a):
            [a]
        case .getIn(let a, let b), .hasIn(let a, let b), .at(let a, let b), .contains(let a, let b),
            .compare(_, let a, let b):
            [a, b]
        case .indexOf(let a, let b, let d), .slice(let a, let b, let d): [a, b] + (d.map { [$0] } ?? [])
        case .conditional(let cs, let os, let f): cs + os + [f]
        case .match(let i, _, let os, let f): [i] + os + [f]
        case .coalesce(let xs), .all(let xs), .any(let xs), .arithmetic(_, let xs), .assertType(_, let xs),
            .assertArray(_, _, let xs), .toNumber(let xs), .concat(let xs):
            xs
        case .step(let i, _, let os), .interpolate(_, let i, _, let os): [i] + os
        case .format(let sections): sections.flatMap { [$0.content] + ($0.scale.map { [$0] } ?? []) }
        case .numberFormat(let o):
            [o.input] + [o.locale, o.currency, o.minFractionDigits, o.maxFractionDigits].compactMap { $0 }
        }
    }
}
