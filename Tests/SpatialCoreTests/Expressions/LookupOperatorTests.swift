import SpatialCore
import Testing

/// Lookup operators: get, has, id, geometry-type, properties, zoom, accumulated, literal, at, in,
/// index-of, length. Expected values worked out from `expressions.md` and the style spec.
let lookupCases: [ExpressionCase] = [
    c(["get", "n"], 5),
    c(["get", "missing"], nil),
    c(["get", "z"], nil),
    c(["get", "s"], "abc"),
    c(["get", "arr"], [1, 2, 3]),
    c(["get", "obj"], ["k": 1]),
    c(["get", "k", ["literal", ["k": 3]]], 3),
    c(["get", "x", ["literal", ["k": 3]]], nil),
    failsAtRunTime(["get", "k", ["get", "n"]]),
    c(["get", ["concat", "F", "LOW"]], 1200),
    failsAtRunTime(["get", ["get", "missing"]]),
    rejected(["get", 1]),
    rejected(["get"]),
    rejected(["get", "a", ["literal", [:]], "c"]),
    rejected(["get", "k", 5]),
    c(["has", "z"], true),
    c(["has", "missing"], false),
    c(["has", "n"], true),
    c(["has", "k", ["literal", ["k": nil]]], true),
    c(["has", "x", ["literal", [:]]], false),
    rejected(["has"]),
    c(["id"], 7),
    rejected(["id", 1]),
    c(["geometry-type"], "Point"),
    c(["get", "n", ["properties"]], 5),
    c(["typeof", ["properties"]], "object"),
    c(["zoom"], 3.5, zoom: 3.5),
    rejected(["zoom", 1]),
    rejected(["accumulated"]),
    rejected(["accumulated"], purpose: .value),
    rejected(["accumulated"], purpose: .clusterMap),
    c(["literal", [1, 2]], [1, 2]),
    c(["literal", ["a": 1]], ["a": 1]),
    c(["literal", "x"], "x"),
    rejected(["literal", 1, 2]),
    rejected(["literal"]),
    rejected([1, 2]),
    rejected([]),
    rejected(["a": 1]),
    rejected(["foo", 1]),
    rejected(["!has", "n"]),
    c(["at", 1, ["literal", ["a", "b", "c"]]], "b"),
    c(["at", 0, ["get", "arr"]], 1),
    failsAtRunTime(["at", 3, ["literal", ["a", "b", "c"]]]),
    failsAtRunTime(["at", -1, ["literal", ["a", "b", "c"]]]),
    failsAtRunTime(["at", 1.5, ["literal", ["a", "b", "c"]]]),
    failsAtRunTime(["at", 0, ["get", "n"]]),
    failsAtRunTime(["at", ["get", "s"], ["get", "arr"]]),
    // `at` takes arrays only (upstream); a string is a parse error, or an evaluation error when
    // only known at run time.
    rejected(["at", 1, "a😀b"]),
    failsAtRunTime(["at", 0, ["get", "s"]]),
    failsAtRunTime(["at", 0, ["get", "emoji"]]),
    rejected(["at", "0", ["literal", [1]]]),
    rejected(["at", 0, 5]),
    rejected(["at", 0]),
    c(["in", "b", "abc"], true),
    c(["in", "d", "abc"], false),
    c(["in", "", "abc"], true),
    c(["in", "bc", ["get", "s"]], true),
    c(["in", 2, ["literal", [1, 2, 3]]], true),
    c(["in", "2", ["literal", [1, 2, 3]]], false),
    c(["in", ["get", "n"], ["get", "arr"]], false),
    c(["in", 1, ["get", "arr"]], true),
    c(["in", 1, "a1b"], true),
    c(["in", nil, ["literal", [nil]]], true),
    c(["in", true, "trueish"], true),
    c(["in", "😀", ["get", "emoji"]], true),
    failsAtRunTime(["in", "a", ["get", "n"]]),
    // A haystack JavaScript deems false contains nothing (the style spec's `in`), so that
    // `["!", ["in", …]]` holds for a missing property.
    c(["in", "a", ["get", "missing"]], false),
    c(["!", ["in", "a", ["get", "missing"]]], true),
    c(["case", ["in", "a", ["get", "missing"]], "yes", "no"], "no"),
    c(["in", "", ""], false),
    failsAtRunTime(["in", ["get", "arr"], ["get", "arr"]]),
    rejected(["in", ["literal", [1]], "abc"]),
    rejected(["in", "a", 5]),
    rejected(["in", "a"]),
    c(["index-of", "b", "abc"], 1),
    c(["index-of", "z", "abc"], -1),
    c(["index-of", "b", "a😀b"], 2),
    c(["index-of", 3, ["literal", [1, 2, 3]]], 2),
    c(["index-of", "3", ["literal", [1, 2, 3]]], -1),
    c(["index-of", 1, ["literal", [1, 2, 1]], 1], 2),
    c(["index-of", "a", "aXa", 1], 2),
    c(["index-of", 1, ["literal", [1, 2, 1]], -1], 2),
    c(["index-of", "", "abc"], 0),
    c(["index-of", "a", "abc", 10], -1),
    failsAtRunTime(["index-of", "a", ["get", "n"]]),
    rejected(["index-of", "a"]),
    rejected(["index-of", "a", "b", "c"]),
    c(["length", "abc"], 3),
    c(["length", "a😀b"], 3),
    c(["length", ""], 0),
    c(["length", ["get", "arr"]], 3),
    c(["length", ["literal", []]], 0),
    failsAtRunTime(["length", ["get", "n"]]),
    failsAtRunTime(["length", ["get", "missing"]]),
    rejected(["length", 5]),
    rejected(["length", "a", "b"]),
]

