import Foundation
import SpatialCore
import Testing

/// Legacy style functions and filters: each converted expression is evaluated beside a direct
/// evaluation of the legacy form on the same inputs.
@Suite("Expressions: legacy functions and filters")
struct LegacyConversionTests {
    static let functions: [JSONObject] = [
        ["stops": [[0, 1], [10, 5]]],
        ["base": 2, "stops": [[1, 1], [5, 20], [10, 100]]],
        ["type": "interval", "stops": [[0, "a"], [5, "b"], [10, "c"]]],
        ["stops": [[0, "a"], [5, "b"]]],
        ["type": "exponential", "base": 1.5, "stops": [[2, [0, 0]], [8, [10, -20]]]],
        ["property": "mag", "stops": [[0, 2], [8, 40]], "base": 1.8],
        ["property": "mag", "type": "interval", "stops": [[0, "green"], [3, "yellow"], [5, "red"]], "default": "grey"],
        ["property": "mag", "type": "interval", "stops": [[2, 10], [6, 20]]],
        ["property": "type", "type": "categorical", "stops": [["earthquake", "circle"], ["quarry", "square"]], "default": "triangle"],
        ["property": "kind", "type": "categorical", "stops": [["a", 1], ["b", 2]]],
        ["property": "mag", "type": "identity"],
        ["property": "mag", "type": "identity", "default": 1],
        ["property": "type", "type": "identity", "default": "unknown"],
        ["property": "flag", "type": "categorical", "stops": [[true, 1], [false, 0]], "default": -1],
        ["property": "n", "type": "categorical", "stops": [[1, "one"], [2.5, "two and a half"]]],
        ["property": "n", "type": "categorical", "stops": [[1, "one"], [2, "two"]], "default": "many"],
        ["property": "mag", "type": "exponential", "stops": [[0, [0, 0]], [10, [10, 20]]]],
        ["property": "mag", "base": 1, "stops": [[["zoom": 0, "value": 0], 0], [["zoom": 0, "value": 10], 10],
            [["zoom": 10, "value": 0], 0], [["zoom": 10, "value": 10], 100]]],
        ["property": "mag", "base": 2, "default": 3, "stops": [[["zoom": 2, "value": 1], 1], [["zoom": 2, "value": 9], 9],
            [["zoom": 6, "value": 1], 10], [["zoom": 6, "value": 9], 90]]],
        ["property": "mag", "type": "interval", "default": "?", "stops": [[["zoom": 0, "value": 0], "s"], [["zoom": 0, "value": 5], "m"],
            [["zoom": 8, "value": 0], "S"], [["zoom": 8, "value": 5], "M"]]],
    ]

    static let zooms: [Double] = [0, 0.5, 2, 3, 5, 6, 7.5, 8, 10, 12]

    static let propertySets: [JSONObject] = {
        var sets: [JSONObject] = [[:]]
        let mags: [JSONValue] = [-1, 0, 1, 2.5, 3, 4.99, 5, 7, 8, 9, "5", nil, true]
        for m in mags { sets.append(["mag": m]) }
        for t: JSONValue in ["earthquake", "quarry", "explosion", 1, nil] { sets.append(["type": t, "mag": 4]) }
        for f: JSONValue in [true, false, "true", 1] { sets.append(["flag": f]) }
        for n: JSONValue in [1, 2.5, 2, 3, "1", -0.0] { sets.append(["n": n]) }
        for k: JSONValue in ["a", "b", "c", 1] { sets.append(["kind": k]) }
        return sets
    }()

    /// Compares the reference (nil = no value) with the converted expression (nil or null = no value).
    static func agree(_ reference: JSONValue?, _ converted: JSONValue?) -> Bool {
        let r = reference == .null ? nil : reference
        let c = converted == .null ? nil : converted
        switch (r, c) {
        case (nil, nil): return true
        case (.number(let x)?, .number(let y)?): return Swift.abs(x - y) <= 1e-9 * Swift.max(1, Swift.abs(x))
        case (.array(let p)?, .array(let q)?):
            return p.count == q.count && zip(p, q).allSatisfy { agree($0, $1) }
        default: return r == c
        }
    }

