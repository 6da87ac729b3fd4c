import SpatialCore
import Testing

/// The Swift builder, printing, and the seed app's style values.
@Suite("Expressions: builder and seed-app examples")
struct BuilderAndSeedAppTests {
    func at(_ zoom: Double, _ properties: JSONObject = [:]) -> JSONObjectExpressionContext {
        JSONObjectExpressionContext(properties: properties, zoom: zoom)
    }

    @Test func builderMatchesParsedJSON() throws {
        let radius: Expression = .interpolate(.linear, .zoom, stops: [7: 3, 2: 2])
        #expect(radius == (try Expression(json: ["interpolate", ["linear"], ["zoom"], 2, 2, 7, 3], purpose: .value)))
        #expect(radius.jsonValue == ["interpolate", ["linear"], ["zoom"], 2, 2, 7, 3])
        let color: Expression = .step(.get("point_count"), "green", stops: [50: "blue", 100: "red"])
        #expect(color.jsonValue == ["step", ["get", "point_count"], "green", 50, "blue", 100, "red"])
        let icon: Expression = .match(.get("POITYPE"), ["Restroom": "toilet", "Trailhead": "hiking", "Viewpoint": "viewpoint"], fallback: "")
        #expect(icon.jsonValue == ["match", ["get", "POITYPE"], "Restroom", "toilet", "Trailhead", "hiking", "Viewpoint", "viewpoint", ""])
        let filter: Expression = .all(.equal(.get("ENGINEID"), "E-9"), .greater(.get("FLOW"), 1000), .not(.has("closed")))
        #expect(filter.jsonValue == ["all", ["==", ["get", "ENGINEID"], "E-9"], [">", ["get", "FLOW"], 1000], ["!", ["has", "closed"]]])
        let math: Expression = .get("FLOW") % 360 + -(.get("x")) * .power(2, 3) / 4
        #expect(math.jsonValue == ["+", ["%", ["get", "FLOW"], 360], ["/", ["*", ["-", ["get", "x"]], ["^", 2, 3]], 4]])
        #expect(Expression.literal([1, 2]).jsonValue == ["literal", [1, 2]])
        #expect(Expression.coalesce(.get("a"), .toNumber(.get("b"), 0)).jsonValue == ["coalesce", ["get", "a"], ["to-number", ["get", "b"], 0]])
        #expect(Expression.interpolate(.exponential(2), .get("m"), stops: [0: 1]).jsonValue == ["interpolate", ["exponential", 2], ["get", "m"], 0, 1])
        #expect(Expression.interpolate(.cubicBezier(0.1, 0.2, 0.3, 0.4), .get("m"), stops: [0: 1]).jsonValue
            == ["interpolate", ["cubic-bezier", 0.1, 0.2, 0.3, 0.4], ["get", "m"], 0, 1])
        // Every builder expression prints to JSON that parses back equal.
        for e in [radius, color, icon, filter, math, .literal(["k": 1]), .case([(.has("a"), 1)], fallback: 0), .concat("a", .get("b")),
            .match(.get("n"), [1: "one", 2: "two"], fallback: "many"), .sum(1, 2, 3), .max(.get("a"), 0), .id, .geometryType]
        {
            #expect(try Expression(json: e.jsonValue) == e, "\(e)")
        }
        #expect(Expression.sum(1, 2, 3).type == .number)
        #expect(filter.type == .boolean)
        #expect(radius.isZoomDependent)
        #expect(radius.isFeatureConstant)
        #expect(!filter.isFeatureConstant && !filter.isZoomDependent)
        #expect(icon.description == "[\"match\",[\"get\",\"POITYPE\"],\"Restroom\",\"toilet\",\"Trailhead\",\"hiking\",\"Viewpoint\",\"viewpoint\",\"\"]")
    }

    @Test func seedAppCircleRadiusIconOpacityAndTextSize() throws {
        let radius = try Expression(styleValue: ["interpolate", ["linear"], ["zoom"], 2, 2, 7, 3])
        #expect(radius.evaluateNumber(at(2), default: 5) == 2)
        #expect(radius.evaluateNumber(at(4.5), default: 5) == 2.5)
        #expect(radius.evaluateNumber(at(7), default: 5) == 3)
        #expect(radius.evaluateNumber(at(15), default: 5) == 3)
        let opacity = try Expression(styleValue: ["interpolate", ["linear"], ["zoom"], 5.9, 0, 6, 1])
        #expect(opacity.evaluateNumber(at(5), default: 1) == 0)
        #expect(opacity.evaluateNumber(at(6), default: 0) == 1)
        #expect(Swift.abs(opacity.evaluateNumber(at(5.925), default: 0) - 0.25) < 1e-9)
        let textSize = try Expression(styleValue: ["interpolate", ["linear"], ["zoom"], 10, 10, 16, 16])
        #expect(textSize.evaluateNumber(at(13), default: 0) == 13)
        #expect(textSize.evaluateNumber(at(9), default: 0) == 10)
        // Built in Swift, the same values.
        let built: Expression = .interpolate(.linear, .zoom, stops: [5.9: 0, 6: 1])
        #expect(built == opacity)
    }

    @Test func seedAppMatchStepAndModulo() throws {
        let icon = try Expression(json: ["match", ["get", "POITYPE"], "Restroom", "restroom-icon", "Trailhead", "trailhead-icon",
            "Viewpoint", "viewpoint-icon", ""], purpose: .value)
        #expect(icon.evaluate(at(0, ["POITYPE": "Restroom"])) == "restroom-icon")
        #expect(icon.evaluate(at(0, ["POITYPE": "Trailhead"])) == "trailhead-icon")
        #expect(icon.evaluate(at(0, ["POITYPE": "Viewpoint"])) == "viewpoint-icon")
        #expect(icon.evaluate(at(0, ["POITYPE": "Parking"])) == "")
        #expect(icon.evaluate(at(0, [:])) == "")
        #expect(icon.evaluate(at(0, ["POITYPE": 3])) == "")
        let color = try Expression(json: ["step", ["get", "point_count"], "green", 50, "blue", 100, "red"], purpose: .value)
        for (count, expected): (Double, JSONValue) in [(2, "green"), (49, "green"), (50, "blue"), (99, "blue"), (100, "red"), (5000, "red")] {
            #expect(color.evaluate(at(0, ["point_count": .number(count)])) == expected)
        }
        let rotation = try Expression(json: ["%", ["get", "FLOW"], 360], purpose: .value)
        #expect(rotation.evaluateNumber(at(0, ["FLOW": 1200]), default: 0) == 120)
        #expect(rotation.evaluateNumber(at(0, ["FLOW": -30]), default: 0) == -30)
        #expect(rotation.evaluateNumber(at(0, ["FLOW": "x"]), default: 7) == 7)
        #expect(rotation.evaluateNumber(at(0, [:]), default: 7) == 7)
    }

    @Test func seedAppEarthquakeLegacyFunctions() throws {
        let radius = try Expression(styleValue: ["property": "mag", "base": 1.8, "stops": [[0, 2], [8, 40]]])
        // t = (1.8^4 − 1) / (1.8^8 − 1) at mag 4.
        let t = (10.4976 - 1) / (110.19960576 - 1)
        #expect(Swift.abs(radius.evaluateNumber(at(0, ["mag": 4]), default: 0) - (2 * (1 - t) + 40 * t)) < 1e-9)
        #expect(radius.evaluateNumber(at(0, ["mag": 9]), default: 0) == 40)
        #expect(radius.evaluateNumber(at(0, ["mag": "4"]), default: 5) == 5)
        let color = try Expression(styleValue: ["property": "mag", "type": "interval", "stops": [[0, "#fff"], [3, "#f80"], [6, "#f00"]]])
        #expect(color.evaluate(at(0, ["mag": 2.9])) == "#fff")
        #expect(color.evaluate(at(0, ["mag": 3])) == "#f80")
        #expect(color.evaluate(at(0, ["mag": -1])) == "#fff")
        #expect(color.evaluate(at(0, ["mag": 7])) == "#f00")
        let shape = try Expression(styleValue: ["property": "type", "type": "categorical",
            "stops": [["earthquake", "circle"], ["quarry", "square"]], "default": "star"])
        #expect(shape.evaluate(at(0, ["type": "quarry"])) == "square")
        #expect(shape.evaluate(at(0, ["type": "explosion"])) == "star")
        #expect(shape.evaluate(at(0, [:])) == "star")
        let size = try Expression(styleValue: ["property": "mag", "type": "identity"])
        #expect(size.evaluate(at(0, ["mag": 4.2])) == 4.2)
        #expect(size.evaluate(at(0, [:])) == .null)
    }
}
