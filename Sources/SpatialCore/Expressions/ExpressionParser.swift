/// Turns expression JSON into a typed ``Node`` tree, checking arity, literal types, stop order,
/// match labels and where `zoom` / `accumulated` may appear. One pass, O(size of the JSON).
struct ExpressionParser {
    /// Every operator name the parser knows.
    static let operators: Set<String> = [
        "get", "has", "id", "geometry-type", "properties", "zoom", "accumulated", "literal", "at", "in",
        "index-of", "length", "case", "match", "coalesce", "==", "!=", "<", "<=", ">", ">=", "!", "all",
        "any", "step", "interpolate", "+", "-", "*", "/", "%", "^", "min", "max", "abs", "ceil", "floor",
        "round", "sqrt", "ln", "log10", "log2", "sin", "cos", "tan", "asin", "acos", "atan", "e", "pi",
        "ln2", "typeof", "number", "string", "boolean", "array", "object", "to-number", "to-string",
        "to-boolean", "concat", "upcase", "downcase",
        // Beyond the spec's list (ExpressionParser+BeyondSpec.swift).
        "feature-state", "image", "format", "let", "var", "slice", "number-format",
    ]

    /// The deepest nesting accepted (evaluation recurses as deep as the tree).
    static let maximumDepth = 256

    let purpose: ExpressionPurpose
    /// Interned property names: `["get", name]` of one of them carries its slot.
    let slots: [String: Int]
    var path: [JSONPathComponent] = []
    /// The variables of the enclosing `let`s, innermost last, with the size of each bound tree.
    var bindings: [(name: String, node: Node, type: ExpressionType, size: Int)] = []
    /// The nodes of the tree as evaluation sees it, each `var` counting its bound tree again.
    var expandedSize = 0
    /// The most nodes an expression may expand to: nested `let`s whose variables are used twice
    /// double the tree at each level, and every walk over it (evaluation too) would follow.
    static let maximumExpandedSize = 100_000

    init(purpose: ExpressionPurpose, slots: [String: Int] = [:]) {
        self.purpose = purpose
        self.slots = slots
    }

    func fail(_ reason: String) -> ExpressionParseError {
        ExpressionParseError(components: path, reason: reason)
    }

    /// Parses a whole expression for the parser's purpose.
    mutating func parseRoot(_ json: JSONValue) throws(ExpressionParseError) -> (Node, ExpressionType) {
        try parse(json, zoom: purpose == .filter, topLevel: purpose == .value)
    }

    /// Parses `args[i]` (a child at index `i` of the current array).
    /// `topLevel`: the child stands in its parent's top-level place (`let`'s body, a top-level
    /// `coalesce`'s arguments), where a paint or layout value's zoom curve may be.
    mutating func child(
        _ args: [JSONValue], _ i: Int, zoom: Bool, expecting expected: ExpressionType = .value, topLevel: Bool = false
    ) throws(ExpressionParseError) -> (Node, ExpressionType) {
        path.append(.index(i))
        defer { path.removeLast() }
        let (node, type) = try parse(args[i], zoom: zoom, topLevel: topLevel)
        if !expected.accepts(type) {
            throw fail("expected \(expected) but found \(type)")
        }
        return (node, type)
    }

    /// Parses the value that `in` / `index-of` look for (`args[1]`): any scalar, never an array
    /// or object.
    mutating func searchNeedle(_ op: String, _ args: [JSONValue], zoom: Bool) throws(ExpressionParseError) -> Node {
        let (needle, type) = try child(args, 1, zoom: zoom)
        if type == .array || type == .object {
            throw failAt(1, "\"\(op)\" expects a boolean, string, number or null to look for, found \(type)")
        }
        return needle
    }

    /// Parses `args[i]` expecting a type, returning the node only.
    mutating func node(
        _ args: [JSONValue], _ i: Int, zoom: Bool, _ expected: ExpressionType = .value
    ) throws(ExpressionParseError) -> Node {
        try child(args, i, zoom: zoom, expecting: expected).0
    }

