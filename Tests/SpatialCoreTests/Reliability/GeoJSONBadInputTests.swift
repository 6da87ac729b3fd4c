import Foundation
import Testing
import SpatialCore

/// The GeoJSON rows of the bad-input table of `reliability.md`: a `GeoJSONError` with its kind,
/// byte offset, line:column and feature index; invalid coordinates named or skipped and counted.
@Suite("Reliability: bad GeoJSON input")
struct GeoJSONBadInputTests {
    static func error(_ text: String, options: GeoJSONReader.Options = .init()) -> GeoJSONError? {
        do {
            _ = try GeoJSON.read(Array(text.utf8), options: options)
            return nil
        } catch {
            return error
        }
    }

    static func offset(of needle: String, in text: String) -> Int {
        let bytes = Array(text.utf8), n = Array(needle.utf8)
        for i in 0 ... bytes.count - n.count where Array(bytes[i ..< i + n.count]) == n { return i }
        return -1
    }

    static let point = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}"#

    @Test("malformed / truncated JSON, wrong member types, deep nesting: GeoJSONError with offset, line:column, feature index")
    func malformedTruncatedWrongTypesDeep() throws {
        // Truncated.
        let truncated = #"{"type":"FeatureCollection","features":["# + Self.point
        let t = try #require(Self.error(truncated))
        #expect(t.kind == .truncated)
        #expect(t.offset <= truncated.utf8.count && t.line == 1)
        // Malformed inside feature 1, on line 3.
        let malformed = "{\"type\":\"FeatureCollection\",\n\"features\":[" + Self.point + ",\n{\"type\":\"Feature\",\"geometry\":nul}]}"
        let m = try #require(Self.error(malformed))
        guard case .invalidJSON = m.kind else { Issue.record("\(m)"); return }
        #expect(m.line == 3)
        #expect(m.featureIndex == 1)
        // Wrong member type: the offending value's offset, line and column.
        let wrong = "{\"type\":\"FeatureCollection\",\n  \"features\":{}}"
        let w = try #require(Self.error(wrong))
        #expect(w.kind == .wrongMemberType)
        #expect(w.offset == Self.offset(of: "{}", in: wrong))
        #expect(w.line == 2 && w.column == 14, "\(w)")
        #expect(w.featureIndex == nil)
        // A bad position in feature 2.
        let bad = #"{"type":"FeatureCollection","features":["# + Self.point + "," + Self.point
            + #",{"type":"Feature","geometry":{"type":"Point","coordinates":[1,"x"]},"properties":{}}]}"#
        let b = try #require(Self.error(bad))
        #expect(b.kind == .badPosition || b.kind == .wrongMemberType, "\(b)")
        #expect(b.featureIndex == 2)
        #expect(b.offset > Self.offset(of: "[1,\"x\"]", in: bad) - 1 && b.offset < bad.utf8.count)
        // Deep nesting: an error, not a stack overflow, at any depth.
        for depth in [600, 100_000] {
            let deep = #"{"type":"Feature","geometry":null,"properties":{"a":"# + String(repeating: "[", count: depth)
                + String(repeating: "]", count: depth) + "}}"
            let d = try #require(Self.error(deep))
            #expect(d.kind == .tooDeep, "\(d)")
        }
    }

    @Test("NaN / ±inf / latitude beyond ±90 in GeoJSON: an error naming the feature, or skipped and counted")
    func invalidCoordinatesNamedOrSkipped() throws {
        // NaN and Infinity are not JSON, but some writers emit them (Python's json.dumps): a
        // feature holding one is named, or skipped like any other.
        for (coordinates, kind) in [("[1,1e999]", GeoJSONError.Kind.nonFiniteNumber), ("[-1e999,0]", .nonFiniteNumber), ("[0,90.5]", .latitudeOutOfRange),
                                    ("[NaN,2]", .nonFiniteNumber), ("[1,2,Infinity]", .nonFiniteNumber), ("[-Infinity,0]", .nonFiniteNumber),
                                    ("[[NaN],2]", .nonFiniteNumber)] {
            let text = #"{"type":"FeatureCollection","features":["# + Self.point
                + #",{"type":"Feature","geometry":{"type":"Point","coordinates":"# + coordinates + #"},"properties":{}}]}"#
            let e = try #require(Self.error(text))
            #expect(e.kind == kind, "\(e)")
            #expect(e.featureIndex == 1)
            let skipped = try GeoJSON.read(Array(text.utf8), options: GeoJSONReader.Options(skipInvalidFeatures: true))
            #expect(skipped.features.count == 1)
            #expect(skipped.report.skippedCount == 1 && skipped.report.skipped.first?.index == 1)
        }
    }

    /// Many skipped features: each is named at its own line and column (counted here on the
    /// text), all of them in one pass over the input (a pass per feature made 10,000 skipped
    /// features take seconds).
    @Test("many skipped features, each at its own line and column")
    func manySkippedFeaturesLocated() throws {
        var lines = [#"{"type":"FeatureCollection","features":["#]
        for i in 0..<3_000 {
            // Every third feature has latitude and longitude swapped (latitude out of range).
            let c = i % 3 == 0 ? "[36.1,-95.9]" : "[-95.9,36.1]"
            lines.append((i == 0 ? "" : ",") + #"{"type":"Feature","properties":{"i":"# + "\(i)" + #"},"geometry":{"type":"Point","coordinates":"# + c + "}}")
        }
        lines.append("]}")
        let text = lines.joined(separator: "\n")
        let read = try GeoJSON.read(Array(text.utf8), options: GeoJSONReader.Options(skipInvalidFeatures: true))
        #expect(read.features.count == 2_000)
        #expect(read.report.skipped.map(\.index) == Array(stride(from: 0, to: 3_000, by: 3)))
        for s in read.report.skipped {
            // The feature's line is its index + 2; the error names a place on it.
            #expect(s.error.line == s.index + 2, "feature \(s.index): line \(s.error.line)")
            let line = Array(lines[s.index + 1].utf8)
            #expect(s.error.column >= 1 && s.error.column <= line.count)
        }
    }
}