    @Test(arguments: functions)
    func functionConversionAgreesWithTheLegacyDefinition(_ function: JSONObject) throws {
        let expression = try Expression(styleValue: .object(function))
        for zoom in Self.zooms {
            for properties in Self.propertySets {
                let reference = LegacyReference.function(function, zoom: zoom, properties: properties)
                let converted = expression.evaluate(JSONObjectExpressionContext(properties: properties, zoom: zoom))
                #expect(Self.agree(reference, converted),
                    "zoom \(zoom), \(compact(.object(properties))): legacy \(reference.map(compact) ?? "none"), converted \(converted.map(compact) ?? "error")")
            }
        }
    }

    @Test func conversionsHaveTheExpectedShape() throws {
        #expect(try Expression(styleValue: ["stops": [[2, 2], [7, 3]]]).jsonValue == ["interpolate", ["linear"], ["zoom"], 2, 2, 7, 3])
        #expect(try Expression(styleValue: ["base": 1.5, "stops": [[2, 2], [7, 3]]]).jsonValue
            == ["interpolate", ["exponential", 1.5], ["zoom"], 2, 2, 7, 3])
        #expect(try Expression(styleValue: ["type": "interval", "stops": [[0, "a"], [5, "b"]]]).jsonValue == ["step", ["zoom"], "a", 5, "b"])
        #expect(try Expression(styleValue: ["property": "mag", "type": "identity"]).jsonValue == ["get", "mag"])
        let categorical = try Expression(styleValue: ["property": "t", "type": "categorical", "stops": [["a", 1]], "default": 0])
        #expect(categorical.jsonValue == ["match", ["get", "t"], "a", 1, 0])
        #expect(try Expression(styleValue: 4).jsonValue == 4)
        #expect(try Expression(styleValue: [0, 2]).evaluate(JSONObjectExpressionContext(properties: [:])) == [0, 2])
        #expect(try Expression(styleValue: ["Open Sans", "Arial"]).evaluate(JSONObjectExpressionContext(properties: [:])) == ["Open Sans", "Arial"])
    }

    struct BadFunction: Sendable {
        var function: JSONObject
        var path: String
        init(_ function: JSONObject, _ path: String) { self.function = function; self.path = path }
    }

    static let badFunctions: [BadFunction] = [
        BadFunction(["stops": [[0, 1], [0, 2]]], "stops"),
        BadFunction(["stops": [[5, 1], [0, 2]]], "stops"),
        BadFunction(["stops": []], "stops"),
        BadFunction(["stops": [[0]]], "stops[0]"),
        BadFunction(["type": "cubic", "stops": [[0, 1]]], "type"),
        BadFunction(["type": "categorical", "stops": [["a", 1]]], "stops[0][0]"),
        BadFunction(["type": "categorical", "stops": [[1, 1]]], "type"),
        BadFunction(["type": "identity"], ""),
        BadFunction(["property": 3, "stops": [[0, 1]]], "property"),
        BadFunction(["base": "2", "stops": [[0, 1]]], "base"),
        BadFunction(["property": "p", "type": "exponential", "stops": [[0, "a"], [1, "b"]]], "stops"),
        BadFunction(["property": "p", "type": "interval", "stops": [["x", 1]]], "stops[0][0]"),
    ]

    @Test(arguments: badFunctions)
    func invalidFunctionsAreTypedErrors(_ row: BadFunction) {
        let (function, path) = (row.function, row.path)
        do {
            _ = try Expression(styleValue: .object(function))
            Issue.record("expected an error at \(path)")
        } catch {
            #expect(error.path == path, "\(error)")
        }
    }

    static let legacyFilters: [JSONValue] = [
        ["==", "type", "earthquake"], ["!=", "type", "earthquake"], ["==", "mag", 4], ["==", "mag", "4"],
        ["<", "mag", 3], ["<=", "mag", 4], [">", "mag", 2.5], [">=", "mag", "5"], ["<", "type", "f"], [">", "type", 1],
        ["<", "flag", true], ["has", "felt"], ["!has", "felt"], ["has", "mag"], ["in", "type", "earthquake", "quarry"],
        ["!in", "type", "earthquake"], ["in", "mag", 1, 2.5, "3"], ["in", "mag"], ["!in", "mag"],
        ["none", ["<", "mag", 3], ["==", "type", "quarry"]], ["all", ["has", "mag"], [">", "mag", 2]],
        ["any", ["==", "$type", "Point"], ["==", "$type", "Polygon"]], ["==", "$type", "LineString"],
        ["!=", "$type", "Point"], ["in", "$type", "Point", "LineString"], ["==", "$type", 1],
        ["==", "$id", 7], ["!=", "$id", "x"], ["has", "$id"], ["!has", "$id"], ["<", "$id", 10],
        ["==", "felt", nil], ["!=", "felt", nil], ["none"], ["all"], ["any"], ["has", "$type"],
        ["none", ["!=", "mag", 4], ["all", ["has", "type"], ["!in", "type", "quarry"]]],
    ]

    static let filterInputs: [(JSONObject, FeatureID?, String)] = {
        var inputs: [(JSONObject, FeatureID?, String)] = []
        let objects: [JSONObject] = [
            [:], ["type": "earthquake", "mag": 4], ["type": "quarry", "mag": 2], ["type": "explosion", "mag": 5, "felt": nil],
            ["mag": "3"], ["mag": 2.5, "felt": 12], ["type": 1, "mag": true], ["flag": false], ["mag": 3, "type": "fault"],
        ]
        let ids: [FeatureID?] = [nil, .number(7), .string("x"), .number(12)]
        let types = ["Point", "MultiPoint", "LineString", "Polygon", "MultiPolygon"]
        for (i, o) in objects.enumerated() {
            for (j, id) in ids.enumerated() { inputs.append((o, id, types[(i + j) % types.count])) }
        }
        return inputs
    }()

    @Test(arguments: legacyFilters)
    func legacyFilterAgreesWithTheLegacyDefinition(_ filter: JSONValue) throws {
        // Some (has with a key, empty all/any) read the same in both syntaxes.
        let expression = try Expression(filter: filter)
        for (properties, id, type) in Self.filterInputs {
            let reference = LegacyReference.filter(filter, properties: properties, id: id, geometryType: type)
            let converted = expression.evaluateFilter(
                JSONObjectExpressionContext(properties: properties, featureID: id, geometryType: type))
            #expect(reference == converted, "\(compact(.object(properties))) id \(String(describing: id)) \(type)")
        }
    }

    @Test func expressionAndLegacyFiltersAreToldApart() throws {
        #expect(Expression.isExpressionFilter(["==", ["get", "type"], "earthquake"]))
        #expect(Expression.isExpressionFilter(["has", "mag"]))
        #expect(!Expression.isExpressionFilter(["has", "$id"]))
        #expect(Expression.isExpressionFilter(["in", ["get", "x"], ["literal", [1]]]))
        #expect(Expression.isExpressionFilter(["in", "x", ["literal", "xyz"]]))
        #expect(!Expression.isExpressionFilter(["in", "type", "a", "b"]))
        #expect(Expression.isExpressionFilter(["all", ["==", ["get", "a"], 1], true]))
        #expect(!Expression.isExpressionFilter(["all", ["==", "a", 1], ["==", ["get", "b"], 2]]))
        #expect(Expression.isExpressionFilter(true))
        #expect(Expression.isExpressionFilter(["<", ["zoom"], 5]))
        #expect(Expression.isExpressionFilter(["==", "a", "b", "c"]))
        // A mixed "all" is legacy; its expression members are kept as they are.
        let mixed = try Expression(filter: ["all", ["==", "type", "earthquake"], ["<", ["get", "mag"], 5]])
        #expect(mixed.evaluateFilter(JSONObjectExpressionContext(properties: ["type": "earthquake", "mag": 4])))
        #expect(!mixed.evaluateFilter(JSONObjectExpressionContext(properties: ["type": "earthquake", "mag": 6])))
        #expect(throws: ExpressionParseError.self) { try Expression(filter: ["+", 1, 2]) }
        #expect(throws: ExpressionParseError.self) { try Expression(filter: ["!in"]) }
        #expect(throws: ExpressionParseError.self) { try Expression(filter: ["==", "a", ["x"]]) }
        #expect(throws: ExpressionParseError.self) { try Expression(filter: ["none", ["<", 1, "a", 3]]) }
    }

    /// The earthquake example's legacy functions over the real dataset, legacy against converted.
    @Test func earthquakeFunctionsOnTheRealDataset() throws {
        guard let bytes = TestData.dataset("earthquakes.geojson") else { return }
        let root = try JSONSerialization.jsonObject(with: Data(bytes)) as! [String: Any]
        let features = root["features"] as! [[String: Any]]
        let functions: [JSONObject] = [
            ["property": "mag", "type": "exponential", "base": 1.75, "stops": [[0, 2], [6, 30]]],
            ["property": "mag", "type": "interval", "stops": [[0, "#51bbd6"], [2, "#f1f075"], [4, "#f28cb1"]]],
            ["property": "type", "type": "categorical", "stops": [["earthquake", "#fff"], ["quarry", "#000"]], "default": "#888"],
            ["property": "mag", "type": "identity"],
            ["property": "felt", "type": "identity", "default": 0],
        ]
        for function in functions {
            let expression = try Expression(styleValue: .object(function))
            for feature in features {
                guard case .object(let properties) = jsonValue(fromFoundation: feature["properties"] ?? NSNull()) else { continue }
                for zoom in [0.0, 5, 11.5] {
                    let reference = LegacyReference.function(function, zoom: zoom, properties: properties)
                    let converted = expression.evaluate(JSONObjectExpressionContext(properties: properties, zoom: zoom))
                    #expect(Self.agree(reference, converted))
                }
            }
        }
    }
}
