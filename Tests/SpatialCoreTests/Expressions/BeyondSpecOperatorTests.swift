import Foundation
import SpatialCore
import Testing

/// Operators beyond the spec's list: `feature-state`, `image` and `format` (paint and layout
/// values only), `let` / `var` and `slice` (ExpressionParser+BeyondSpec.swift says what each
/// yields here and why).
let beyondSpecCases: [ExpressionCase] = [
    // feature-state: no state is ever set, so it reads null.
    c(["feature-state", "hover"], nil, purpose: .value),
    c(["coalesce", ["feature-state", "hover"], 3], 3, purpose: .value),
    c(["case", ["boolean", ["feature-state", "hover"], false], 10, 5], 5, purpose: .value),
    c(["feature-state", ["get", "s"]], nil, purpose: .value),
    failsAtRunTime(["feature-state", ["get", "n"]], purpose: .value),
    rejected(["feature-state"], purpose: .value),
    rejected(["feature-state", "a", "b"], purpose: .value),
    rejected(["feature-state", 1], purpose: .value),
    rejected(["feature-state", "hover"], purpose: .filter),
    rejected(["feature-state", "hover"], purpose: .clusterMap),
    rejected(["+", ["feature-state", "n"]], purpose: .clusterReduce),
    // image: the name (every image counts as registered in a context without images).
    c(["image", "marker"], "marker", purpose: .value),
    c(["image", ["concat", ["get", "s"], "-15"]], "abc-15", purpose: .value),
    failsAtRunTime(["image", ["get", "n"]], purpose: .value),
    rejected(["image"], purpose: .value),
    rejected(["image", 3], purpose: .value),
    rejected(["image", "marker"], purpose: .filter),
    // format: the sections' text run together; image sections add none.
    c(["format", "a", ["get", "s"]], "aabc", purpose: .value),
    c(["format", ["get", "s"], ["font-scale": 1.5]], "abc", purpose: .value),
    c(["format", ["get", "s"], ["font-scale": ["get", "n"]], "d"], "abcd", purpose: .value),
    rejected(["format", ["literal", ["a"]]], purpose: .value),
    c(["format", "x", ["font-scale": 2, "text-font": ["literal", ["Open Sans"]]], ["get", "missing"], "y"], "xy", purpose: .value),
    c(["format", ["to-string", ["get", "n"]], ["image", "pin"], "!"], "5!", purpose: .value),
    c(["to-string", ["format", "a", "b"]], "ab", purpose: .value),
    c(["length", ["format", ["get", "emoji"]]], 3, purpose: .value),
    failsAtRunTime(["format", ["upcase", ["get", "n"]]], purpose: .value),
    rejected(["format"], purpose: .value),
    rejected(["format", 5], purpose: .value),
    rejected(["format", true], purpose: .value),
    rejected(["format", ["font-scale": 2]], purpose: .value),
    rejected(["format", "a", ["font-scale": "big"]], purpose: .value),
    c(["format", "a", ["text-font": ["get", "fonts"], "text-color": "#f00", "vertical-align": "top"]], "a", purpose: .value),
    c(["format", "a", ["text-color": .null, "font-scale": .null]], "a", purpose: .value),
    rejected(["format", "a", ["text-font": ["Open Sans"]]], purpose: .value),
    rejected(["format", "a", ["text-font": "Open Sans"]], purpose: .value),
    rejected(["format", "a", ["text-color": 3]], purpose: .value),
    rejected(["format", "a", ["vertical-align": "middle"]], purpose: .value),
    rejected(["format", "a", ["vertical-align": true]], purpose: .value),
    c(["format", "a", ["text-color": ["rgba", 255, 0, 0, 1]]], "a", purpose: .value),
    rejected(["format", "a"], purpose: .filter),
    // let / var: a var stands for its bound expression; the innermost binding wins.
    c(["let", "a", 2, ["*", ["var", "a"], 3]], 6),
    c(["let", "a", 1, ["let", "a", 2, ["var", "a"]]], 2),
    c(["let", "a", 1, "b", ["+", ["var", "a"], 1], ["var", "b"]], 2),
    c(["let", "s", ["get", "s"], ["upcase", ["var", "s"]]], "ABC"),
    c(["let", "bad", ["number", ["get", "s"]], 1], 1),
    failsAtRunTime(["let", "bad", ["number", ["get", "s"]], ["var", "bad"]]),
    c(["let", "r", 4, ["interpolate", ["linear"], ["zoom"], 0, ["var", "r"], 10, 8]], 6, zoom: 5, purpose: .value),
    rejected(["let", "r", 4, ["+", 1, ["interpolate", ["linear"], ["zoom"], 0, ["var", "r"], 10, 8]]], purpose: .value),
    rejected(["var", "a"]),
    rejected(["let", "a", 1, ["var", "b"]]),
    rejected(["let", "a", ["var", "a"], 1]),
    rejected(["let", "a", 1]),
    rejected(["let", 1, 2, 3]),
    c(["let", "Var_2", 5, ["var", "Var_2"]], 5),
    rejected(["let", "my-var", 1, ["var", "my-var"]]),
    rejected(["let", "a b", 1, 2]),
    rejected(["var"]),
    rejected(["var", 1]),
    // slice: JavaScript's rules, strings by code points.
    c(["slice", "abcdef", 2], "cdef"),
    c(["slice", "abcdef", 1, 3], "bc"),
    c(["slice", "abcdef", -2], "ef"),
    c(["slice", "abcdef", -10, 2], "ab"),
    c(["slice", "abcdef", 4, 2], ""),
    c(["slice", "abcdef", 2.7], "cdef"),
    c(["slice", "abcdef", 1, 100], "bcdef"),
    c(["slice", "abcdef", 1, -1], "bcde"),
    c(["slice", ["get", "emoji"], 1, 2], "😀"),
    c(["slice", ["get", "arr"], 1], [2, 3]),
    c(["slice", ["literal", [1, 2, 3]], -1], [3]),
    c(["length", ["slice", ["get", "arr"], 5]], 0),
    failsAtRunTime(["slice", ["get", "n"], 1]),
    failsAtRunTime(["slice", "abc", ["get", "s"]]),
    rejected(["slice", 5, 1]),
    rejected(["slice", "a"]),
    rejected(["slice", "a", "b"]),
    rejected(["slice", "a", 1, 2, 3]),
    // number-format: as Intl.NumberFormat writes it (en-US without a locale).
    c(["number-format", 1234.5678, [:]], "1,234.568"),
    c(["number-format", 1234.5678, ["max-fraction-digits": 1]], "1,234.6"),
    c(["number-format", 3, ["min-fraction-digits": 2]], "3.00"),
    c(["number-format", 2.5, ["max-fraction-digits": 0]], "3"),
    c(["number-format", -2.5, ["max-fraction-digits": 0]], "-3"),
    c(["number-format", 1234.5, ["locale": "de-DE"]], "1.234,5"),
    c(["number-format", 1234.5, ["currency": "USD"]], "$1,234.50"),
    c(["number-format", 1234.5, ["currency": "USD", "max-fraction-digits": 0]], "$1,235"),
    c(["number-format", 1234.5, ["currency": "JPY"]], "¥1,235"),
    c(["number-format", ["get", "n"], ["min-fraction-digits": ["get", "n"]]], "5.00000"),
    failsAtRunTime(["number-format", 1, ["min-fraction-digits": 3, "max-fraction-digits": 1]]),
    failsAtRunTime(["number-format", 1, ["max-fraction-digits": 21]]),
    failsAtRunTime(["number-format", 1, ["currency": "US"]]),
    failsAtRunTime(["number-format", 1, ["currency": "U$D"]]),
    c(["number-format", 1234.5, ["currency": "usd"]], "$1,234.50"),
    failsAtRunTime(["number-format", ["get", "s"], [:]]),
    failsAtRunTime(["number-format", 1, ["locale": ["get", "n"]]]),
    rejected(["number-format", 1]),
    rejected(["number-format", 1, 2]),
    rejected(["number-format", "a", [:]]),
    rejected(["number-format", 1, ["currency": 5]]),
    c(["number-format", 1.5, ["unit": "meter"]], "1.5"),
    rejected(["number-format", 1.5, ["currency": "USD", "unit": "meter"]]),
]

