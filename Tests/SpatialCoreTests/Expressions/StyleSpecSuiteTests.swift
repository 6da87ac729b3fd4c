import Foundation
import Testing
@testable import SpatialCore

/// Runs the MapLibre style specification's own expression cases (`test/integration/expression/
/// tests/*/*/test.json` of `maplibre-style-spec`) through the parser and the evaluator, when a
/// copy of that folder is named by `$SPATIAL_STYLE_SPEC_TESTS`. The cases are not part of this
/// package: without the variable the test says so and checks nothing else.
///
/// A case is run when every operator it uses is one SpatialCore parses and its result type is
/// one SpatialCore carries (colours, `formatted`, `padding` and the like are left out, as are
/// inputs whose evaluation context needs more than zoom, properties, id and geometry type).
/// Checked per case: the parse succeeds exactly when the specification's does, and each
/// input's result is the expected value (numbers to 1e-5, relatively: the cases keep six
/// significant digits) or an evaluation error where an error is expected. The cases of
/// ``StyleSpecSuite/knownDifferences`` are where `expressions.md` decides otherwise, and so is
/// one kind more: the reference parsers evaluate an expression's constant parts at load time and
/// reject one that fails, where `expressions.md` keeps that an evaluation error
/// (`["to-number", "abc"]`); both are counted and printed, not failed.
@Suite struct StyleSpecSuiteTests {
    @Test func specificationCasesAgree() throws {
        guard let root = ProcessInfo.processInfo.environment["SPATIAL_STYLE_SPEC_TESTS"], !root.isEmpty else {
            FileHandle.standardError.write(Data(
                "note: SPATIAL_STYLE_SPEC_TESTS is not set (a copy of maplibre-style-spec's test/integration/expression/tests); the style-spec cases are skipped\n".utf8))
            return
        }
        let report = try StyleSpecSuite.run(directory: URL(fileURLWithPath: root))
        FileHandle.standardError.write(Data(report.summary.utf8))
        #expect(report.ran > 0, "no case of \(root) was run")
        for failure in report.failures { Issue.record("\(failure)") }
    }

