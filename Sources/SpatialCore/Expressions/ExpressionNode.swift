/// The static type of an expression, inferred at parse time (the style spec's type system,
/// with colours carried as strings).
public enum ExpressionType: Hashable, Sendable, CustomStringConvertible {
    /// A number (`Double`).
    case number
    /// A string (colours are carried as strings).
    case string
    /// A Boolean.
    case boolean
    /// The null value.
    case null
    /// A JSON object.
    case object
    /// A JSON array.
    case array
    /// Known only at run time (for example the result of `get`).
    case value

    /// The name used in error messages and by `typeof`. O(1).
    public var description: String {
        switch self {
        case .number: "number"
        case .string: "string"
        case .boolean: "boolean"
        case .null: "null"
        case .object: "object"
        case .array: "array"
        case .value: "value"
        }
    }

    /// The type of a JSON value. O(1).
    @inlinable public static func of(_ value: JSONValue) -> ExpressionType {
        switch value {
        case .null: .null
        case .bool: .boolean
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    /// Whether a value of type `other` may flow where `self` is expected (value matches all). O(1).
    @inlinable func accepts(_ other: ExpressionType) -> Bool {
        self == .value || other == .value || self == other
    }
}

/// What a parsed expression is for; decides where `zoom` and `accumulated` may appear.
public enum ExpressionPurpose: Hashable, Sendable {
    /// A layer filter or a query predicate: `zoom` anywhere, no `accumulated`.
    case filter
    /// A paint or layout value: `zoom` only as the input of a top-level `step` / `interpolate`.
    case value
    /// A cluster property's map expression (evaluated per point): no `zoom`, no `accumulated`.
    case clusterMap
    /// A cluster property's reduce expression: `accumulated` allowed, no `zoom`.
    case clusterReduce
}

/// The comparison operators.
@usableFromInline enum ComparisonOperator: String, Hashable, Sendable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
}

/// Math operators taking a list of operands (`+`, `*`, `min`, `max`: one or more or any;
/// `-`: one or two; `/`, `%`, `^`: two).
@usableFromInline enum ArithmeticOperator: String, Hashable, Sendable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case remainder = "%"
    case power = "^"
    case min
    case max
}

/// One-operand math functions.
@usableFromInline enum UnaryMathOperator: String, Hashable, Sendable, CaseIterable {
    case abs, ceil, floor, round, sqrt, ln, log10, log2, sin, cos, tan, asin, acos, atan
}

/// The interpolation curve of an `interpolate` expression.
public enum Interpolation: Hashable, Sendable {
    /// Straight lines between stops.
    case linear
    /// `t = (base^(x−lo) − 1) / (base^(hi−lo) − 1)`; base 1 is linear.
    case exponential(Double)
    /// The unit cubic Bézier with control points (x1, y1) and (x2, y2).
    case cubicBezier(Double, Double, Double, Double)
}

/// A `match` branch label: a string or an integer number.
@usableFromInline enum MatchLabel: Hashable, Sendable {
    case string(String)
    case number(Double)

    @usableFromInline var jsonValue: JSONValue {
        switch self {
        case .string(let s): .string(s)
        case .number(let n): .number(n)
        }
    }
}

/// The array item type of an `array` assertion.
@usableFromInline enum ArrayItemType: String, Hashable, Sendable {
    case value, number, string, boolean
}

/// A node of the typed expression tree.
///
/// Constants are kept as JSON values so that evaluation returns them without allocating;
/// `get` with a literal key holds a precomputed ``PropertyKey``.
@usableFromInline indirect enum Node: Hashable, Sendable {
    case literal(JSONValue)
    case get(PropertyKey)
    case getDynamic(Node)
    case getIn(Node, Node)
    case has(PropertyKey)
    case hasDynamic(Node)
    case hasIn(Node, Node)
    case id
    case geometryType
    case properties
    case zoom
    case accumulated
    case at(Node, Node)
    case contains(Node, Node)
    case indexOf(Node, Node, Node?)
    case length(Node)
    case conditional([Node], [Node], Node)
    case match(Node, [[MatchLabel]], [Node], Node)
    case coalesce([Node])
    case compare(ComparisonOperator, Node, Node)
    case not(Node)
    case all([Node])
    case any([Node])
    case step(Node, [Double], [Node])
    case interpolate(Interpolation, Node, [Double], [Node])
    case arithmetic(ArithmeticOperator, [Node])
    case unary(UnaryMathOperator, Node)
    case e
    case pi
    /// `["ln2"]`: the natural logarithm of 2 (in the style specification, not in `expressions.md`'s list).
    case ln2
    case typeOf(Node)
    case assertType(ExpressionType, [Node])
    case assertArray(ArrayItemType, Int?, [Node])
    case toNumber([Node])
    case toString(Node)
    case toBoolean(Node)
    case concat([Node])
    case upcase(Node)
    case downcase(Node)
    // Operators beyond the spec's list (see ExpressionParser+BeyondSpec.swift).
    case featureState(Node)
    case image(Node)
    case format([FormatSection])
    case slice(Node, Node, Node?)
    case numberFormat(NumberFormatOptions)
}

/// The operands of `["number-format", input, {options}]`.
@usableFromInline struct NumberFormatOptions: Hashable, Sendable {
    @usableFromInline var input: Node
    @usableFromInline var locale: Node?
    @usableFromInline var currency: Node?
    @usableFromInline var minFractionDigits: Node?
    @usableFromInline var maxFractionDigits: Node?
}

/// One section of a `format` expression: its content (text, or an `image` for an inline image)
/// and its `font-scale`, when given. The other section options (`text-font`, `text-color`,
/// `vertical-align`) do not change a footprint and are not kept.
@usableFromInline struct FormatSection: Hashable, Sendable {
    @usableFromInline let content: Node
    @usableFromInline let scale: Node?

    @usableFromInline init(content: Node, scale: Node?) {
        self.content = content
        self.scale = scale
    }
}