    func arity(_ op: String, _ args: [JSONValue], _ allowed: ClosedRange<Int>) throws(ExpressionParseError) {
        let n = args.count - 1
        guard allowed.contains(n) else {
            let expected: String
            if allowed.lowerBound == allowed.upperBound {
                expected = "\(allowed.lowerBound) argument\(allowed.lowerBound == 1 ? "" : "s")"
            } else if allowed.upperBound == Int.max {
                expected = "at least \(allowed.lowerBound) argument\(allowed.lowerBound == 1 ? "" : "s")"
            } else {
                expected = "\(allowed.lowerBound) to \(allowed.upperBound) arguments"
            }
            throw fail("\"\(op)\" expects \(expected), found \(n)")
        }
    }

    mutating func parse(_ json: JSONValue, zoom: Bool, topLevel: Bool = false) throws(ExpressionParseError)
        -> (Node, ExpressionType)
    {
        switch json {
        case .null, .bool, .number, .string:
            return (.literal(json), .of(json))
        case .object:
            throw fail("a bare object is not an expression; write [\"literal\", {...}] for an object constant")
        case .array(let args):
            expandedSize += 1
            guard path.count < Self.maximumDepth else {
                throw fail("expression nested more than \(Self.maximumDepth) levels deep")
            }
            guard let first = args.first else {
                throw fail("an empty array is not an expression; write [\"literal\", []] for an empty array")
            }
            guard case .string(let op) = first else {
                throw fail("the first element of an expression must be an operator name; write [\"literal\", [...]] for an array constant")
            }
            return try parseOperator(op, args, zoom: zoom, topLevel: topLevel)
        }
    }

    mutating func parseOperator(_ op: String, _ a: [JSONValue], zoom: Bool, topLevel: Bool)
        throws(ExpressionParseError) -> (Node, ExpressionType)
    {
        switch op {
        case "get", "has":
            try arity(op, a, 1...2)
            let isGet = op == "get"
            let type: ExpressionType = isGet ? .value : .boolean
            if a.count == 3 {
                let key = try node(a, 1, zoom: zoom, .string)
                let object = try node(a, 2, zoom: zoom, .object)
                return (isGet ? .getIn(key, object) : .hasIn(key, object), type)
            }
            if case .string(let name) = a[1] {
                let key = PropertyKey(name, slot: slots[name] ?? -1)
                return (isGet ? .get(key) : .has(key), type)
            }
            let key = try node(a, 1, zoom: zoom, .string)
            return (isGet ? .getDynamic(key) : .hasDynamic(key), type)
        case "id", "geometry-type", "properties", "e", "pi", "ln2":
            try arity(op, a, 0...0)
            switch op {
            case "id": return (.id, .value)
            case "geometry-type": return (.geometryType, .string)
            case "properties": return (.properties, .object)
            case "e": return (.e, .number)
            case "ln2": return (.ln2, .number)
            default: return (.pi, .number)
            }
        case "zoom":
            try arity(op, a, 0...0)
            guard zoom else {
                switch purpose {
                case .clusterMap, .clusterReduce:
                    throw fail("\"zoom\" is not available in cluster properties")
                default:
                    throw fail("\"zoom\" may only be the input of a top-level \"step\" or \"interpolate\"")
                }
            }
            return (.zoom, .number)
        case "accumulated":
            try arity(op, a, 0...0)
            guard purpose == .clusterReduce else {
                throw fail("\"accumulated\" is only valid in a cluster property's reduce expression")
            }
            return (.accumulated, .value)
        case "let":
            return try parseLet(a, zoom: zoom, topLevel: topLevel)
        case "literal":
            try arity(op, a, 1...1)
            return (.literal(a[1]), .of(a[1]))
        case "at":
            try arity(op, a, 2...2)
            let index = try node(a, 1, zoom: zoom, .number)
            // An array only, as upstream (`in`, `index-of` and `length` also take strings).
            let (target, type) = try child(a, 2, zoom: zoom)
            if type != .array && type != .value { throw failAt(2, "expected an array but found \(type)") }
            return (.at(index, target), .value)
        case "in":
            try arity(op, a, 2...2)
            let needle = try searchNeedle(op, a, zoom: zoom)
            let (haystack, type) = try child(a, 2, zoom: zoom)
            try requireSequence(type, at: 2)
            return (.contains(needle, haystack), .boolean)
        case "index-of":
            try arity(op, a, 2...3)
            let needle = try searchNeedle(op, a, zoom: zoom)
            let (haystack, type) = try child(a, 2, zoom: zoom)
            try requireSequence(type, at: 2)
            let from = a.count == 4 ? try node(a, 3, zoom: zoom, .number) : nil
            return (.indexOf(needle, haystack, from), .number)
        case "length":
            try arity(op, a, 1...1)
            let (target, type) = try child(a, 1, zoom: zoom)
            try requireSequence(type, at: 1)
            return (.length(target), .number)
        default:
            return try parseDecisionOrRamp(op, a, zoom: zoom, topLevel: topLevel)
        }
    }

