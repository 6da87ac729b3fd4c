import SpatialCore
import Testing

@Suite("Expressions: cluster properties")
struct ClusterPropertyExpressionTests {
    static let fireHydrant: JSONObject = [
        "max": ["max", ["get", "FLOW"]],
        "in_e9": ["any", ["==", ["get", "ENGINEID"], "E-9"]],
        "sum": [["+", ["accumulated"], ["get", "sum"]], ["get", "FLOW"]],
    ]

    @Test func shorthandExpandsToAccumulatedAndGet() throws {
        let props = try ClusterPropertyExpressions(json: Self.fireHydrant)
        #expect(props.names == ["max", "in_e9", "sum"])
        #expect(props.properties[0].reduce == (try Expression(json: ["max", ["accumulated"], ["get", "max"]], purpose: .clusterReduce)))
        #expect(props.properties[1].reduce.jsonValue == ["any", ["accumulated"], ["get", "in_e9"]])
        #expect(props.properties[2].reduce.jsonValue == ["+", ["accumulated"], ["get", "sum"]])
        #expect(props.properties[0].map.jsonValue == ["get", "FLOW"])
    }

    /// Map every point, reduce in order, and compare with max / any / sum computed directly.
    @Test func reduceMatchesDirectAggregatesOnSeededData() throws {
        let props = try ClusterPropertyExpressions(json: Self.fireHydrant)
        var state: UInt32 = 42
        func next() -> UInt32 { state = 1_664_525 &* state &+ 1_013_904_223; return state }
        for _ in 0..<50 {
            let count = 1 + Int(next() % 40)
            var points: [(flow: Double, engine: String)] = []
            for _ in 0..<count { points.append((Double(next() >> 20), "E-\(1 + next() % 12)")) }
            let mapped = points.map { p in
                props.mapValues(JSONObjectExpressionContext(properties: ["FLOW": .number(p.flow), "ENGINEID": .string(p.engine)]))
            }
            var accumulated = mapped[0]
            for member in mapped.dropFirst() { props.reduce(&accumulated, member: member) }
            #expect(accumulated[0] == .number(points.map(\.flow).max()!))
            #expect(accumulated[1] == .bool(points.contains { $0.engine == "E-9" }))
            #expect(accumulated[2] == .number(points.map(\.flow).reduce(0, +)))
        }
    }

    @Test func errorsGiveNullAndNullStaysNull() throws {
        let props = try ClusterPropertyExpressions(json: Self.fireHydrant)
        let missing = props.mapValues(JSONObjectExpressionContext(properties: ["ENGINEID": 9]))
        #expect(missing == [nil, false, nil])
        let good = props.mapValues(JSONObjectExpressionContext(properties: ["FLOW": 10, "ENGINEID": "E-9"]))
        var accumulated = missing
        props.reduce(&accumulated, member: good)
        #expect(accumulated == [nil, true, nil])
        props.reduce(&accumulated, member: good)
        #expect(accumulated == [nil, true, nil])
        // A member whose value is null poisons the accumulated value too.
        var fromGood = good
        props.reduce(&fromGood, member: missing)
        #expect(fromGood == [nil, true, nil])
    }

    @Test func reduceReadsOtherPropertiesOfTheMemberBySlot() throws {
        let props = try ClusterPropertyExpressions(json: [
            "a": ["+", ["get", "v"]],
            "b": [["+", ["accumulated"], ["*", 10, ["get", "a"]]], ["get", "v"]],
            "c": [["coalesce", ["get", "unknown"], ["accumulated"]], 1],
        ])
        var acc = props.mapValues(JSONObjectExpressionContext(properties: ["v": 1]))
        #expect(acc == [1, 1, 1])
        let member = props.mapValues(JSONObjectExpressionContext(properties: ["v": 2]))
        props.reduce(&acc, member: member)
        // a: 1 + 2; b: 1 + 10 · (member a = 2); c: unknown name → null → accumulated.
        #expect(acc == [3, 21, 1])
        // Member values may come from a slice of a flat store.
        let store: [JSONValue] = [0, 0, 0, 5, 5, 5]
        var acc2: [JSONValue] = [1, 1, 1]
        props.reduce(&acc2, member: store[3..<6])
        #expect(acc2 == [6, 51, 1])
    }

    @Test func concatAndAllShorthands() throws {
        let props = try ClusterPropertyExpressions(json: [
            "names": ["concat", ["get", "name"]],
            "allBig": ["all", [">", ["get", "n"], 2]],
            "product": ["*", ["get", "n"]],
            "least": ["min", ["get", "n"]],
        ])
        var acc = props.mapValues(JSONObjectExpressionContext(properties: ["name": "a", "n": 3]))
        props.reduce(&acc, member: props.mapValues(JSONObjectExpressionContext(properties: ["name": "b", "n": 4])))
        props.reduce(&acc, member: props.mapValues(JSONObjectExpressionContext(properties: ["name": "c", "n": 1])))
        #expect(acc == ["abc", false, 12, 1])
    }

    struct Bad: Sendable {
        var json: JSONObject
        var path: String
        init(_ json: JSONObject, _ path: String) { self.json = json; self.path = path }
    }

    static let bad: [Bad] = [
        Bad(["x": ["abs", ["get", "a"]]], "x[0]"),
        Bad(["x": ["max", ["zoom"]]], "x[1]"),
        Bad(["x": ["max", ["accumulated"]]], "x[1]"),
        Bad(["x": [["+", ["accumulated"], ["zoom"]], 1]], "x[0][2]"),
        Bad(["ok": ["+", 1], "x": 5], "x"),
        Bad(["x": ["+"]], "x"),
        Bad(["x": [1, ["get", "a"]]], "x[0]"),
        Bad(["x": ["nope", ["get", "a"]]], "x[0]"),
        Bad(["x": ["+", ["get", "a"], 3]], "x"),
    ]

    @Test(arguments: bad)
    func invalidClusterPropertiesNameTheirPath(_ row: Bad) {
        let (json, path) = (row.json, row.path)
        do {
            _ = try ClusterPropertyExpressions(json: json)
            Issue.record("expected a parse error at \(path)")
        } catch {
            #expect(error.path == path, "\(error)")
            #expect(error.prefixed(by: "sources.hydrants.clusterProperties").path == "sources.hydrants.clusterProperties.\(path)")
        }
    }
}
