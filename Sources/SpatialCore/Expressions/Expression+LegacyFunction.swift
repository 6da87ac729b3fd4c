// Legacy style functions `{"type", "property", "base", "stops", "default"}` converted to the
// equivalent expression: exponential → interpolate, interval → step (first stop input dropped),
// categorical → match (Boolean or non-integer keys via case), identity → get; zoom, property and
// zoom-and-property functions.

extension Expression {
    /// Parses a paint or layout value: a constant (number, string, Boolean, null, or an array
    /// constant such as `[0, 2]`), an expression (purpose ``ExpressionPurpose/value``), or a legacy
    /// style function object converted to an expression.
    ///
    /// - Parameters:
    ///   - json: the style property value: a constant, an expression, or a legacy function object.
    ///   - interpolatable: whether the property is numeric (decides a legacy function's
    ///     default type: exponential when numeric, else interval); `nil` guesses from the stop outputs.
    /// - Throws: ``ExpressionParseError`` with the JSON path and reason.
    /// - Complexity: O(size of the JSON).
    public init(styleValue json: JSONValue, interpolatable: Bool? = nil) throws(ExpressionParseError) {
        switch json {
        case .object(let function):
            try self.init(legacyFunction: function, interpolatable: interpolatable)
        case .array(let items):
            if case .string(let op)? = items.first, ExpressionParser.operators.contains(op) {
                try self.init(json: json, purpose: .value)
            } else {
                self.init(root: .literal(json), type: .array)
            }
        default:
            self.init(root: .literal(json), type: .of(json))
        }
    }

    /// Converts a legacy style function to its expression.
    ///
    /// - Throws: ``ExpressionParseError`` (paths such as `stops[2][0]`).
    /// - Complexity: O(number of stops · log).
    public init(legacyFunction function: JSONObject, interpolatable: Bool? = nil) throws(ExpressionParseError) {
        let converted = try Expression.convertLegacyFunction(function, interpolatable: interpolatable)
        do {
            try self.init(json: converted, purpose: .value)
        } catch {
            throw ExpressionParseError(components: [.key("stops")], reason: "invalid function: \(error.reason)")
        }
    }

    static func convertLegacyFunction(_ f: JSONObject, interpolatable: Bool?) throws(ExpressionParseError) -> JSONValue {
        func fail(_ components: [JSONPathComponent], _ reason: String) -> ExpressionParseError {
            ExpressionParseError(components: components, reason: reason)
        }
        var property: String? = nil
        if let p = f["property"] {
            guard case .string(let name) = p else { throw fail([.key("property")], "\"property\" must be a string") }
            property = name
        }
        var base = 1.0
        if let b = f["base"] {
            guard case .number(let n) = b else { throw fail([.key("base")], "\"base\" must be a number") }
            base = n
        }
        let defaultValue = f["default"]
        var stops: [(input: JSONValue, output: JSONValue)] = []
        if let s = f["stops"] {
            guard case .array(let list) = s else { throw fail([.key("stops")], "\"stops\" must be an array of [input, output] pairs") }
            for (i, stop) in list.enumerated() {
                guard case .array(let pair) = stop, pair.count == 2 else {
                    throw fail([.key("stops"), .index(i)], "a stop must be an [input, output] pair")
                }
                stops.append((pair[0], pair[1]))
            }
        }
        let numericOutputs = !stops.isEmpty && stops.allSatisfy { stop in
            if case .number = stop.output { return true }
            if case .array(let items) = stop.output { return items.allSatisfy { $0.numberValue != nil } }
            return false
        }
        let type: String
        if let t = f["type"] {
            guard case .string(let name) = t, ["exponential", "interval", "categorical", "identity"].contains(name) else {
                throw fail([.key("type")], "\"type\" must be \"exponential\", \"interval\", \"categorical\" or \"identity\"")
            }
            type = name
        } else {
            type = (interpolatable ?? numericOutputs) ? "exponential" : "interval"
        }
        if type == "identity" {
            guard let property else { throw fail([], "an identity function needs a \"property\"") }
            let get: JSONValue = ["get", .string(property)]
            guard let defaultValue else { return get }
            switch defaultValue {
            case .number: return ["case", ["==", ["typeof", get], "number"], get, defaultValue]
            case .string: return ["case", ["==", ["typeof", get], "string"], get, defaultValue]
            case .bool: return ["case", ["==", ["typeof", get], "boolean"], get, defaultValue]
            default: return ["coalesce", get, literal(defaultValue)]
            }
        }
        guard !stops.isEmpty else { throw fail([.key("stops")], "a \(type) function needs at least one stop") }
        if type == "exponential" && !numericOutputs {
            throw fail([.key("stops")], "exponential function outputs must be numbers or arrays of numbers")
        }
        let zoomAndProperty = property != nil && stops.first.map { $0.input.objectValue != nil } == true
        if zoomAndProperty {
            // Group the stops by zoom; each zoom level gets its own property function.
            var zooms: [Double] = []
            var groups: [[(input: JSONValue, output: JSONValue)]] = []
            for (i, stop) in stops.enumerated() {
                guard case .object(let key) = stop.input, case .number(let z)? = key["zoom"], let value = key["value"] else {
                    throw fail([.key("stops"), .index(i), .index(0)], "zoom-and-property stops must be {\"zoom\": number, \"value\": …}")
                }
                if zooms.last != z {
                    zooms.append(z)
                    groups.append([])
                }
                groups[groups.count - 1].append((value, stop.output))
            }
            var outer: [JSONValue]
            let inner = try groups.map { (group) throws(ExpressionParseError) -> JSONValue in
                try propertyFunction(type, property!, base, group, defaultValue)
            }
            if type == "exponential" {
                outer = ["interpolate", curve(base), ["zoom"]]
                for (z, e) in zip(zooms, inner) { outer += [.number(z), e] }
            } else {
                outer = ["step", ["zoom"], inner[0]]
                for (z, e) in zip(zooms.dropFirst(), inner.dropFirst()) { outer += [.number(z), e] }
            }
            return .array(outer)
        }
        if let property {
            return try propertyFunction(type, property, base, stops, defaultValue)
        }
        // A zoom function.
        for (i, stop) in stops.enumerated() where stop.input.numberValue == nil {
            throw fail([.key("stops"), .index(i), .index(0)], "zoom function stop inputs must be numbers")
        }
        switch type {
        case "exponential":
            var e: [JSONValue] = ["interpolate", curve(base), ["zoom"]]
            for stop in stops { e += [stop.input, literal(stop.output)] }
            return .array(e)
        case "interval":
            var e: [JSONValue] = ["step", ["zoom"], literal(stops[0].output)]
            for stop in stops.dropFirst() { e += [stop.input, literal(stop.output)] }
            return .array(e)
        default:
            throw fail([.key("type")], "a zoom function (no \"property\") must be exponential or interval")
        }
    }