    func failAt(_ i: Int, _ reason: String) -> ExpressionParseError {
        ExpressionParseError(components: path + [.index(i)], reason: reason)
    }

    func requireSequence(_ type: ExpressionType, at i: Int) throws(ExpressionParseError) {
        if type != .string && type != .array && type != .value {
            throw failAt(i, "expected a string or an array but found \(type)")
        }
    }

    /// The type of several branch outputs: their common type, else `value`.
    static func common(_ types: [ExpressionType]) -> ExpressionType {
        guard let first = types.first else { return .value }
        return types.allSatisfy { $0 == first } ? first : .value
    }

    mutating func parseDecisionOrRamp(_ op: String, _ a: [JSONValue], zoom: Bool, topLevel: Bool)
        throws(ExpressionParseError) -> (Node, ExpressionType)
    {
        switch op {
        case "case":
            guard a.count >= 4, a.count % 2 == 0 else {
                throw fail("\"case\" expects condition/output pairs and a fallback (an odd number of arguments, at least 3), found \(a.count - 1)")
            }
            var conditions: [Node] = []
            var outputs: [Node] = []
            var types: [ExpressionType] = []
            var i = 1
            while i + 1 < a.count {
                conditions.append(try node(a, i, zoom: zoom, .boolean))
                let (out, t) = try child(a, i + 1, zoom: zoom)
                outputs.append(out)
                types.append(t)
                i += 2
            }
            let (fallback, ft) = try child(a, a.count - 1, zoom: zoom)
            types.append(ft)
            return (.conditional(conditions, outputs, fallback), Self.common(types))
        case "match":
            return try parseMatch(a, zoom: zoom)
        case "coalesce":
            try arity(op, a, 1...Int.max)
            var nodes: [Node] = []
            var types: [ExpressionType] = []
            // A top-level `coalesce` passes that place on to its arguments, as the style
            // specification's parsers do: one of them may be the value's zoom curve.
            for i in 1..<a.count {
                let (n, t) = try child(a, i, zoom: zoom, topLevel: topLevel)
                nodes.append(n)
                types.append(t)
            }
            let node = Node.coalesce(nodes)
            if topLevel && Self.zoomCurveCount(node) > 1 {
                throw fail("only one zoom-based \"step\" or \"interpolate\" may be used in an expression")
            }
            return (node, Self.common(types.filter { $0 != .null }))
        case "==", "!=", "<", "<=", ">", ">=":
            return try parseComparison(ComparisonOperator(rawValue: op)!, a, zoom: zoom)
        case "!":
            try arity(op, a, 1...1)
            return (.not(try node(a, 1, zoom: zoom, .boolean)), .boolean)
        case "all", "any":
            var nodes: [Node] = []
            for i in a.indices.dropFirst() { nodes.append(try node(a, i, zoom: zoom, .boolean)) }
            return (op == "all" ? .all(nodes) : .any(nodes), .boolean)
        case "step":
            return try parseStep(a, zoom: zoom, topLevel: topLevel)
        case "interpolate":
            return try parseInterpolate(a, zoom: zoom, topLevel: topLevel)
        default:
            return try parseMathOrType(op, a, zoom: zoom)
        }
    }