    /// The runner itself, on cases written here in the suite's layout: one that agrees, one whose
    /// output differs, one the parser wrongly accepts, one with an operator not carried, one with
    /// a failing constant part, one known difference.
    @Test func runnerFindsDisagreements() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("style-spec-runner-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases: [(String, String)] = [
            ("plus/agrees", #"{"expression": ["+", ["get", "a"], 1], "inputs": [[{}, {"properties": {"a": 2}}], [{}, {"properties": {}}]], "expected": {"compiled": {"result": "success", "type": "number"}, "outputs": [3, {"error": "x"}]}}"#),
            ("plus/differs", #"{"expression": ["+", ["get", "a"], 1], "inputs": [[{"zoom": 3}, {"properties": {"a": 2}}]], "expected": {"compiled": {"result": "success", "type": "number"}, "outputs": [4]}}"#),
            ("upcase/accepted", #"{"expression": ["upcase", "a"], "expected": {"compiled": {"result": "error", "errors": []}}}"#),
            ("rgb/not-carried", #"{"expression": ["rgb", 1, 2, 3], "expected": {"compiled": {"result": "success", "type": "color"}, "outputs": []}}"#),
            ("to-number/folded", #"{"expression": ["to-number", "abc"], "expected": {"compiled": {"result": "error", "errors": []}}}"#),
            ("max/arity-0", #"{"expression": ["max"], "expected": {"compiled": {"result": "success", "type": "number"}, "outputs": []}}"#),
            ("to-string/property", #"{"expression": ["get", "n"], "propertySpec": {"type": "string"}, "inputs": [[{}, {"properties": {"n": 5}}], [{}, {"properties": {}}]], "expected": {"compiled": {"result": "success", "type": "string"}, "outputs": ["5", ""]}}"#),
        ]
        for (name, text) in cases {
            let folder = directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try text.write(to: folder.appendingPathComponent("test.json"), atomically: true, encoding: .utf8)
        }
        let report = try StyleSpecSuite.run(directory: directory)
        #expect(report.ran == 5)
        #expect(report.skipped == 1)
        #expect(report.foldedConstants == 1)
        #expect(report.known.count == 1)
        #expect(report.failures.count == 2)
        #expect(report.failures.contains { $0.hasPrefix("plus/differs input 0: 3") })
        #expect(report.failures.contains { $0.hasPrefix("upcase/accepted: accepted") })
    }
}

/// The runner behind ``StyleSpecSuiteTests``.
enum StyleSpecSuite {
    /// The operators run: the parser's, with the interpolation types, less those whose value
    /// a headless context does not carry (feature state, images, formatted text).
    static let supported = ExpressionParser.operators.union(["linear", "exponential", "cubic-bezier"])
        .subtracting(["feature-state", "image", "format"])
    /// Cases (folders below `tests/`) where `expressions.md`, or a choice written down in this
    /// library's documentation, decides otherwise; the reason is printed when the case is met.
    static let knownDifferences: [String: String] = [
        "max/arity-0": "expressions.md: `max` takes one or more arguments (the reference allows none: −∞)",
        "min/arity-0": "expressions.md: `min` takes one or more arguments (the reference allows none: +∞)",
        "match/mismatch-input": "the input's type is checked when evaluating: another type gives the fallback (expressions.md)",
        "match/mismatch-input-literal-string": "the input's type is checked when evaluating: another type gives the fallback (expressions.md)",
        "match/mismatch-input-literal-number": "the input's type is checked when evaluating: another type gives the fallback (expressions.md)",
        "match/mismatch-output": "outputs of several types make a `value` result instead of a load-time error",
        "number-format/unit": "a `unit` is accepted and not applied (see ExpressionParser+BeyondSpec.swift)",
        "interpolate/exponential-uninterpolatable-numeric-array":
            "arrays of numbers interpolate component-wise whatever their static length (expressions.md); lengths are checked when evaluating",
    ]

    /// Result types SpatialCore carries.
    static let carriedTypes: Set<String> = ["number", "string", "boolean", "value", "null", "object"]

    /// What a run found.
    struct Report {
        /// Cases parsed (and evaluated where upstream's parse succeeds).
        var ran = 0
        /// Cases left out: operators or result types not carried, or a typed parse not modelled.
        var skipped = 0
        /// Cases rejected by the reference only because a constant part fails when evaluated.
        var foldedConstants = 0
        /// The cases of ``knownDifferences`` met, with their reasons.
        var known: [String] = []
        /// The disagreements, one line each.
        var failures: [String] = []
        var summary: String {
            "style-spec expression cases: \(ran) run, \(skipped) skipped (operators or types not carried), "
                + "\(foldedConstants) a constant evaluation error (rejected at load time by the reference), "
                + "\(known.count) known differences, \(failures.count) disagree\n"
                + known.map { "  known: \($0)\n" }.joined()
        }
    }

    /// Runs every `test.json` below `directory`. Throws when a file cannot be read or is not
    /// JSON. O(cases · their size).
    static func run(directory: URL) throws -> Report {
        var report = Report()
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.lastPathComponent == "test.json" }
            .sorted { $0.path < $1.path } ?? []
        // Both sides resolved, so that a symbolic link in the directory's path (macOS's /var)
        // cannot shift the case names.
        let base = directory.resolvingSymlinksInPath().pathComponents
        for file in files {
            let name = file.deletingLastPathComponent().resolvingSymlinksInPath().pathComponents.dropFirst(base.count).joined(separator: "/")
            let text = try String(contentsOf: file, encoding: .utf8)
            let json = try JSONValue(parsing: text)
            guard case .object(let test) = json, let written = test["expression"],
                  case .object(let expected)? = test["expected"], case .object(let compiled)? = expected["compiled"]
            else { report.skipped += 1; continue }
            // A property's type annotates the top level as the style specification does: strings
            // are coerced (`to-string`), other types asserted. A typed parse (arguments checked
            // against the property's type) is not modelled: those rejections are not compared.
            var expression = written
            if case .object(let s)? = test["propertySpec"] {
                let wrapper: [String: String] = ["number": "number", "string": "to-string", "boolean": "boolean", "enum": "string"]
                guard let t = s["type"]?.stringValue, let op = wrapper[t], compiled["result"]?.stringValue == "success" else {
                    report.skipped += 1; continue
                }
                expression = JSONValue.array([JSONValue.string(op), written])
            }
            if let t = compiled["type"]?.stringValue, !carriedTypes.contains(t) && !t.hasPrefix("array") {
                report.skipped += 1; continue
            }
            guard operators(in: expression).isSubset(of: supported) else { report.skipped += 1; continue }
            if let reason = knownDifferences[name] {
                report.known.append("\(name): \(reason)")
                continue
            }
            let wantsSuccess = compiled["result"]?.stringValue == "success"
            let parsed: SpatialCore.Expression
            do {
                parsed = try SpatialCore.Expression(json: expression, purpose: .value)
            } catch {
                report.ran += 1
                if wantsSuccess { report.failures.append("\(name): rejected (\(error)); the specification accepts it") }
                continue
            }
            report.ran += 1
            if !wantsSuccess {
                // The reference parsers evaluate constant parts at load time and reject a part
                // that fails; `expressions.md` keeps that an evaluation error.
                if parsed.isFeatureConstant && !parsed.isZoomDependent && parsed.evaluate(JSONObjectExpressionContext(properties: JSONObject())) == nil {
                    report.foldedConstants += 1
                } else {
                    report.failures.append("\(name): accepted; the specification rejects it (\(compact(compiled["errors"] ?? .null)))")
                }
                continue
            }
            guard case .array(let inputs)? = test["inputs"], case .array(let outputs)? = expected["outputs"] else { continue }
            for (i, (input, output)) in zip(inputs, outputs).enumerated() {
                guard let context = context(input) else { continue }
                let got = parsed.evaluate(context)
                if case .object(let o) = output, o["error"] != nil, o.count == 1 {
                    if let got { report.failures.append("\(name) input \(i): \(compact(got)); the specification errs (\(compact(o["error"]!)))") }
                } else if let got {
                    if !same(got, output) { report.failures.append("\(name) input \(i): \(compact(got)); the specification gives \(compact(output))") }
                } else {
                    report.failures.append("\(name) input \(i): evaluation error; the specification gives \(compact(output))")
                }
            }
        }
        return report
    }

    /// Every operator name in `json` (first elements of arrays that are strings, outside `literal`
    /// and `match` labels).
    static func operators(in json: JSONValue) -> Set<String> {
        guard case .array(let items) = json, let first = items.first else {
            if case .object(let o) = json { return o.values.reduce(into: []) { $0.formUnion(operators(in: $1)) } }
            return []
        }
        var found: Set<String> = []
        var labels: Set<Int> = []
        if case .string(let op) = first {
            found.insert(op)
            if op == "literal" { return found }
            // `match`'s labels (every other element from the second to the fallback) are
            // literals, arrays of them too.
            if op == "match" { labels = Set(stride(from: 2, to: items.count - 1, by: 2)) }
        }
        for (i, item) in items.enumerated() where !labels.contains(i) { found.formUnion(operators(in: item)) }
        return found
    }

    /// The evaluation context of one input `[globals, feature]`, or nil when it needs more.
    static func context(_ input: JSONValue) -> JSONObjectExpressionContext? {
        guard case .array(let pair) = input, pair.count == 2, case .object(let globals) = pair[0],
              case .object(let feature) = pair[1] else { return nil }
        guard globals.keys.allSatisfy({ $0 == "zoom" }) else { return nil }
        var properties = JSONObject()
        if case .object(let p)? = feature["properties"] { properties = p }
        var id: FeatureID? = nil
        switch feature["id"] {
        case .number(let n)?: id = .number(n)
        case .string(let s)?: id = .string(s)
        default: break
        }
        var geometry: String? = nil
        if case .object(let g)? = feature["geometry"] { geometry = g["type"]?.stringValue }
        return JSONObjectExpressionContext(properties: properties, zoom: globals["zoom"]?.numberValue ?? 0,
                                           featureID: id, geometryType: geometry)
    }

    /// Equal as the cases are written: numbers to 1e-5 relative (they keep six significant digits).
    static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return x == y || abs(x - y) <= 1e-5 * max(abs(x), abs(y)) || (x.isNaN && y.isNaN)
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.keys.allSatisfy { k in y[k].map { same(x[k]!, $0) } ?? false }
        default:
            return a == b
        }
    }
}
