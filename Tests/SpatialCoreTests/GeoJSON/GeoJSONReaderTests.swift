import Foundation
import Testing

@testable import SpatialCore

/// The GeoJSON reader on hand-written input: everything the spec accepts, and every error with its
/// kind, line:column and feature index.
@Suite struct GeoJSONReaderTests {
    func read(_ text: String, skip: Bool = false) throws(GeoJSONError) -> FeatureCollection {
        try GeoJSON.read(Array(text.utf8), options: .init(skipInvalidFeatures: skip))
    }

    func features(_ text: String) throws -> [Feature] { try read(text).features }

    func point(_ lng: Double, _ lat: Double, _ alt: Double? = nil) -> Geometry {
        .point(Position(longitude: lng, latitude: lat, altitude: alt))
    }

    // MARK: Accepted

    @Test func featureCollection() throws {
        let text = """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","id":7,"geometry":{"type":"Point","coordinates":[1.5,-2.25]},"properties":{"name":"a","n":1}},
              {"type":"Feature","id":"x-1","geometry":{"type":"Point","coordinates":[-180,90,12.5]},"properties":{"name":"b","n":null}}
            ]}
            """
        let result = try read(text)
        #expect(result.report.skippedCount == 0)
        #expect(result.features == [
            Feature(id: .number(7), geometry: point(1.5, -2.25), properties: ["name": "a", "n": 1]),
            Feature(id: .string("x-1"), geometry: point(-180, 90, 12.5), properties: ["name": "b", "n": nil]),
        ])
        #expect(result.features[0].properties.keys == ["name", "n"])
    }

    @Test func membersInAnyOrder() throws {
        let expected = [Feature(id: .number(1), geometry: point(3, 4), properties: ["k": "v"])]
        let texts = [
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":1,"geometry":{"type":"Point","coordinates":[3,4]},"properties":{"k":"v"}}]}"#,
            #"{"features":[{"properties":{"k":"v"},"geometry":{"coordinates":[3,4],"type":"Point"},"id":1,"type":"Feature"}],"type":"FeatureCollection"}"#,
            #"{"bbox":[0,0,1,1],"features":[{"geometry":{"bbox":[3,4,3,4],"coordinates":[3,4],"crs":null,"type":"Point"},"type":"Feature","properties":{"k":"v"},"id":1}],"crs":{"type":"name","properties":{"name":"x"}},"type":"FeatureCollection"}"#,
        ]
        for text in texts { #expect(try features(text) == expected, "\(text)") }
    }

    @Test func singleFeatureAndBareGeometries() throws {
        #expect(try features(#"{"type":"Feature","geometry":null,"properties":{"a":[1,{"b":2}]}}"#)
            == [Feature(geometry: nil, properties: ["a": [1, ["b": 2]]])])
        #expect(try features(#"{"properties":null,"type":"Feature","id":-0.5,"geometry":{"type":"Point","coordinates":[0,0]}}"#)
            == [Feature(id: .number(-0.5), geometry: point(0, 0))])
        let geometries: [(String, Geometry)] = [
            (#"{"type":"Point","coordinates":[1,2]}"#, point(1, 2)),
            (#"{"coordinates":[[1,2],[3,4]],"type":"MultiPoint"}"#, .multiPoint([.init(longitude: 1, latitude: 2), .init(longitude: 3, latitude: 4)])),
            (#"{"type":"LineString","coordinates":[[1,2],[3,4,5]]}"#, .lineString([.init(longitude: 1, latitude: 2), .init(longitude: 3, latitude: 4, altitude: 5)])),
            (#"{"type":"MultiLineString","coordinates":[[[1,2],[3,4]],[]]}"#, .multiLineString([[.init(longitude: 1, latitude: 2), .init(longitude: 3, latitude: 4)], []])),
            (#"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}"#, .polygon([[.init(longitude: 0, latitude: 0), .init(longitude: 1, latitude: 0), .init(longitude: 1, latitude: 1), .init(longitude: 0, latitude: 0)]])),
            (#"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,1],[0,0]]],[]]}"#, .multiPolygon([[[.init(longitude: 0, latitude: 0), .init(longitude: 1, latitude: 1), .init(longitude: 0, latitude: 0)]], []])),
            (#"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]},{"type":"GeometryCollection","geometries":[]}]}"#, .geometryCollection([point(1, 2), .geometryCollection([])])),
            (#"{"type":"LineString","coordinates":[]}"#, .lineString([])),
        ]
        for (text, geometry) in geometries {
            #expect(try features(text) == [Feature(geometry: geometry)], "\(text)")
        }
    }

    @Test func foreignMembersAreIgnored() throws {
        let text = """
            {"type":"FeatureCollection","name":"x","crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:OGC:1.3:CRS84"}},
             "features":[{"type":"Feature","coordinates":"not mine","geometries":7,"title":{"deep":[[[]]]},
               "geometry":{"type":"Point","coordinates":[1,2],"properties":"not mine","geometries":null,"features":1},
               "properties":{}}],"geometry":5,"properties":false}
            """
        #expect(try features(text) == [Feature(geometry: point(1, 2))])
    }

    @Test func idsPropertiesAndGeometryVariants() throws {
        let text = #"""
            {"type":"FeatureCollection","features":[
             {"type":"Feature","id":"a","geometry":null,"properties":null},
             {"type":"Feature","id":null,"properties":{"x":1}},
             {"type":"Feature","id":1e2,"geometry":{"type":"Point","coordinates":[1,2]}},
             {"type":"Feature","geometry":{"type":"Point","coordinates":[-0.0,-0,1,2,3]},"properties":{"x":2,"y":"\u00e9\n"}},
             {"type":"Feature","geometry":{"type":"Point","coordinates":[540,-90]},"properties":{"y":"z","x":3}}
            ]}
            """#
        let f = try features(text)
        #expect(f.count == 5)
        #expect(f[0] == Feature(id: .string("a"), geometry: nil))
        #expect(f[1] == Feature(id: nil, geometry: nil, properties: ["x": 1]))
        #expect(f[2] == Feature(id: .number(100), geometry: point(1, 2)))
        guard case .point(let p)? = f[3].geometry else { Issue.record("not a point"); return }
        #expect(p.longitude.sign == .minus && p.latitude.sign == .minus && p.altitude == 1)
        #expect(f[3].properties == ["x": 2, "y": "é\n"])
        #expect(f[4].geometry == point(540, -90))  // longitude is not wrapped at read time
        #expect(f[4].properties.keys == ["y", "x"])
    }

    @Test func emptyCollectionsAndWhitespace() throws {
        #expect(try features(#"{"type":"FeatureCollection","features":[]}"#).isEmpty)
        #expect(try features(" \n\t{ \"features\" : [ ] , \"type\" : \"FeatureCollection\" } \r\n").isEmpty)
        #expect(try features("\u{FEFF}{\"type\":\"FeatureCollection\",\"features\":[]}").isEmpty)
        let spaced = """
            {
              "type" : "FeatureCollection" ,
              "features" : [ {
                "type" : "Feature" ,
                "geometry" : { "type" : "Point" , "coordinates" : [ 1 , 2 , 3 ] } ,
                "properties" : { "a" : [ 1 , 2 ] , "b" : { } }
              } ]
            }
            """
        #expect(try features(spaced) == [Feature(geometry: point(1, 2, 3), properties: ["a": [1, 2], "b": [:]])])
    }

    @Test func escapedMemberNames() throws {
        let text = #"{"typ\u0065":"FeatureCollection","f\u0065atures":[{"type":"F\u0065ature","g\u0065ometry":{"type":"Point","co\u006Frdinates":[1,2]},"propertie\u0073":{"\u0061":1,"a\"b":2}}]}"#
        #expect(try features(text) == [Feature(geometry: point(1, 2), properties: ["a": 1, "a\"b": 2])])
    }

    @Test func propertyShapesChange() throws {
        let text = #"""
            {"type":"FeatureCollection","features":[
             {"type":"Feature","geometry":null,"properties":{"a":1,"b":2}},
             {"type":"Feature","geometry":null,"properties":{"a":1,"b":2}},
             {"type":"Feature","geometry":null,"properties":{"a":1}},
             {"type":"Feature","geometry":null,"properties":{"a":1,"b":2,"c":3}},
             {"type":"Feature","geometry":null,"properties":{"b":2,"a":1}},
             {"type":"Feature","geometry":null,"properties":{"a":1,"a":5,"b":2}},
             {"type":"Feature","geometry":null,"properties":{"\u0061":1,"b":2}},
             {"type":"Feature","geometry":null,"properties":{}},
             {"type":"Feature","geometry":null,"properties":{"a":{"a":{"a":1}},"b":[{"b":2}]}}
            ]}
            """#
        let f = try features(text)
        #expect(f.map(\.properties.keys) == [["a", "b"], ["a", "b"], ["a"], ["a", "b", "c"], ["b", "a"], ["a", "b"], ["a", "b"], [], ["a", "b"]])
        #expect(f[5].properties == ["a": 5, "b": 2])
        #expect(f[8].properties == ["a": ["a": ["a": 1]], "b": [["b": 2]]])
    }

    /// Repeated feature and point openings are stepped over as learned templates: the members
    /// after the template must still all be read.
    @Test func repeatedOpeningsKeepEveryMember() throws {
        let body = #"{"type":"Feature","id":-0,"geometry":{"type":"Point","coordinates":[1,2],"bbox":[1,2,1,2]},"properties":{"a":1}}"#
        let variants = [
            body, body, body,
            #"{"type":"Feature","id":"s","geometry":{"type":"Point","coordinates":[3,4],"coordinates":[5,6]},"properties":{"a":2}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[7,8]},"id":9,"properties":{}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[7,8]},"id":10,"properties":{}}"#,
            #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[7,8]]}}"#,
        ]
        let f = try features(collection(variants))
        #expect(f.map(\.id) == [.number(-0.0), .number(-0.0), .number(-0.0), .string("s"), .number(9), .number(10), nil])
        #expect(f.map(\.geometry) == [point(1, 2), point(1, 2), point(1, 2), point(5, 6), point(7, 8), point(7, 8),
                                       .lineString([Position(longitude: 7, latitude: 8)])])
        #expect(f[0].properties == ["a": 1] && f[3].properties == ["a": 2] && f[5].properties.isEmpty)
    }

    func collection(_ bodies: [String]) -> String {
        "{\"type\":\"FeatureCollection\",\"features\":[\n" + bodies.joined(separator: ",\n") + "\n]}"
    }

    /// Properties objects of one shape are read over learned byte templates; any difference
    /// (white space, an extra or missing member, another order) falls back to reading by token.
    @Test func propertyTemplatesFallBack() throws {
        let bodies = [
            #"{"a":1,"b":"x"}"#, #"{"a":2,"b":"y"}"#, #"{"a": 3,"b":"z"}"#, #"{"a":4 , "b":"w"}"#,
            #"{"a":5,"b":"v","c":true}"#, #"{"a":6}"#, #"{"b":"u","a":7}"#, #"{"a":8,"b":"t"}"#,
            #"{ "a":9,"b":"s" }"#, #"{"a":10,"\u0062":"r"}"#, #"{"a":{"a":1,"b":2},"b":[{"a":1}]}"#, #"{"a":12,"b":"q"}"#,
        ].map { #"{"type":"Feature","geometry":null,"properties":"# + $0 + "}" }
        let f = try features(collection(bodies))
        #expect(f.map(\.properties) == [
            ["a": 1, "b": "x"], ["a": 2, "b": "y"], ["a": 3, "b": "z"], ["a": 4, "b": "w"], ["a": 5, "b": "v", "c": true],
            ["a": 6], ["b": "u", "a": 7], ["a": 8, "b": "t"], ["a": 9, "b": "s"], ["a": 10, "b": "r"],
            ["a": ["a": 1, "b": 2], "b": [["a": 1]]], ["a": 12, "b": "q"],
        ])
        #expect(f[6].properties.keys == ["b", "a"])
        let points = try GeoJSON.readPoints(Array(collection(bodies).utf8))
        #expect(points.features == f)
    }

    @Test func newlineDelimited() throws {
        let text = """
            {"type":"Feature","id":1,"geometry":{"type":"Point","coordinates":[1,2]},"properties":{"a":1}}

            \u{1E}{"type":"Feature","id":2,"geometry":null,"properties":{"a":2}}\r
              {"type":"Point","coordinates":[3,4]}
            """
        let result = try GeoJSON.read(ndjson: Array(text.utf8))
        #expect(result.features == [
            Feature(id: .number(1), geometry: point(1, 2), properties: ["a": 1]),
            Feature(id: .number(2), geometry: nil, properties: ["a": 2]),
            Feature(geometry: point(3, 4)),
        ])
        #expect(try GeoJSON.read(ndjson: [UInt8]()).features.isEmpty)
        #expect(try GeoJSON.read(ndjson: Array("\n\n  \n".utf8)).features.isEmpty)
    }

    // MARK: Errors

    /// The 1-based line and column (in characters) of the first occurrence of `marker` in `text`.
    func location(of marker: String, in text: String) -> (line: Int, column: Int) {
        let range = text.range(of: marker)!
        let before = text[..<range.lowerBound]
        let line = before.filter { $0 == "\n" }.count + 1
        let lineStart = before.lastIndex(of: "\n").map { before.index(after: $0) } ?? before.startIndex
        return (line, before[lineStart...].unicodeScalars.count + 1)
    }

    func expectError(
        _ text: String, _ kind: GeoJSONError.Kind, at marker: String? = nil, line: Int? = nil, column: Int? = nil,
        feature: Int?, ndjson: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let bytes = Array(text.utf8)
            let result = ndjson ? try GeoJSON.read(ndjson: bytes) : try GeoJSON.read(bytes)
            Issue.record("expected \(kind), read \(result.features)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
            if let marker {
                let at = location(of: marker, in: text)
                #expect(error.line == at.line && error.column == at.column, "\(error)", sourceLocation: sourceLocation)
            }
            if let line { #expect(error.line == line, "line", sourceLocation: sourceLocation) }
            if let column { #expect(error.column == column, "column", sourceLocation: sourceLocation) }
            #expect(error.featureIndex == feature, "feature index", sourceLocation: sourceLocation)
            #expect(!error.message.isEmpty, sourceLocation: sourceLocation)
        }
    }

    /// A FeatureCollection whose features are `bodies`, one per line (feature i on line i + 2).
    func collection(_ bodies: String...) -> String {
        "{\"type\":\"FeatureCollection\",\"features\":[\n" + bodies.joined(separator: ",\n") + "\n]}"
    }

    let good = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}"#

    @Test func truncatedAndBrokenJSON() {
        expectError("", .truncated, line: 1, column: 1, feature: nil)
        expectError("   ", .truncated, line: 1, column: 4, feature: nil)
        let header = "{\"type\":\"FeatureCollection\",\"features\":[\n"
        let cut = header + good + ",\n" + #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,"#
        expectError(cut, .truncated, line: 3, column: 63, feature: 1)
        let unclosed = header + good + ",\n" + good + ",\n" + #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]}"#
        expectError(unclosed, .truncated, line: 4, column: 66, feature: 2)
        expectError(header + good, .truncated, line: 2, column: 83, feature: nil)
        expectError(collection(good, #"{"type":"Feature" "geometry":null}"#), .invalidJSON(.expectedCommaOrEnd), at: #""geometry":null"#, feature: 1)
        expectError(collection(#"{"type":"Feature","properties":{"a":tru}}"#), .invalidJSON(.invalidLiteral), at: "}}", feature: 0)
        expectError(collection(#"{"type":"Feature","properties":{"a":"\x"}}"#), .invalidJSON(.invalidEscape), at: #"x""#, feature: 0)
        expectError(collection(good) + " x", .invalidJSON(.trailingCharacters), at: "x", feature: nil)
        expectError(#"{"type":"FeatureCollection","features":[}"#, .invalidJSON(.expectedValue), at: "}", feature: 0)
        expectError(#"{"type":"FeatureCollection","features":[]"#, .truncated, line: 1, column: 42, feature: nil)
    }

    @Test func wrongMemberTypes() {
        expectError(#"{"type":"FeatureCollection","features":{}}"#, .wrongMemberType, at: "{}", feature: nil)
        expectError(#"[{"type":"Feature"}]"#, .wrongMemberType, line: 1, column: 1, feature: nil)
        expectError(collection(good, "7"), .wrongMemberType, at: "7", feature: 1)
        expectError(collection(#"{"type":"Feature","properties":3}"#), .wrongMemberType, at: "3", feature: 0)
        expectError(collection(#"{"type":"Feature","properties":[]}"#), .wrongMemberType, at: "[]", feature: 0)
        expectError(collection(#"{"type":"Feature","id":true}"#), .wrongMemberType, at: "true", feature: 0)
        expectError(collection(#"{"type":"Feature","id":{"x":1}}"#), .wrongMemberType, at: #"{"x""#, feature: 0)
        expectError(collection(#"{"type":"Feature","geometry":"x"}"#), .wrongMemberType, at: #""x""#, feature: 0)
        expectError(collection(#"{"type":7}"#), .wrongMemberType, at: "7", feature: 0)
        expectError(#"{"type":"Point","coordinates":"1,2"}"#, .wrongMemberType, at: #""1,2""#, feature: 0)
        expectError(#"{"type":"LineString","coordinates":[1,2]}"#, .wrongMemberType, at: "1,", feature: 0)
        expectError(#"{"type":"Polygon","coordinates":[[1,2]]}"#, .wrongMemberType, at: "1,", feature: 0)
        expectError(#"{"type":"MultiPolygon","coordinates":[[[1,2]]]}"#, .wrongMemberType, at: "1,", feature: 0)
        expectError(#"{"type":"GeometryCollection","geometries":[null]}"#, .wrongMemberType, at: "null", feature: 0)
        expectError(#"{"type":"GeometryCollection","geometries":{}}"#, .wrongMemberType, at: "{}", feature: 0)
    }

    @Test func missingOrUnknownType() {
        expectError(#"{"features":[]}"#, .missingType, line: 1, column: 1, feature: nil)
        expectError(collection(good, #"{"geometry":null,"properties":{}}"#), .missingType, line: 3, column: 1, feature: 1)
        expectError(collection(#"{"type":"Feature","geometry":{"coordinates":[1,2]}}"#), .missingType, at: #"{"coord"#, feature: 0)
        expectError(#"{"type":"Circle","radius":1}"#, .unknownType, at: #""Circle""#, feature: nil)
        expectError(collection(#"{"type":"Feature","geometry":{"type":"point","coordinates":[1,2]}}"#), .unknownType, at: #""point""#, feature: 0)
        expectError(collection(#"{"type":"Feature","geometry":{"type":"Feature","coordinates":[1,2]}}"#), .unexpectedType, at: #""Feature","c"#, feature: 0)
        expectError(collection(good, #"{"type":"Point","coordinates":[1,2]}"#), .unexpectedType, at: "\"Point\",\"coordinates\":[1,2]}\n", feature: 1)
        expectError(#"{"type":"GeometryCollection","geometries":[{"type":"FeatureCollection","features":[]}]}"#, .unexpectedType, at: #""FeatureCollection""#, feature: 0)
    }

    @Test func missingMembers() {
        expectError(#"{"type":"FeatureCollection"}"#, .missingMember, line: 1, column: 1, feature: nil)
        expectError(collection(#"{"type":"Feature","geometry":{"type":"Point"}}"#), .missingMember, at: #"{"type":"Point"#, feature: 0)
        expectError(#"{"type":"GeometryCollection","coordinates":[]}"#, .missingMember, line: 1, column: 1, feature: 0)
        expectError(#"{"type":"MultiPoint","geometries":[]}"#, .missingMember, line: 1, column: 1, feature: 0)
    }

    @Test func badPositionsAndNumbers() {
        func geometry(_ coordinates: String) -> String {
            collection(good, #"{"type":"Feature","geometry":{"type":"Point","coordinates":"# + coordinates + "}}")
        }
        expectError(geometry("[1]"), .badPosition, at: "]}}", feature: 1)
        expectError(geometry("[]"), .badPosition, at: "]}}", feature: 1)
        expectError(geometry(#"[1,"2"]"#), .badPosition, at: #""2""#, feature: 1)
        expectError(geometry("[null,2]"), .badPosition, at: "null", feature: 1)
        expectError(geometry("[[1,2]]"), .badPosition, at: "[1,2]]", feature: 1)
        expectError(geometry("[1,2,true]"), .badPosition, at: "true", feature: 1)
        expectError(geometry("[1e400,2]"), .nonFiniteNumber, at: "1e400", feature: 1)
        expectError(geometry("[1,-1e999]"), .nonFiniteNumber, at: "-1e999", feature: 1)
        expectError(geometry("[NaN,2]"), .nonFiniteNumber, at: "NaN", feature: 1)
        expectError(geometry("[1,Infinity]"), .nonFiniteNumber, at: "Infinity", feature: 1)
        expectError(geometry("[1,2,-Infinity]"), .nonFiniteNumber, at: "-Infinity", feature: 1)
        expectError(geometry("[1,90.000001]"), .latitudeOutOfRange, at: "90.000001", feature: 1)
        expectError(geometry("[1, -91]"), .latitudeOutOfRange, at: "-91", feature: 1)
        expectError(geometry("[1,2,]"), .invalidJSON(.expectedValue), at: "]}}", feature: 1)
        expectError(geometry("[1,nul]"), .invalidJSON(.invalidLiteral), at: "]}}", feature: 1)
        expectError(collection(#"{"type":"Feature","properties":{"big":1e400}}"#), .nonFiniteNumber, at: "1e400", feature: 0)
        expectError(#"{"type":"Polygon","coordinates":[[[0,0],[1,95],[0,0]]]}"#, .latitudeOutOfRange, at: "95", feature: 0)
    }

    @Test func depthLimit() {
        let nested = String(repeating: #"{"type":"GeometryCollection","geometries":["#, count: 300) + String(repeating: "]}", count: 300)
        expectError(nested, .tooDeep, feature: 0)
        let deepProperties = collection(#"{"type":"Feature","properties":{"a":"# + String(repeating: "[", count: 100_000))
        expectError(deepProperties, .tooDeep, feature: 0)
        // At the limit itself it reads.
        let ok = String(repeating: #"{"type":"GeometryCollection","geometries":["#, count: 255) + String(repeating: "]}", count: 255)
        #expect((try? read(ok))?.features.count == 1)
    }

    @Test func newlineDelimitedErrors() {
        let lines = [good, #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,100]}}"#].joined(separator: "\n")
        expectError(lines, .latitudeOutOfRange, at: "100", feature: 1, ndjson: true)
        expectError(good + "\n" + good + " x\n", .invalidJSON(.trailingCharacters), line: 2, column: 84, feature: 1, ndjson: true)
        expectError(good + "\n" + #"{"type":"FeatureCollection","features":[]}"#, .unexpectedType, at: #""FeatureCollection""#, feature: 1, ndjson: true)
        expectError(good + "\n[1]", .wrongMemberType, line: 2, column: 1, feature: 1, ndjson: true)
        expectError(good + "\n{\"type\":\"Feature\",\n", .truncated, line: 2, column: 19, feature: 1, ndjson: true)
    }

    // MARK: Skipping invalid features

    @Test func skipInvalidFeatures() throws {
        let text = collection(
            good,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,100]},"properties":{"a":[1,2,{"b":3}]}}"#,
            #"{"type":"Feature","id":2,"geometry":null,"properties":{"z":1}}"#,
            #"{"type":"Circle"}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1e999,0]}}"#,
            #"{"properties":{}}"#,
            "12",
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[5,6]},"properties":{"ok":true}}"#)
        let result = try read(text, skip: true)
        #expect(result.features == [
            Feature(geometry: point(1, 2)), Feature(id: .number(2), geometry: nil, properties: ["z": 1]),
            Feature(geometry: point(5, 6), properties: ["ok": true]),
        ])
        #expect(result.report.skippedCount == 5)
        #expect(result.report.skipped.map(\.index) == [1, 3, 4, 5, 6])
        #expect(result.report.skipped.map(\.error.kind) == [.latitudeOutOfRange, .unknownType, .nonFiniteNumber, .missingType, .wrongMemberType])
        #expect(result.report.skipped.map(\.error.featureIndex) == [1, 3, 4, 5, 6])
        #expect(result.report.skipped.map(\.error.line) == [3, 5, 6, 7, 8])
        #expect(result.report.skipped.allSatisfy { $0.error.isRecoverable })
        // Without the option the first one is an error.
        #expect(throws: GeoJSONError.self) { try read(text) }
    }

    @Test func brokenJSONIsNotSkipped() throws {
        let text = collection(good, #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,100]}"#, good)
        do {
            _ = try read(text, skip: true)
            Issue.record("no error")
        } catch {
            #expect(error.kind == .invalidJSON(.expectedKey))  // the unclosed feature meets the next one
            #expect(error.featureIndex == 1)
            #expect(!error.isRecoverable)
        }
        // A bare geometry or single feature with an error is skipped too.
        #expect(try read(#"{"type":"Point","coordinates":[0,91]}"#, skip: true).report.skipped.map(\.index) == [0])
    }

    @Test func skipInNewlineDelimitedInput() throws {
        let text = [good, "{broken", #"{"type":"Feature","geometry":{"type":"Point","coordinates":[0,-95]}}"#, good, "[]"].joined(separator: "\n")
        let result = try GeoJSON.read(ndjson: Array(text.utf8), options: .init(skipInvalidFeatures: true))
        #expect(result.features.count == 2)
        #expect(result.report.skipped.map(\.index) == [1, 2, 4])
        #expect(result.report.skipped.map(\.error.kind) == [.invalidJSON(.expectedKey), .latitudeOutOfRange, .wrongMemberType])
        #expect(result.report.skipped.map(\.error.line) == [2, 3, 5])
    }

    @Test func errorDescription() {
        let text = collection(good, #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,100]}}"#)
        let offset = Array(text.utf8).firstRange(of: Array("100".utf8))!.lowerBound
        do {
            _ = try read(text)
            Issue.record("no error")
        } catch {
            #expect(error.offset == offset)
            #expect(error.description == "invalid GeoJSON at line 3, column 63 (byte \(offset)) in feature 1: latitude 100 is outside -90 … 90")
        }
    }
}