    mutating func parseComparison(_ op: ComparisonOperator, _ a: [JSONValue], zoom: Bool)
        throws(ExpressionParseError) -> (Node, ExpressionType)
    {
        if a.count == 4 {
            throw fail("\"\(op.rawValue)\" with a collator is not supported; expects 2 arguments")
        }
        try arity(op.rawValue, a, 2...2)
        let (lhs, lt) = try child(a, 1, zoom: zoom)
        let (rhs, rt) = try child(a, 2, zoom: zoom)
        let equality = op == .equal || op == .notEqual
        let allowed: Set<ExpressionType> = equality ? [.string, .number, .boolean, .null, .value] : [.string, .number, .value]
        let what = equality ? "a string, number, boolean or null" : "a number or a string"
        if !allowed.contains(lt) { throw failAt(1, "\"\(op.rawValue)\" expects \(what), found \(lt)") }
        if !allowed.contains(rt) { throw failAt(2, "\"\(op.rawValue)\" expects \(what), found \(rt)") }
        if lt != .value && rt != .value && lt != rt {
            throw fail("cannot compare \(lt) and \(rt)")
        }
        return (.compare(op, lhs, rhs), .boolean)
    }

    mutating func parseMatch(_ a: [JSONValue], zoom: Bool) throws(ExpressionParseError) -> (Node, ExpressionType) {
        guard a.count >= 5, a.count % 2 == 1 else {
            throw fail("\"match\" expects an input, label/output pairs and a fallback (an even number of arguments, at least 4), found \(a.count - 1)")
        }
        let input = try node(a, 1, zoom: zoom)
        var labels: [[MatchLabel]] = []
        var outputs: [Node] = []
        var types: [ExpressionType] = []
        var seenStrings: Set<String> = []
        var seenNumbers: Set<Double> = []
        var labelIsString: Bool? = nil
        var i = 2
        while i + 1 < a.count {
            path.append(.index(i))
            let raw: [JSONValue]
            if case .array(let list) = a[i] {
                guard !list.isEmpty else { throw fail("a match label list must not be empty") }
                raw = list
            } else {
                raw = [a[i]]
            }
            var group: [MatchLabel] = []
            for value in raw {
                let label: MatchLabel
                switch value {
                case .string(let s):
                    label = .string(s)
                    if labelIsString == false { throw fail("match labels must all be of one type (found a string among numbers)") }
                    labelIsString = true
                    guard seenStrings.insert(s).inserted else { throw fail("duplicate match label \"\(s)\"") }
                case .number(let n):
                    guard n.isFinite, n == n.rounded(), Swift.abs(n) <= 9_007_199_254_740_991 else {
                        throw fail("numeric match labels must be integers, found \(JSONText.number(n))")
                    }
                    let key = n == 0 ? 0 : n
                    label = .number(key)
                    if labelIsString == true { throw fail("match labels must all be of one type (found a number among strings)") }
                    labelIsString = false
                    guard seenNumbers.insert(key).inserted else { throw fail("duplicate match label \(JSONText.number(n))") }
                default:
                    throw fail("match labels must be literal strings or integers, found \(ExpressionType.of(value))")
                }
                group.append(label)
            }
            path.removeLast()
            labels.append(group)
            let (out, t) = try child(a, i + 1, zoom: zoom)
            outputs.append(out)
            types.append(t)
            i += 2
        }
        let (fallback, ft) = try child(a, a.count - 1, zoom: zoom)
        types.append(ft)
        return (.match(input, labels, outputs, fallback), Self.common(types))
    }

    /// How many zoom curves (a `step` or `interpolate` whose input is the zoom) stand in
    /// `node`'s top-level place: itself, or the arguments of a top-level `coalesce`, nested ones
    /// included. O(arguments of nested `coalesce`s).
    static func zoomCurveCount(_ node: Node) -> Int {
        switch node {
        case .step(.zoom, _, _), .interpolate(_, .zoom, _, _): 1
        case .coalesce(let args): args.reduce(0) { $0 + zoomCurveCount($1) }
        default: 0
        }
    }