@Suite("Expressions: operators beyond the spec's list")
struct BeyondSpecOperatorTests {
    @Test(arguments: beyondSpecCases)
    func beyondSpecOperators(_ row: ExpressionCase) {
        let failure = check(row)
        #expect(failure == nil, "\(row.testDescription): \(failure ?? "")")
    }

    /// With the registered images known, `image` of a missing one is null and `coalesce` moves on.
    @Test func imageFallsBackWhenMissing() throws {
        let e = try Expression(json: ["coalesce", ["image", ["get", "icon"]], ["image", "fallback"]], purpose: .value)
        var context = JSONObjectExpressionContext(properties: ["icon": "bus"], images: ["fallback": CGSize(width: 8, height: 8)])
        #expect(e.evaluate(context) == .string("fallback"))
        context.images?["bus"] = CGSize(width: 4, height: 4)
        #expect(e.evaluate(context) == .string("bus"))
        context.images = [:]
        #expect(e.evaluate(context) == .null)
        context.images = nil
        #expect(e.evaluate(context) == .string("bus"))
    }

    /// Nested lets whose variables are used twice double the tree at each level: forty levels
    /// would be 2^40 operators to walk. The parser stops at its limit with an error, at once.
    @Test func doublingLetsAreRefused() throws {
        var json: JSONValue = ["get", "n"]
        for level in 0 ..< 40 {
            json = ["let", .string("v\(level)"), json, ["+", ["var", .string("v\(level)")], ["var", .string("v\(level)")]]]
        }
        #expect {
            _ = try Expression(json: json, purpose: .value)
        } throws: { error in
            "\(error)".contains("expands to more than")
        }
        // Ten levels (about 6,000 operators) are fine and evaluate to 2^10 · n.
        var small: JSONValue = ["get", "n"]
        for level in 0 ..< 10 {
            small = ["let", .string("v\(level)"), small, ["+", ["var", .string("v\(level)")], ["var", .string("v\(level)")]]]
        }
        let e = try Expression(json: small, purpose: .value)
        #expect(e.evaluate(JSONObjectExpressionContext(properties: ["n": 3])) == .number(3 * 1024))
    }

    /// The error of a misplaced operator names it and says where it may go.
    @Test func misplacedOperatorSaysWhere() {
        #expect {
            _ = try Expression(json: ["==", ["feature-state", "hover"], true], purpose: .filter)
        } throws: { error in
            "\(error)".contains("\"feature-state\" is only available in paint and layout values")
        }
    }
}
