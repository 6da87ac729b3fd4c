// A small Swift builder for expressions, so that apps need not write JSON by hand:
//
//     let radius: Expression = .interpolate(.linear, .zoom, stops: [2: 2, 7: 3])
//     let icon: Expression = .match(.get("POITYPE"), ["Restroom": "toilet", "Viewpoint": "eye"], fallback: "")
//     let big: Expression = .greater(.get("mag"), 5)
//
// Builders do not throw: a misuse (for example comparing a number with a string) is an
// evaluation error later. `jsonValue` prints any of them, and parsing that JSON (purpose
// `.filter`) gives an equal expression.

extension Expression: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    /// A number constant. O(1).
    public init(integerLiteral value: Int) { self = .literal(.number(Double(value))) }
    /// A number constant. O(1).
    public init(floatLiteral value: Double) { self = .literal(.number(value)) }
    /// A string constant. O(1).
    public init(stringLiteral value: String) { self = .literal(.string(value)) }
    /// A Boolean constant. O(1).
    public init(booleanLiteral value: Bool) { self = .literal(.bool(value)) }
    /// The null constant. O(1).
    public init(nilLiteral: ()) { self = .literal(.null) }
}

extension Expression {
    @usableFromInline init(_ node: Node) { self.init(root: node, type: node.staticType) }

    /// A constant (arrays and objects print as `["literal", …]`). O(1).
    public static func literal(_ value: JSONValue) -> Expression { Expression(.literal(value)) }
    /// `["get", key]`: the feature property (null when missing). O(1).
    public static func get(_ key: String) -> Expression { Expression(.get(PropertyKey(key))) }
    /// `["get", key, object]`. O(1).
    public static func get(_ key: Expression, in object: Expression) -> Expression { Expression(.getIn(key.root, object.root)) }
    /// `["has", key]`: whether the property is present (even if null). O(1).
    public static func has(_ key: String) -> Expression { Expression(.has(PropertyKey(key))) }
    /// `["zoom"]`. O(1).
    public static var zoom: Expression { Expression(.zoom) }
    /// `["id"]`. O(1).
    public static var id: Expression { Expression(.id) }
    /// `["geometry-type"]`. O(1).
    public static var geometryType: Expression { Expression(.geometryType) }
    /// `["properties"]`. O(1).
    public static var properties: Expression { Expression(.properties) }
    /// `["accumulated"]` (cluster reduce only). O(1).
    public static var accumulated: Expression { Expression(.accumulated) }

    /// `["step", input, base, stop1, out1, …]`, stops sorted by key. O(n log n).
    public static func step(_ input: Expression, _ base: Expression, stops: [Double: Expression]) -> Expression {
        let sorted = stops.sorted { $0.key < $1.key }
        return Expression(.step(input.root, sorted.map(\.key), [base.root] + sorted.map(\.value.root)))
    }

    /// `["interpolate", curve, input, stop1, out1, …]`, stops sorted by key. O(n log n).
    public static func interpolate(_ curve: Interpolation, _ input: Expression, stops: [Double: Expression]) -> Expression {
        let sorted = stops.sorted { $0.key < $1.key }
        return Expression(.interpolate(curve, input.root, sorted.map(\.key), sorted.map(\.value.root)))
    }

    /// `["match", input, label, output, …, fallback]` with string labels, in order. O(n).
    public static func match(_ input: Expression, _ branches: KeyValuePairs<String, Expression>, fallback: Expression) -> Expression {
        Expression(.match(input.root, branches.map { [MatchLabel.string($0.key)] }, branches.map(\.value.root), fallback.root))
    }

    /// `["match", input, label, output, …, fallback]` with integer labels, in order. O(n).
    public static func match(_ input: Expression, _ branches: KeyValuePairs<Int, Expression>, fallback: Expression) -> Expression {
        Expression(.match(input.root, branches.map { [MatchLabel.number(Double($0.key))] }, branches.map(\.value.root), fallback.root))
    }

    /// `["case", condition, output, …, fallback]`. O(n).
    public static func `case`(_ branches: [(Expression, Expression)], fallback: Expression) -> Expression {
        Expression(.conditional(branches.map(\.0.root), branches.map(\.1.root), fallback.root))
    }

    /// `["coalesce", …]`. O(n).
    public static func coalesce(_ values: Expression...) -> Expression { Expression(.coalesce(values.map(\.root))) }

    /// `["==", a, b]`. O(1).
    public static func equal(_ a: Expression, _ b: Expression) -> Expression { Expression(.compare(.equal, a.root, b.root)) }
    /// `["!=", a, b]`. O(1).
    public static func notEqual(_ a: Expression, _ b: Expression) -> Expression { Expression(.compare(.notEqual, a.root, b.root)) }
    /// `["<", a, b]`. O(1).
    public static func less(_ a: Expression, _ b: Expression) -> Expression { Expression(.compare(.less, a.root, b.root)) }
    /// `["<=", a, b]`. O(1).
    public static func lessOrEqual(_ a: Expression, _ b: Expression) -> Expression { Expression(.compare(.lessOrEqual, a.root, b.root)) }
    /// `[">", a, b]`. O(1).
    public static func greater(_ a: Expression, _ b: Expression) -> Expression { Expression(.compare(.greater, a.root, b.root)) }
    /// `[">=", a, b]`. O(1).
    public static func greaterOrEqual(_ a: Expression, _ b: Expression) -> Expression { Expression(.compare(.greaterOrEqual, a.root, b.root)) }