@Suite("Expressions: lookup operators")
struct LookupOperatorTests {
    @Test(arguments: lookupCases)
    func lookup(_ row: ExpressionCase) {
        let failure = check(row)
        #expect(failure == nil, "\(row.testDescription): \(failure ?? "")")
    }

    @Test func propertiesReturnsTheWholeObject() throws {
        let e = try Expression(json: ["properties"])
        let props: JSONObject = ["a": 1, "b": "x"]
        #expect(e.evaluate(JSONObjectExpressionContext(properties: props)) == .object(props))
    }

    @Test func featureContextReadsIdGeometryAndProperties() throws {
        let feature = Feature(id: .string("f1"), geometry: .lineString([]), properties: ["FLOW": 10])
        let context = FeatureExpressionContext(feature: feature, zoom: 4)
        #expect(try Expression(json: ["id"]).evaluate(context) == "f1")
        #expect(try Expression(json: ["geometry-type"]).evaluate(context) == "LineString")
        #expect(try Expression(json: ["get", "FLOW"]).evaluate(context) == 10)
        #expect(try Expression(json: ["zoom"]).evaluate(context) == 4)
        let noID = FeatureExpressionContext(feature: Feature(geometry: nil))
        #expect(try Expression(json: ["id"]).evaluate(noID) == .null)
        #expect(try Expression(json: ["geometry-type"]).evaluate(noID) == .null)
    }

    @Test func borrowedContextReadsTheSameAsTheFeatureContext() throws {
        let expressions: [JSONValue] = [["id"], ["geometry-type"], ["get", "FLOW"], ["has", "x"], ["get", "name"],
            ["properties"], ["zoom"], ["+", ["get", "FLOW"], ["zoom"]], ["==", ["get", "name"], "hydrant"]]
        let features = [
            Feature(id: .string("f1"), geometry: .multiPolygon([]), properties: ["FLOW": 10, "name": "hydrant"]),
            Feature(id: .number(3), geometry: .point(Position(longitude: 1, latitude: 2)), properties: [:]),
            Feature(geometry: nil, properties: ["x": nil]),
        ]
        for json in expressions {
            let e = try Expression(json: json)
            for feature in features {
                let expected = e.evaluate(FeatureExpressionContext(feature: feature, zoom: 2.5))
                #expect(feature.withExpressionContext(zoom: 2.5) { e.evaluate($0) } == expected, "\(compact(json))")
                let plain = e.evaluate(JSONObjectExpressionContext(properties: feature.properties, zoom: 2.5, featureID: feature.id,
                    geometryType: feature.geometry?.typeName))
                #expect(plain == expected)
            }
        }
    }
}
