// Legacy filters (`["==", "key", v]`, `has`, `!has`, `in`, `!in`, `all`, `any`, `none`, `$type`,
// `$id`), told apart from expression filters as the style spec does, and converted to expression
// trees in which a type mismatch is simply false.

extension Expression {
    /// Parses a layer filter or query predicate: an expression filter, or a legacy filter
    /// converted to the equivalent expression. A bare `true`/`false` is a constant filter.
    ///
    /// - Throws: ``ExpressionParseError`` with the JSON path and reason (also when the expression
    ///   cannot yield a Boolean).
    /// - Complexity: O(size of the JSON).
    public init(filter json: JSONValue) throws(ExpressionParseError) {
        if Expression.isExpressionFilter(json) {
            try self.init(json: json, purpose: .filter)
            if type != .boolean && type != .value {
                throw ExpressionParseError(reason: "a filter must yield a Boolean, found \(type)")
            }
        } else {
            var path: [JSONPathComponent] = []
            let converted = try Expression.convertLegacyFilter(json, path: &path)
            try self.init(json: converted, purpose: .filter)
        }
    }

    /// Whether a filter is written in the expression syntax (else it is a legacy filter): the
    /// style spec's rule — a legacy filter's operator is one of the legacy set and its second
    /// element is a bare key string; `!has`, `!in` and `none` are legacy only. O(size).
    public static func isExpressionFilter(_ json: JSONValue) -> Bool {
        guard case .array(let items) = json else { return json.boolValue != nil }
        guard case .string(let op)? = items.first else { return false }
        switch op {
        case "has":
            if items.count < 2 { return true }
            return items[1] != "$id" && items[1] != "$type"
        case "in":
            guard items.count >= 3 else { return false }
            if case .string = items[1] { return items[2].arrayValue != nil }
            return true
        case "!in", "!has", "none":
            return false
        case "==", "!=", ">", ">=", "<", "<=":
            return items.count != 3 || items[1].arrayValue != nil || items[2].arrayValue != nil
        case "any", "all":
            return items.dropFirst().allSatisfy { isExpressionFilter($0) || $0.boolValue != nil }
        default:
            return true
        }
    }

    /// Converts a legacy filter to expression JSON; `path` is the position for errors.
    static func convertLegacyFilter(_ json: JSONValue, path: inout [JSONPathComponent]) throws(ExpressionParseError) -> JSONValue {
        func fail(_ reason: String) -> ExpressionParseError { ExpressionParseError(components: path, reason: reason) }
        if case .bool = json { return json }
        guard path.count < ExpressionParser.maximumDepth else { throw fail("filter nested more than \(ExpressionParser.maximumDepth) levels deep") }
        guard case .array(let items) = json, case .string(let op)? = items.first else {
            throw fail("a legacy filter must be an array starting with an operator")
        }
        func key(_ i: Int) throws(ExpressionParseError) -> String {
            guard i < items.count, case .string(let k) = items[i] else {
                path.append(.index(i))
                throw fail("a legacy filter needs a property key string here")
            }
            return k
        }
        func scalar(_ i: Int) throws(ExpressionParseError) -> JSONValue {
            switch items[i] {
            case .array, .object:
                path.append(.index(i))
                throw fail("legacy filter values must be strings, numbers, Booleans or null")
            default: return items[i]
            }
        }
        switch op {
        case "all", "any", "none":
            var converted: [JSONValue] = [op == "all" ? "all" : "any"]
            for i in items.indices.dropFirst() {
                path.append(.index(i))
                if isExpressionFilter(items[i]) {
                    converted.append(items[i])
                } else {
                    converted.append(try convertLegacyFilter(items[i], path: &path))
                }
                path.removeLast()
            }
            return op == "none" ? ["!", .array(converted)] : .array(converted)
        case "has", "!has":
            guard items.count == 2 else { throw fail("\"\(op)\" takes one key, found \(items.count - 1)") }
            let k = try key(1)
            let has: JSONValue = k == "$type" ? true : k == "$id" ? ["!=", ["id"], nil] : ["has", .string(k)]
            return op == "has" ? has : ["!", has]
        case "in", "!in":
            guard items.count >= 2 else { throw fail("\"\(op)\" needs a key") }
            let k = try key(1)
            var tests: [JSONValue] = ["any"]
            for i in 2..<items.count { tests.append(equality(k, try scalar(i))) }
            return op == "in" ? .array(tests) : ["!", .array(tests)]
        case "==", "!=":
            guard items.count == 3 else { throw fail("legacy \"\(op)\" takes a key and a value, found \(items.count - 1) arguments") }
            let test = equality(try key(1), try scalar(2))
            return op == "==" ? test : ["!", test]
        case "<", "<=", ">", ">=":
            guard items.count == 3 else { throw fail("legacy \"\(op)\" takes a key and a value, found \(items.count - 1) arguments") }
            let k = try key(1)
            let v = try scalar(2)
            let typeName: String
            switch v {
            case .number: typeName = "number"
            case .string: typeName = "string"
            default: return false  // Booleans and null are never ordered: always false.
            }
            if k == "$type" && typeName != "string" { return false }
            let get = legacyGet(k)
            return ["all", ["==", ["typeof", get], .string(typeName)], [.string(op), get, v]]
        default:
            throw fail("unknown legacy filter operator \"\(op)\"")
        }
    }

    /// The value a legacy key reads: `$type` the geometry type, `$id` the id, else the property.
    static func legacyGet(_ key: String) -> JSONValue {
        key == "$type" ? ["geometry-type"] : key == "$id" ? ["id"] : ["get", .string(key)]
    }

    /// Legacy `key == value` (strict; false on a type mismatch; `$type` "Point" also matches
    /// "MultiPoint" and so on, as vector-tile types do).
    static func equality(_ key: String, _ value: JSONValue) -> JSONValue {
        if key == "$type" {
            if case .string(let t) = value, ["Point", "LineString", "Polygon"].contains(t) {
                return ["match", ["geometry-type"], [.string(t), .string("Multi" + t)], true, false]
            }
            if case .string = value { return ["==", ["geometry-type"], value] }
            return false
        }
        if key == "$id" { return ["==", ["id"], value] }
        if value.isNull { return ["all", ["has", .string(key)], ["==", ["get", .string(key)], nil]] }
        return ["==", ["get", .string(key)], value]
    }
}
