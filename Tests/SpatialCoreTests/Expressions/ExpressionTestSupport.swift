import Testing
import SpatialCore

/// What a table case expects.
enum Expected: Sendable, CustomStringConvertible {
    /// This exact value (numbers: NaN equals NaN, and the sign of zero counts).
    case value(JSONValue)
    /// A number within a tolerance.
    case approximately(Double, Double)
    /// An evaluation error (`evaluate` returns nil).
    case evaluationError
    /// A parse error at load time.
    case parseError

    var description: String {
        switch self {
        case .value(let v): compact(v)
        case .approximately(let x, let tol): "\(x) ± \(tol)"
        case .evaluationError: "evaluation error"
        case .parseError: "parse error"
        }
    }
}

/// One row of a table: an expression, the purpose it is parsed for, the context, the expectation.
struct ExpressionCase: Sendable, CustomTestStringConvertible {
    var json: JSONValue
    var expected: Expected
    var purpose: ExpressionPurpose = .filter
    var zoom: Double = 0
    var properties: JSONObject = ExpressionCase.sampleProperties

    var testDescription: String { "\(compact(json)) → \(expected)" }

    /// The properties most cases read.
    static let sampleProperties: JSONObject = [
        "n": 5, "s": "abc", "b": true, "z": nil, "neg": -2.5, "arr": [1, 2, 3], "obj": ["k": 1],
        "str1": "1", "FLOW": 1200, "ENGINEID": "E-9", "zero": 0, "negzero": -0.0, "big": 1e300,
        "emoji": "a😀b", "point_count": 75, "POITYPE": "Trailhead",
    ]
}

func c(_ json: JSONValue, _ expected: JSONValue, zoom: Double = 0, purpose: ExpressionPurpose = .filter) -> ExpressionCase {
    ExpressionCase(json: json, expected: .value(expected), purpose: purpose, zoom: zoom)
}

func approx(_ json: JSONValue, _ expected: Double, _ tolerance: Double = 1e-9, zoom: Double = 0,
    purpose: ExpressionPurpose = .filter) -> ExpressionCase
{
    ExpressionCase(json: json, expected: .approximately(expected, tolerance), purpose: purpose, zoom: zoom)
}

func failsAtRunTime(_ json: JSONValue, purpose: ExpressionPurpose = .filter) -> ExpressionCase {
    ExpressionCase(json: json, expected: .evaluationError, purpose: purpose)
}

func rejected(_ json: JSONValue, purpose: ExpressionPurpose = .filter) -> ExpressionCase {
    ExpressionCase(json: json, expected: .parseError, purpose: purpose)
}

/// NaN-aware, zero-sign-aware equality of JSON values.
func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.number(let x), .number(let y)):
        if x.isNaN || y.isNaN { return x.isNaN && y.isNaN }
        return x == y && x.sign == y.sign
    case (.array(let p), .array(let q)):
        return p.count == q.count && zip(p, q).allSatisfy { same($0, $1) }
    default:
        return a == b
    }
}

/// Runs one case: parse for its purpose, evaluate on a context with id 7 and geometry `Point`.
/// Returns a failure message, or nil when the case holds.
func check(_ row: ExpressionCase) -> String? {
    let expression: Expression
    do {
        expression = try Expression(json: row.json, purpose: row.purpose)
    } catch {
        if case .parseError = row.expected { return nil }
        return "unexpected parse error \(error)"
    }
    if case .parseError = row.expected { return "parsed, but a parse error was expected" }
    let context = JSONObjectExpressionContext(
        properties: row.properties, zoom: row.zoom, featureID: .number(7), geometryType: "Point")
    let result = expression.evaluate(context)
    // The borrowed context (keys found by position, with each site's position hint) agrees,
    // on the first evaluation and on a second one that starts from the hints the first left.
    for pass in 1...2 {
        let borrowed = row.properties.withExpressionContext(zoom: row.zoom, featureID: .number(7), geometryType: "Point") {
            expression.evaluate($0)
        }
        let agree = switch (result, borrowed) {
        case (nil, nil): true
        case (let a?, let b?): same(a, b)
        default: false
        }
        if !agree { return "borrowed context (pass \(pass)) gave \(String(describing: borrowed)), plain gave \(String(describing: result))" }
    }
    // Printing and parsing again gives the same tree, with the same result.
    if let again = try? Expression(json: expression.jsonValue, purpose: row.purpose) {
        if again != expression { return "print/parse round trip changed the tree: \(expression.jsonValue)" }
    } else {
        return "printed form does not parse: \(expression.jsonValue)"
    }
    switch row.expected {
    case .value(let v):
        guard let result else { return "evaluation error, expected \(v)" }
        return same(result, v) ? nil : "got \(compact(result)), expected \(compact(v))"
    case .approximately(let x, let tolerance):
        guard case .number(let n)? = result else { return "got \(String(describing: result)), expected ≈\(x)" }
        return Swift.abs(n - x) <= tolerance ? nil : "got \(n), expected \(x) ± \(tolerance)"
    case .evaluationError:
        return result == nil ? nil : "got \(result!), expected an evaluation error"
    case .parseError:
        return nil
    }
}

/// Short JSON-like text for test names and messages.
func compact(_ v: JSONValue) -> String {
    switch v {
    case .null: "null"
    case .bool(let b): "\(b)"
    case .number(let n): n == n.rounded() && Swift.abs(n) < 1e15 ? "\(Int(n))" : "\(n)"
    case .string(let s): "\"\(s)\""
    case .array(let items): "[" + items.map(compact).joined(separator: ",") + "]"
    case .object(let o): "{" + o.members.map { "\"\($0.0)\":\(compact($0.1))" }.joined(separator: ",") + "}"
    }
}
