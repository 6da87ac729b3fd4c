import SpatialCore
import Testing

/// Finding `get` / `has` keys by position: by the names' representation, by contents when the
/// representations differ, and through each evaluation site's position hint when the features'
/// member order changes from one feature to the next.
@Suite struct PropertyLookupTests {
    /// A name built at run time, so that it shares no storage with the literal in an expression.
    static func fresh(_ s: String) -> String { String(decoding: Array(s.utf8), as: UTF8.self) }

    /// Evaluates `json` on each object in turn through the borrowed context (hints carried over
    /// from one object to the next) and returns the results.
    static func run(_ json: JSONValue, purpose: ExpressionPurpose = .filter, on objects: [JSONObject]) throws -> [JSONValue?] {
        let e = try Expression(json: json, purpose: purpose)
        return objects.map { o in o.withExpressionContext { e.evaluate($0) } }
    }

    @Test func keysMoveBetweenFeatures() throws {
        // FLOW at position 0, then 2, then absent, then 1: each answer is that object's own value.
        let objects: [JSONObject] = [
            ["FLOW": 1, "a": "x", "b": true],
            ["a": "x", "b": true, "FLOW": 2],
            ["a": "x"],
            JSONObject(),
            ["a": "x", "FLOW": 3],
        ]
        #expect(try Self.run(["get", "FLOW"], on: objects) == [1, 2, .null, .null, 3])
        #expect(try Self.run(["has", "FLOW"], on: objects) == [true, true, false, false, true])
        #expect(try Self.run(["+", ["get", "FLOW"], 10], on: objects) == [11, 12, nil, nil, 13])
        #expect(try Self.run(["==", ["get", "FLOW"], 2], on: objects) == [false, true, false, false, false])
    }

    @Test func longNamesFoundByContents() throws {
        // Names longer than 15 UTF-8 bytes live in separate storage: the words differ, the
        // contents match.
        let long = "FIRE_HYDRANT_FLOW_GPM"
        let objects = [1.0, 2.0, 3.0].map { v in
            JSONObject([(Self.fresh("other_long_property_name"), .string("x")), (Self.fresh(long), .number(v))])
        }
        #expect(try Self.run(["get", .string(long)], on: objects) == [1, 2, 3])
        #expect(try Self.run(["*", ["get", .string(long)], 2], on: objects) == [2, 4, 6])
        // A same-length name with other contents is not a match.
        let near = [JSONObject([(Self.fresh("FIRE_HYDRANT_FLOW_GPN"), .number(9))])]
        #expect(try Self.run(["get", .string(long)], on: near) == [.null])
    }

    @Test func shortNamesAndNonASCII() throws {
        let objects = [JSONObject([(Self.fresh("é"), .number(1)), (Self.fresh("e"), .number(2)), (Self.fresh(""), .number(3))])]
        #expect(try Self.run(["get", "e"], on: objects) == [2])
        #expect(try Self.run(["get", "é"], on: objects) == [1])
        #expect(try Self.run(["get", ""], on: objects) == [3])
        #expect(try Self.run(["get", "E"], on: objects) == [.null])
    }

    @Test func borrowedContextReadsIdAndGeometryType() throws {
        let feature = Feature(id: .string("hydrant-12"), geometry: .point(Position(longitude: 1, latitude: 2)), properties: ["FLOW": 5])
        let id = try Expression(json: ["id"])
        let type = try Expression(json: ["geometry-type"])
        #expect(feature.withExpressionContext { id.evaluate($0) } == "hydrant-12")
        #expect(feature.withExpressionContext { type.evaluate($0) } == "Point")
        #expect(JSONObject().withExpressionContext(featureID: .number(3)) { id.evaluate($0) } == 3)
        #expect(JSONObject().withExpressionContext { id.evaluate($0) } == .null)
    }

    @Test func clusterMapOverChangingShapes() throws {
        let properties = try ClusterPropertyExpressions(json: [
            "max": ["max", ["get", "FLOW"]],
            "in_e9": ["any", ["==", ["get", "ENGINEID"], "E-9"]],
        ])
        let objects: [JSONObject] = [
            ["FLOW": 100, "ENGINEID": "E-9"],
            ["ENGINEID": "E-1", "x": 0, "FLOW": 7],
            ["x": 0],
        ]
        let values = objects.map { o in o.withExpressionContext { properties.mapValues($0) } }
        #expect(values == [[100, true], [7, false], [nil, false]])
    }

    /// Features read in place from a buffer (`withExpressionContext(at:)`): each sees its own
    /// members (whatever their order), id and geometry type; fused instructions included.
    @Test func featuresReadInPlaceFromABuffer() throws {
        let features = [
            Feature(id: .number(7), geometry: .point(Position(longitude: 1, latitude: 2)),
                properties: ["FLOW": 1200, "ENGINEID": "E-9"]),
            Feature(id: .string("b"), geometry: nil, properties: ["ENGINEID": "E-3", "FLOW": 800]),
            Feature(geometry: .point(Position(longitude: 0, latitude: 0)), properties: ["ENGINEID": 9]),
        ]
        let maximum = try Expression(json: ["max", ["get", "FLOW"]], purpose: .value)
        let isE9 = try Expression(json: ["any", ["==", ["get", "ENGINEID"], "E-9"]])
        let over = try Expression(json: [">", ["get", "FLOW"], 1000])
        let id = try Expression(json: ["id"], purpose: .value)
        let type = try Expression(json: ["geometry-type"], purpose: .value)
        let results = features.withUnsafeBufferPointer { buffer in
            buffer.indices.map { i in
                buffer.withExpressionContext(at: i) { c in
                    [maximum.evaluate(c), isE9.evaluate(c), over.evaluate(c), id.evaluate(c), type.evaluate(c)]
                }
            }
        }
        // max of a missing FLOW (null) is an error; "E-9" only in the first; 800 > 1000 false and
        // null > 1000 an error; ids 7, "b", none (null); geometry types Point, none (null), Point.
        #expect(results[0] == [1200, true, true, 7, "Point"])
        #expect(results[1] == [800, false, false, "b", .some(.null)])
        #expect(results[2] == [nil, false, nil, .some(.null), "Point"])
    }
}
