import SpatialCore
import Testing

/// step and interpolate (linear, exponential, cubic-bezier; arrays), and where zoom may appear.
let rampCases: [ExpressionCase] = [
    c(["step", ["get", "n"], "a", 3, "b", 6, "c"], "b"),
    c(["step", ["get", "n"], "a", 5, "b"], "b"),
    c(["step", ["get", "n"], "a", 6, "b"], "a"),
    c(["step", ["get", "n"], "a"], "a"),
    c(["step", 100, "a", 1, "b", 10, "c", 100, "d"], "d"),
    c(["step", 99.999, "a", 1, "b", 10, "c", 100, "d"], "c"),
    c(["step", -1e300, "a", 1, "b"], "a"),
    c(["step", ["/", 0, 0], "a", 1, "b"], "a"),
    c(["step", ["/", 1, 0], "a", 1, "b", 1e300, "c"], "c"),
    c(["step", ["-", ["/", 1, 0]], "a", 1, "b"], "a"),
    c(["step", ["get", "negzero"], "a", 0, "b"], "b"),
    c(["step", -0.5, "a", -1, "b", 0, "c"], "b"),
    c(["step", ["get", "point_count"], "green", 50, "blue", 100, "red"], "blue"),
    // Colours are carried as strings (the spec renders no colour): step and match return them
    // unchanged, interpolate takes only numbers and arrays of numbers, and the colour-space
    // variants are not in the spec's operator list.
    c(["step", ["get", "n"], "#ff0000", 3, "rgba(0, 0, 255, 0.5)"], "rgba(0, 0, 255, 0.5)"),
    c(["step", ["get", "n"], "#ff0000", 6, "rgba(0, 0, 255, 0.5)"], "#ff0000"),
    c(["match", ["get", "POITYPE"], "Trailhead", "hsl(120, 100%, 25%)", "#000"], "hsl(120, 100%, 25%)"),
    c(["match", ["get", "s"], "Trailhead", "hsl(120, 100%, 25%)", "#000"], "#000"),
    rejected(["interpolate", ["linear"], ["zoom"], 0, "red", 10, "blue"]),
    rejected(["interpolate", ["linear"], ["zoom"], 0, "#000000", 10, "#ffffff"]),
    failsAtRunTime(["interpolate", ["linear"], 5, 0, ["get", "s"], 10, ["get", "s"]]),
    rejected(["interpolate-hcl", ["linear"], ["zoom"], 0, "red", 10, "blue"]),
    rejected(["interpolate-lab", ["linear"], ["zoom"], 0, "red", 10, "blue"]),
    failsAtRunTime(["step", ["get", "s"], "a", 1, "b"]),
    failsAtRunTime(["step", ["get", "missing"], "a", 1, "b"]),
    failsAtRunTime(["step", 5, "a", 1, ["at", 9, ["literal", []]]]),
    c(["step", 0, "a", 1, ["at", 9, ["literal", []]]], "a"),
    rejected(["step", 1, "a", 3, "b", 2, "c"]),
    rejected(["step", 1, "a", 2, "b", 2, "c"]),
    rejected(["step", 1, "a", ["get", "n"], "b"]),
    rejected(["step", 1, "a", "2", "b"]),
    rejected(["step", 1, "a", 2]),
    rejected(["step", 1]),
    rejected(["step", "x", "a", 1, "b"]),
    c(["interpolate", ["linear"], ["get", "n"], 0, 0, 10, 100], 50),
    c(["interpolate", ["linear"], 2.5, 0, 0, 10, 100], 25),
    c(["interpolate", ["linear"], 0, 0, 0, 10, 100], 0),
    c(["interpolate", ["linear"], 10, 0, 0, 10, 100], 100),
    c(["interpolate", ["linear"], -5, 0, 0, 10, 100], 0),
    c(["interpolate", ["linear"], 15, 0, 0, 10, 100], 100),
    c(["interpolate", ["linear"], 7, 1, 42], 42),
    c(["interpolate", ["linear"], 0, 1, 42], 42),
    c(["interpolate", ["linear"], 1e300, 0, 0, 1, 10], 10),
    c(["interpolate", ["linear"], ["-", ["/", 1, 0]], 0, 0, 1, 10], 0),
    c(["interpolate", ["linear"], 15, 10, 1, 20, 2, 30, 4], 1.5),
    c(["interpolate", ["linear"], 25, 10, 1, 20, 2, 30, 4], 3),
    c(["interpolate", ["linear"], 20, 10, 1, 20, 2, 30, 4], 2),
    c(["interpolate", ["linear"], ["/", 0, 0], 0, 0, 1, 10], .number(.nan)),
    c(["interpolate", ["exponential", 2], 1, 0, 0, 2, 30], 10),
    c(["interpolate", ["exponential", 1], 5, 0, 0, 10, 100], 50),
    c(["interpolate", ["exponential", 2], 0, 0, 0, 2, 30], 0),
    approx(["interpolate", ["exponential", 0.5], 1, 0, 0, 2, 30], 20, 1e-9),
    approx(["interpolate", ["cubic-bezier", 0.42, 0, 0.58, 1], 5, 0, 0, 10, 100], 50, 1e-3),
    approx(["interpolate", ["cubic-bezier", 0, 0, 1, 1], 2.5, 0, 0, 10, 100], 25, 1e-3),
    c(["interpolate", ["cubic-bezier", 0.42, 0, 0.58, 1], 0, 0, 0, 10, 100], 0),
    c(["interpolate", ["cubic-bezier", 0.42, 0, 0.58, 1], 10, 0, 0, 10, 100], 100),
    c(["interpolate", ["linear"], 5, 0, ["literal", [0, 10]], 10, ["literal", [10, 30]]], [5, 20]),
    c(["interpolate", ["linear"], 0, 0, ["literal", [0, 10]], 10, ["literal", [10, 30]]], [0, 10]),
    failsAtRunTime(["interpolate", ["linear"], 5, 0, ["get", "arr"], 10, ["literal", [1, 2]]]),
    failsAtRunTime(["interpolate", ["linear"], ["get", "s"], 0, 0, 1, 1]),
    failsAtRunTime(["interpolate", ["linear"], 0.5, 0, 0, 1, ["get", "s"]]),
    failsAtRunTime(["interpolate", ["linear"], 5, 0, ["get", "s"], 10, 1]),
    rejected(["interpolate", ["linear"], 5, 0, ["literal", [0, 10]], 10, ["literal", [10]]]),
    rejected(["interpolate", ["linear"], 5, 0, ["literal", ["a"]], 10, ["literal", ["b"]]]),
    rejected(["interpolate", ["cubic-bezier", 0, 0, 2, 1], 1, 0, 0, 1, 1]),
    rejected(["interpolate", ["cubic-bezier", 0, 0, 1], 1, 0, 0, 1, 1]),
    rejected(["interpolate", ["exponential"], 1, 0, 0, 1, 1]),
    rejected(["interpolate", ["exponential", "2"], 1, 0, 0, 1, 1]),
    // The reference parser ignores elements after `linear` and after the exponential base.
    c(["interpolate", ["linear", 1], 0.25, 0, 0, 1, 1], 0.25),
    approx(["interpolate", ["exponential", 2, 9999], 2, 1, 2, 3, 6], 2 + 4.0 / 3, 1e-12),
    rejected(["interpolate", ["foo"], 1, 0, 0, 1, 1]),
    rejected(["interpolate", "linear", 1, 0, 0, 1, 1]),
    rejected(["interpolate", ["linear"], 1, 0, "a", 1, "b"]),
    rejected(["interpolate", ["linear"], 1]),
    rejected(["interpolate", ["linear"], 1, 0]),
    rejected(["interpolate", ["linear"], 1, 0, 0, 1]),
    rejected(["interpolate", ["linear"], 1, 2, 0, 1, 1]),
    rejected(["interpolate", ["linear"], 1, 1, 0, 1, 1]),
    // Seed-app values at the camera zoom.
    c(["interpolate", ["linear"], ["zoom"], 2, 2, 7, 3], 2, zoom: 2, purpose: .value),
    c(["interpolate", ["linear"], ["zoom"], 2, 2, 7, 3], 2.5, zoom: 4.5, purpose: .value),
    c(["interpolate", ["linear"], ["zoom"], 2, 2, 7, 3], 3, zoom: 7, purpose: .value),
    c(["interpolate", ["linear"], ["zoom"], 2, 2, 7, 3], 2, zoom: 0, purpose: .value),
    c(["interpolate", ["linear"], ["zoom"], 2, 2, 7, 3], 3, zoom: 22, purpose: .value),
    approx(["interpolate", ["linear"], ["zoom"], 2, 2, 7, 3], 2.2, 1e-12, zoom: 3, purpose: .value),
    c(["interpolate", ["linear"], ["zoom"], 5.9, 0, 6, 1], 0, zoom: 5, purpose: .value),
    c(["interpolate", ["linear"], ["zoom"], 5.9, 0, 6, 1], 0, zoom: 5.9, purpose: .value),
    approx(["interpolate", ["linear"], ["zoom"], 5.9, 0, 6, 1], 0.5, 1e-9, zoom: 5.95, purpose: .value),
    c(["interpolate", ["linear"], ["zoom"], 5.9, 0, 6, 1], 1, zoom: 6, purpose: .value),
    c(["interpolate", ["linear"], ["zoom"], 10, 10, 16, 16], 13, zoom: 13, purpose: .value),
    c(["interpolate", ["linear"], ["zoom"], 10, 10, 16, 16], 10, zoom: 8, purpose: .value),
    c(["interpolate", ["linear"], ["zoom"], 10, 10, 16, 16], 16, zoom: 20, purpose: .value),
    c(["step", ["zoom"], 1, 5, 2], 2, zoom: 5, purpose: .value),
    c(["step", ["zoom"], 1, 5, 2], 1, zoom: 4.99, purpose: .value),
    c(["interpolate", ["linear"], ["zoom"], 0, ["get", "n"], 10, ["*", ["get", "n"], 3]], 10, zoom: 5, purpose: .value),
    // Where zoom may appear.
    rejected(["+", ["zoom"], 1], purpose: .value),
    rejected(["zoom"], purpose: .value),
    rejected(["interpolate", ["linear"], ["+", ["zoom"], 1], 0, 1, 10, 2], purpose: .value),
    rejected(["step", ["zoom"], 1, 5, ["zoom"]], purpose: .value),
    rejected(["interpolate", ["linear"], ["zoom"], 0, ["zoom"], 10, 2], purpose: .value),
    rejected(["case", true, ["interpolate", ["linear"], ["zoom"], 0, 1, 1, 2], 0], purpose: .value),
    // A top-level `coalesce` (like `let`) passes the top-level place on, as the reference
    // parsers do: one of its arguments may be the zoom curve, not two.
    c(["coalesce", ["step", ["zoom"], 1, 5, 2]], 2, zoom: 6, purpose: .value),
    c(["coalesce", ["get", "missing"], ["interpolate", ["linear"], ["zoom"], 0, 0, 10, 10]], 4, zoom: 4, purpose: .value),
    c(["let", "a", 1, ["coalesce", ["get", "z"], ["step", ["zoom"], ["var", "a"], 5, 2]]], 1, zoom: 3, purpose: .value),
    rejected(["coalesce", ["step", ["zoom"], 1, 5, 2], ["step", ["zoom"], 1, 6, 2]], purpose: .value),
    rejected(["coalesce", ["coalesce", ["step", ["zoom"], 1, 5, 2]], ["step", ["zoom"], 1, 6, 2]], purpose: .value),
    rejected(["coalesce", ["let", "a", 1, ["step", ["zoom"], ["var", "a"], 5, 2]], ["step", ["zoom"], 1, 6, 2]], purpose: .value),
    rejected(["coalesce", ["+", ["zoom"], 1]], purpose: .value),
    rejected(["+", 1, ["coalesce", ["step", ["zoom"], 1, 5, 2]]], purpose: .value),
    rejected(["step", ["get", "n"], 0, 1, ["step", ["zoom"], 1, 5, 2]], purpose: .value),
    rejected(["zoom"], purpose: .clusterMap),
    rejected(["zoom"], purpose: .clusterReduce),
    rejected(["interpolate", ["linear"], ["zoom"], 0, 1, 10, 2], purpose: .clusterMap),
    c(["<", ["zoom"], 5], true, zoom: 3),
    c(["all", [">=", ["zoom"], 2], ["<", ["zoom"], 5]], false, zoom: 5),
    c(["interpolate", ["linear"], ["get", "n"], 0, 0, 10, 1], 0.5, purpose: .value),
    c(["accumulated"], nil, purpose: .clusterReduce),
]