    /// Parses the ramp input; in a paint/layout value, a top-level ramp may take `["zoom"]` exactly.
    mutating func rampInput(_ a: [JSONValue], _ i: Int, zoom: Bool, topLevel: Bool) throws(ExpressionParseError) -> Node {
        if topLevel && purpose == .value && a[i] == ["zoom"] { return .zoom }
        return try node(a, i, zoom: zoom, .number)
    }

    /// Reads the literal stop inputs at `first, first+2, …`, checking strict ascending order.
    mutating func stops(_ a: [JSONValue], from first: Int) throws(ExpressionParseError) -> [Double] {
        var result: [Double] = []
        var i = first
        while i < a.count {
            guard case .number(let s) = a[i] else {
                throw failAt(i, "stop inputs must be literal numbers, found \(ExpressionType.of(a[i]))")
            }
            if let last = result.last, !(s > last) {
                throw failAt(i, "stop inputs must be in strictly ascending order (\(JSONText.number(s)) after \(JSONText.number(last)))")
            }
            result.append(s)
            i += 2
        }
        return result
    }

    mutating func parseStep(_ a: [JSONValue], zoom: Bool, topLevel: Bool) throws(ExpressionParseError) -> (Node, ExpressionType) {
        guard a.count >= 3, a.count % 2 == 1 else {
            throw fail("\"step\" expects an input, a first output and stop/output pairs (an even number of arguments, at least 2), found \(a.count - 1)")
        }
        let input = try rampInput(a, 1, zoom: zoom, topLevel: topLevel)
        let stopValues = try stops(a, from: 3)
        var outputs: [Node] = []
        var types: [ExpressionType] = []
        var i = 2
        while i < a.count {
            let (out, t) = try child(a, i, zoom: zoom)
            outputs.append(out)
            types.append(t)
            i += 2
        }
        return (.step(input, stopValues, outputs), Self.common(types))
    }

    mutating func parseInterpolate(_ a: [JSONValue], zoom: Bool, topLevel: Bool) throws(ExpressionParseError) -> (Node, ExpressionType) {
        guard a.count >= 5, a.count % 2 == 1 else {
            throw fail("\"interpolate\" expects an interpolation type, an input and at least one stop/output pair, found \(a.count - 1) arguments")
        }
        path.append(.index(1))
        let curve = try interpolation(a[1])
        path.removeLast()
        let input = try rampInput(a, 2, zoom: zoom, topLevel: topLevel)
        let stopValues = try stops(a, from: 3)
        var outputs: [Node] = []
        var types: [ExpressionType] = []
        var length: Int? = nil
        var i = 4
        while i < a.count {
            let (out, t) = try child(a, i, zoom: zoom)
            if t != .number && t != .array && t != .value {
                throw failAt(i, "interpolate outputs must be numbers or arrays of numbers, found \(t)")
            }
            if case .literal(.array(let items)) = out {
                guard items.allSatisfy({ $0.numberValue != nil }) else {
                    throw failAt(i, "interpolate outputs must be numbers or arrays of numbers")
                }
                if let length, length != items.count {
                    throw failAt(i, "interpolated arrays must all have the same length (\(length), found \(items.count))")
                }
                length = items.count
            }
            outputs.append(out)
            types.append(t)
            i += 2
        }
        return (.interpolate(curve, input, stopValues, outputs), Self.common(types))
    }

    func interpolation(_ json: JSONValue) throws(ExpressionParseError) -> Interpolation {
        guard case .array(let spec) = json, case .string(let name)? = spec.first else {
            throw fail("expected an interpolation type: [\"linear\"], [\"exponential\", base] or [\"cubic-bezier\", x1, y1, x2, y2]")
        }
        // As the style specification's reference parser: `linear` ignores any further elements
        // and `exponential` any after its base (one of the specification's own cases has one).
        switch name {
        case "linear":
            return .linear
        case "exponential":
            if spec.count >= 2, case .number(let base) = spec[1] { return .exponential(base) }
        case "cubic-bezier":
            let numbers = spec.dropFirst().compactMap(\.numberValue)
            if spec.count == 5 && numbers.count == 4 {
                guard numbers.allSatisfy({ $0 >= 0 && $0 <= 1 }) else {
                    throw fail("cubic-bezier control points must be numbers between 0 and 1")
                }
                return .cubicBezier(numbers[0], numbers[1], numbers[2], numbers[3])
            }
        default:
            throw fail("unknown interpolation type \"\(name)\"")
        }
        throw fail("malformed [\"\(name)\"] interpolation: expected [\"linear\"], [\"exponential\", base] or [\"cubic-bezier\", x1, y1, x2, y2] with literal numbers")
    }

