@testable import SpatialCore
import Testing

/// Evaluation paths agree (flat program, tree, typed fast paths), parse errors name their JSON
/// path, and random expressions never trap.
@Suite("Expressions: evaluation paths, error paths, robustness")
struct ExpressionPathsTests {
    static let allCases = lookupCases + decisionCases + rampCases + mathCases + typeAndStringCases

    @Test func flatProgramTreeAndTypedPathsAgreeOnEveryTableCase() {
        var flattened = 0
        for row in Self.allCases {
            guard let e = try? Expression(json: row.json, purpose: row.purpose) else { continue }
            let context = JSONObjectExpressionContext(properties: row.properties, zoom: row.zoom, featureID: .number(7), geometryType: "Point")
            let tree = e.root.evaluate(context)
            let public_ = e.evaluate(context)
            #expect(Self.sameOrBothErrors(tree, public_), "\(row.testDescription): tree \(tree.map(compact) ?? "error"), public \(public_.map(compact) ?? "error")")
            if e.program.isComplete {
                flattened += 1
                let flat = e.program.value(e.program.root, context)
                #expect(Self.sameOrBothErrors(tree, flat), "\(row.testDescription): flat \(flat.map(compact) ?? "error")")
            }
            let expectedNumber: Double? = if case .number(let n)? = tree { n } else { nil }
            let number = e.evaluateDouble(context)
            #expect(number == expectedNumber || (number?.isNaN == true && expectedNumber?.isNaN == true), "\(row.testDescription)")
            let expectedFilter: Bool = if case .bool(true)? = tree { true } else { false }
            #expect(e.evaluateFilter(context) == expectedFilter, "\(row.testDescription)")
        }
        #expect(flattened > 150)
    }

    static func sameOrBothErrors(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let x?, let y?): same(x, y)
        default: false
        }
    }

    struct BadExpression: Sendable {
        var json: JSONValue
        var path: String
        init(_ json: JSONValue, _ path: String) { self.json = json; self.path = path }
    }

    static let badExpressions: [BadExpression] = [
        BadExpression(["+", 1, ["-", "a"]], "[2][1]"),
        BadExpression(["case", true, 1, ["get"]], "[3]"),
        BadExpression(["match", ["get", "x"], "a", 1, "a", 2, 0], "[4]"),
        BadExpression(["step", ["get", "x"], 0, 1, 1, 0, 2], "[5]"),
        BadExpression(["interpolate", ["linear"], ["get", "x"], 0, 0, 1, ["concat", "a"]], "[6]"),
        BadExpression(["interpolate", ["cubic-bezier", 0, 0, 5, 1], ["get", "x"], 0, 0, 1, 1], "[1]"),
        BadExpression(["all", true, ["==", 1, "a"]], "[2]"),
        BadExpression(["coalesce", ["literal"]], "[1]"),
        BadExpression(["nope"], ""),
    ]

    @Test(arguments: badExpressions)
    func parseErrorsNameTheirPath(_ row: BadExpression) {
        let (json, path) = (row.json, row.path)
        do {
            _ = try Expression(json: json)
            Issue.record("expected a parse error")
        } catch {
            #expect(error.path == path, "\(error)")
            let placed = error.prefixed(by: "layers[2].paint.circle-radius")
            #expect(placed.path == "layers[2].paint.circle-radius" + path)
            #expect(placed.description.hasPrefix("layers[2].paint.circle-radius\(path): "))
            #expect(!error.reason.isEmpty)
        }
    }

    @Test func deepNestingIsATypedErrorNotACrash() throws {
        var deep: JSONValue = 1
        for _ in 0..<3000 { deep = ["-", deep] }
        #expect(throws: ExpressionParseError.self) { try Expression(json: deep) }
        var deepFilter: JSONValue = ["has", "a"]
        for _ in 0..<3000 { deepFilter = ["none", deepFilter] }
        #expect(throws: ExpressionParseError.self) { try Expression(filter: deepFilter) }
        var fine: JSONValue = 1
        for _ in 0..<200 { fine = ["-", fine] }
        #expect(try Expression(json: fine).evaluateDouble(JSONObjectExpressionContext(properties: [:])) == 1)
    }

    @Test func zoomErrorsSayWhereZoomMayBe() {
        do {
            _ = try Expression(json: ["+", ["zoom"], 1], purpose: .value)
            Issue.record("expected a parse error")
        } catch {
            #expect(error.path == "[1]")
            #expect(error.reason.contains("top-level"))
        }
    }

    /// Random expressions from a small grammar: parsing and evaluating never traps, and a parsed
    /// expression prints to JSON that parses back to an equal expression.
    @Test func randomExpressionsNeverTrapAndRoundTrip() {
        var state: UInt64 = 0x5EED
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        let operators = Array(ExpressionParser.operators)
        let leaves: [JSONValue] = [0, 1, -1, 2.5, 1e300, "a", "abc", "", true, false, nil, ["get", "n"], ["get", "s"],
            ["get", "arr"], ["get", "missing"], ["zoom"], ["literal", [1, 2]], ["literal", ["k": 1]], ["accumulated"]]
        func random(_ depth: Int) -> JSONValue {
            if depth == 0 || next(4) == 0 { return leaves[next(leaves.count)] }
            var items: [JSONValue] = [.string(operators[next(operators.count)])]
            for _ in 0..<next(6) { items.append(random(depth - 1)) }
            return .array(items)
        }
        var parsed = 0
        for i in 0..<4000 {
            let json = random(4)
            let purpose: ExpressionPurpose = [.filter, .value, .clusterMap, .clusterReduce][i % 4]
            guard let e = try? Expression(json: json, purpose: purpose) else { continue }
            parsed += 1
            let context = JSONObjectExpressionContext(properties: ExpressionCase.sampleProperties, zoom: 3)
            _ = e.evaluate(context)
            _ = e.evaluateFilter(context)
            _ = e.evaluateNumber(context, default: 0)
            let again = try? Expression(json: e.jsonValue, purpose: purpose)
            #expect(again == e, "\(compact(json))")
        }
        #expect(parsed > 100)
    }
}