    static func curve(_ base: Double) -> JSONValue { base == 1 ? ["linear"] : ["exponential", .number(base)] }

    /// A constant as expression JSON (arrays and objects wrapped in `literal`).
    static func literal(_ v: JSONValue) -> JSONValue {
        switch v {
        case .array, .object: ["literal", v]
        default: v
        }
    }

    /// A property function (or one zoom level of a zoom-and-property function).
    static func propertyFunction(
        _ type: String, _ property: String, _ base: Double,
        _ stops: [(input: JSONValue, output: JSONValue)], _ defaultValue: JSONValue?
    ) throws(ExpressionParseError) -> JSONValue {
        let get: JSONValue = ["get", .string(property)]
        let fallback = defaultValue.map(literal) ?? .null
        switch type {
        case "categorical":
            let keys = stops.map(\.input)
            let allStrings = keys.allSatisfy { $0.stringValue != nil }
            let allIntegers = keys.allSatisfy { k in k.numberValue.map { $0 == $0.rounded() && $0.isFinite } ?? false }
            if (allStrings || allIntegers) && Set(keys).count == keys.count {
                var e: [JSONValue] = ["match", get]
                for stop in stops { e += [stop.input, literal(stop.output)] }
                return .array(e + [fallback])
            }
            var e: [JSONValue] = ["case"]
            for (i, stop) in stops.enumerated() {
                switch stop.input {
                case .array, .object, .null:
                    throw ExpressionParseError(components: [.key("stops"), .index(i), .index(0)],
                        reason: "categorical stop inputs must be strings, numbers or Booleans")
                default: e += [["==", get, stop.input], literal(stop.output)]
                }
            }
            return .array(e + [fallback])
        case "interval", "exponential":
            for (i, stop) in stops.enumerated() where stop.input.numberValue == nil {
                throw ExpressionParseError(components: [.key("stops"), .index(i), .index(0)],
                    reason: "\(type) property function stop inputs must be numbers")
            }
            var ramp: [JSONValue]
            if type == "interval" {
                ramp = ["step", get, literal(stops[0].output)]
                for stop in stops.dropFirst() { ramp += [stop.input, literal(stop.output)] }
            } else {
                ramp = ["interpolate", curve(base), get]
                for stop in stops { ramp += [stop.input, literal(stop.output)] }
            }
            return ["case", ["==", ["typeof", get], "number"], .array(ramp), fallback]
        default:
            throw ExpressionParseError(components: [.key("type")], reason: "unsupported function type \"\(type)\"")
        }
    }
}