    mutating func parseMathOrType(_ op: String, _ a: [JSONValue], zoom: Bool) throws(ExpressionParseError) -> (Node, ExpressionType) {
        if let arithmetic = ArithmeticOperator(rawValue: op) {
            switch arithmetic {
            case .add, .multiply: try arity(op, a, 0...Int.max)
            case .subtract: try arity(op, a, 1...2)
            case .divide, .remainder, .power: try arity(op, a, 2...2)
            case .min, .max: try arity(op, a, 1...Int.max)
            }
            var nodes: [Node] = []
            for i in a.indices.dropFirst() { nodes.append(try node(a, i, zoom: zoom, .number)) }
            return (.arithmetic(arithmetic, nodes), .number)
        }
        if let unary = UnaryMathOperator(rawValue: op) {
            try arity(op, a, 1...1)
            return (.unary(unary, try node(a, 1, zoom: zoom, .number)), .number)
        }
        switch op {
        case "typeof":
            try arity(op, a, 1...1)
            return (.typeOf(try node(a, 1, zoom: zoom)), .string)
        case "number", "string", "boolean", "object":
            try arity(op, a, 1...Int.max)
            let type: ExpressionType = op == "number" ? .number : op == "string" ? .string : op == "boolean" ? .boolean : .object
            var nodes: [Node] = []
            for i in a.indices.dropFirst() { nodes.append(try node(a, i, zoom: zoom)) }
            return (.assertType(type, nodes), type)
        case "array":
            // ["array", v], ["array", type, v], or ["array", type, length-or-null, v, …]: like the
            // other assertions it tries its values in order; with two or more the length slot is there.
            try arity(op, a, 1...Int.max)
            var item = ArrayItemType.value
            var length: Int? = nil
            if a.count >= 3 {
                guard case .string(let name) = a[1], let t = ArrayItemType(rawValue: name) else {
                    throw failAt(1, "the array item type must be \"string\", \"number\", \"boolean\" or \"value\"")
                }
                item = t
            }
            if a.count >= 4 {
                switch a[2] {
                case .null: break
                case .number(let n) where n >= 0 && n == n.rounded() && n < 1e9: length = Int(n)
                default: throw failAt(2, "the array length must be a literal non-negative integer (or null for any length)")
                }
            }
            var values: [Node] = []
            for i in (a.count >= 4 ? 3 : a.count - 1)..<a.count { values.append(try node(a, i, zoom: zoom)) }
            return (.assertArray(item, length, values), .array)
        case "to-number":
            try arity(op, a, 1...Int.max)
            var nodes: [Node] = []
            for i in a.indices.dropFirst() { nodes.append(try node(a, i, zoom: zoom)) }
            return (.toNumber(nodes), .number)
        case "to-string":
            try arity(op, a, 1...1)
            return (.toString(try node(a, 1, zoom: zoom)), .string)
        case "to-boolean":
            try arity(op, a, 1...1)
            return (.toBoolean(try node(a, 1, zoom: zoom)), .boolean)
        case "concat":
            var nodes: [Node] = []
            for i in a.indices.dropFirst() { nodes.append(try node(a, i, zoom: zoom)) }
            return (.concat(nodes), .string)
        case "upcase", "downcase":
            try arity(op, a, 1...1)
            let n = try node(a, 1, zoom: zoom, .string)
            return (op == "upcase" ? .upcase(n) : .downcase(n), .string)
        default:
            return try parseOperatorBeyondSpec(op, a, zoom: zoom)
        }
    }
}