@Suite("Expressions: ramps and zoom placement")
struct RampOperatorTests {
    @Test(arguments: rampCases)
    func ramp(_ row: ExpressionCase) {
        let failure = check(row)
        #expect(failure == nil, "\(row.testDescription): \(failure ?? "")")
    }

    /// Interpolation is linear in between stops: compare with a direct formula on random inputs.
    @Test func linearMatchesTheFormulaOnSeededInputs() throws {
        let e = try Expression(json: ["interpolate", ["linear"], ["get", "x"], -3, 10, 4, -20, 9.5, 7])
        var state: UInt64 = 12345
        for _ in 0..<2000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let x = Double(state >> 11) / Double(1 << 53) * 20 - 6
            let expected: Double
            if x <= -3 { expected = 10 } else if x >= 9.5 { expected = 7 } else if x < 4 {
                let t = (x + 3) / 7
                expected = 10 * (1 - t) + -20 * t
            } else {
                let t = (x - 4) / 5.5
                expected = -20 * (1 - t) + 7 * t
            }
            let got = e.evaluateNumber(JSONObjectExpressionContext(properties: ["x": .number(x)]), default: .nan)
            #expect(Swift.abs(got - expected) <= 1e-12)
        }
    }

    /// cubic-bezier: the solved curve point lies on the Bézier within 1e-6 in x.
    @Test func cubicBezierSolvesTheCurve() throws {
        let (x1, y1, x2, y2) = (0.25, 0.1, 0.25, 1.0)
        let e = try Expression(json: ["interpolate", ["cubic-bezier", .number(x1), .number(y1), .number(x2), .number(y2)], ["get", "x"], 0, 0, 1, 1])
        for k in 1..<100 {
            let x = Double(k) / 100
            let y = e.evaluateNumber(JSONObjectExpressionContext(properties: ["x": .number(x)]), default: .nan)
            // Find t on the curve by bisection, independently, and compare y(t).
            var lo = 0.0, hi = 1.0
            func bx(_ t: Double) -> Double { 3 * (1 - t) * (1 - t) * t * x1 + 3 * (1 - t) * t * t * x2 + t * t * t }
            func by(_ t: Double) -> Double { 3 * (1 - t) * (1 - t) * t * y1 + 3 * (1 - t) * t * t * y2 + t * t * t }
            for _ in 0..<200 { let m = (lo + hi) / 2; if bx(m) < x { lo = m } else { hi = m } }
            #expect(Swift.abs(y - by(lo)) < 1e-5)
        }
    }
}