    /// `["!", a]`. O(1).
    public static func not(_ a: Expression) -> Expression { Expression(.not(a.root)) }
    /// `["all", …]` (true when empty). O(n).
    public static func all(_ items: [Expression]) -> Expression { Expression(.all(items.map(\.root))) }
    /// `["any", …]` (false when empty). O(n).
    public static func any(_ items: [Expression]) -> Expression { Expression(.any(items.map(\.root))) }
    /// `["all", …]`. O(n).
    public static func all(_ items: Expression...) -> Expression { all(items) }
    /// `["any", …]`. O(n).
    public static func any(_ items: Expression...) -> Expression { any(items) }

    /// `["+", …]`. O(n).
    public static func sum(_ items: Expression...) -> Expression { Expression(.arithmetic(.add, items.map(\.root))) }
    /// `["*", …]`. O(n).
    public static func product(_ items: Expression...) -> Expression { Expression(.arithmetic(.multiply, items.map(\.root))) }
    /// `["max", …]`. O(n).
    public static func max(_ items: Expression...) -> Expression { Expression(.arithmetic(.max, items.map(\.root))) }
    /// `["min", …]`. O(n).
    public static func min(_ items: Expression...) -> Expression { Expression(.arithmetic(.min, items.map(\.root))) }
    /// `["+", a, b]`. O(1).
    public static func + (a: Expression, b: Expression) -> Expression { Expression(.arithmetic(.add, [a.root, b.root])) }
    /// `["-", a, b]`. O(1).
    public static func - (a: Expression, b: Expression) -> Expression { Expression(.arithmetic(.subtract, [a.root, b.root])) }
    /// `["*", a, b]`. O(1).
    public static func * (a: Expression, b: Expression) -> Expression { Expression(.arithmetic(.multiply, [a.root, b.root])) }
    /// `["/", a, b]`. O(1).
    public static func / (a: Expression, b: Expression) -> Expression { Expression(.arithmetic(.divide, [a.root, b.root])) }
    /// `["%", a, b]` (remainder with the sign of the dividend). O(1).
    public static func % (a: Expression, b: Expression) -> Expression { Expression(.arithmetic(.remainder, [a.root, b.root])) }
    /// `["-", a]`. O(1).
    public static prefix func - (a: Expression) -> Expression { Expression(.arithmetic(.subtract, [a.root])) }
    /// `["^", a, b]`. O(1).
    public static func power(_ a: Expression, _ b: Expression) -> Expression { Expression(.arithmetic(.power, [a.root, b.root])) }

    /// `["concat", …]`. O(n).
    public static func concat(_ items: Expression...) -> Expression { Expression(.concat(items.map(\.root))) }
    /// `["to-string", a]`. O(1).
    public static func toString(_ a: Expression) -> Expression { Expression(.toString(a.root)) }
    /// `["to-number", …]`. O(n).
    public static func toNumber(_ items: Expression...) -> Expression { Expression(.toNumber(items.map(\.root))) }
    /// `["to-boolean", a]`. O(1).
    public static func toBoolean(_ a: Expression) -> Expression { Expression(.toBoolean(a.root)) }
    /// `["number", …]`: the first operand that is a number. O(n).
    public static func number(_ items: Expression...) -> Expression { Expression(.assertType(.number, items.map(\.root))) }
    /// `["string", …]`: the first operand that is a string. O(n).
    public static func string(_ items: Expression...) -> Expression { Expression(.assertType(.string, items.map(\.root))) }
}

extension Node {
    /// The static type of a tree, as the parser infers it. O(size of the tree).
    var staticType: ExpressionType {
        switch self {
        case .literal(let v): return .of(v)
        case .get, .getDynamic, .getIn, .id, .accumulated, .at, .featureState: return .value
        case .has, .hasDynamic, .hasIn, .contains, .compare, .not, .all, .any, .toBoolean: return .boolean
        case .geometryType, .typeOf, .toString, .concat, .upcase, .downcase, .image, .format, .numberFormat:
            return .string
        case .properties: return .object
        case .zoom, .e, .pi, .ln2, .indexOf, .length, .arithmetic, .unary, .toNumber: return .number
        case .assertType(let t, _): return t
        case .assertArray: return .array
        case .slice(let x, _, _):
            let t = x.staticType
            return t == .array || t == .string ? t : .value
        case .conditional(_, let outputs, let fallback), .match(_, _, let outputs, let fallback):
            return ExpressionParser.common((outputs + [fallback]).map(\.staticType))
        case .coalesce(let xs): return ExpressionParser.common(xs.map(\.staticType).filter { $0 != .null })
        case .step(_, _, let outputs), .interpolate(_, _, _, let outputs):
            return ExpressionParser.common(outputs.map(\.staticType))
        }
    }
}
