import Foundation
import Testing

@testable import SpatialCore

/// The real datasets (`SPATIAL_DATASETS`, default `../shared/datasets`), checked against two
/// references that share no code with the reader: Foundation's `JSONSerialization` for structure,
/// strings and properties, and the standard library's `Double(_:)` on the coordinate texts (cut out
/// of the file with plain byte searches) for bit-exact coordinates. Foundation is not used for
/// exact numbers: on Linux it misreads some 17-digit decimals by a few ulps.
@Suite struct GeoJSONDatasetTests {
    static let datasets: [(file: String, count: Int)] = [
        ("dc-fire-hydrants.geojson", 9089), ("tulsa-fire-hydrants.geojson", 16125),
        ("earthquakes.geojson", 6107), ("places.json", 163), ("cities500.geojson", 234_908),
    ]

    @Test(arguments: datasets)
    func readsLikeTheReferences(file: String, count: Int) throws {
        guard let bytes = TestData.dataset(file) else { return }
        let features = try GeoJSON.read(bytes).features
        #expect(features.count == count)

        // Coordinates, bit for bit, against Double(_:) on the texts.
        let texts = CoordinateTexts.all(in: bytes)
        let positions = features.compactMap { feature -> Position? in
            if case .point(let p)? = feature.geometry { return p }
            return nil
        }
        #expect(texts.count == positions.count)
        for (p, text) in zip(positions, texts) {
            let expected = text.map { Double($0)! }
            #expect(expected.count == (p.altitude == nil ? 2 : 3))
            #expect(p.longitude.bitPattern == expected[0].bitPattern && p.latitude.bitPattern == expected[1].bitPattern)
            if let altitude = p.altitude { #expect(altitude.bitPattern == expected[2].bitPattern) }
            if expected.count >= 2 && p.longitude.bitPattern != expected[0].bitPattern { break }
        }

        // Structure and properties against Foundation: every feature of the small files, a
        // spread of the large one, always the first and the last.
        let json = try JSONSerialization.jsonObject(with: Data(bytes)) as! [String: Any]
        let reference = json["features"] as! [[String: Any]]
        #expect(reference.count == count)
        let step = count > 50_000 ? 97 : 1
        for i in Array(stride(from: 0, to: count, by: step)) + [count - 1] {
            let ours = features[i]
            let theirs = reference[i]
            #expect(RandomJSON.matches(.object(ours.properties), theirs["properties"] as Any), "feature \(i)")
            switch (ours.id, theirs["id"]) {
            case (nil, nil): break
            case (.number(let n)?, let id as NSNumber): #expect(n == id.doubleValue)
            case (.string(let s)?, let id as String): #expect(s == id)
            default: Issue.record("feature \(i): id \(String(describing: ours.id)) vs \(String(describing: theirs["id"]))")
            }
            if let geometry = theirs["geometry"] as? [String: Any] {
                let coordinates = (geometry["coordinates"] as! [NSNumber]).map(\.doubleValue)
                guard case .point(let p)? = ours.geometry else {
                    Issue.record("feature \(i) has no point")
                    continue
                }
                #expect(geometry["type"] as? String == "Point")
                #expect(closeEnough(p.longitude, coordinates[0]) && closeEnough(p.latitude, coordinates[1]))
                #expect(p.altitude.map { closeEnough($0, coordinates[2]) } ?? (coordinates.count == 2))
            } else {
                #expect(theirs["geometry"] is NSNull && ours.geometry == nil, "feature \(i)")
            }
        }
    }

    @Test func knownFacts() throws {
        if let bytes = TestData.dataset("places.json") {
            let features = try GeoJSON.read(bytes).features
            #expect(features.count == 163)
            #expect(features.indices.filter { features[$0].id != nil } == [81])
            #expect(features[81].id == .number(737))
            #expect(features.indices.filter { features[$0].geometry == nil } == [162])
            #expect(features[162].properties == ["name": "Null Island"])
            #expect(features[0].properties["name"] == "Niagara Falls")
        }
        if let bytes = TestData.dataset("dc-fire-hydrants.geojson") {
            let features = try GeoJSON.read(bytes).features
            let first = try #require(features.first)
            #expect(first.geometry == .point(Position(longitude: -77.00896639534831, latitude: 38.870310061087913, altitude: 0)))
            #expect(first.properties["NAME"] == "H04299")
            // The HTML description has its escaped slashes unescaped.
            #expect(first.properties["DESCRIPTIO"]?.stringValue?.hasPrefix("Hydrant, LORTON - O'BRIEN<p align=center><b>Not In Service</b></p>") == true)
        }
        if let bytes = TestData.dataset("earthquakes.geojson") {
            let features = try GeoJSON.read(bytes).features
            #expect(features.last?.geometry == .point(Position(longitude: -155.011833, latitude: 19.399333, altitude: 2.609)))
            #expect(features[0].properties["felt"] == .null)
            #expect(features[0].properties["time"] == 1_507_425_650_893)
        }
    }

    @Test(arguments: datasets)
    func pointFormMatchesTheTypedModel(file: String, count: Int) throws {
        guard let bytes = TestData.dataset(file) else { return }
        let features = try GeoJSON.read(bytes).features
        let points = try GeoJSON.readPoints(bytes)
        #expect(points.count == count)
        #expect(points.nullGeometryCount == features.filter { $0.geometry == nil }.count)
        let rebuilt = try PointFeatures(features)
        let step = count > 50_000 ? 13 : 1
        for i in stride(from: 0, to: count, by: step) where points.feature(at: i) != features[i] || rebuilt.feature(at: i) != features[i] {
            Issue.record("feature \(i): \(points.feature(at: i)) vs \(features[i])")
            break
        }
        #expect(rebuilt.coordinates.map { [$0.x.bitPattern, $0.y.bitPattern] } == points.coordinates.map { [$0.x.bitPattern, $0.y.bitPattern] })
    }

    /// Read, write, read: equal models and identical text (the large file is left to the others
    /// to keep debug test runs short).
    @Test(arguments: datasets.filter { $0.count < 100_000 })
    func writtenAndReadBack(file: String, count: Int) throws {
        guard let bytes = TestData.dataset(file) else { return }
        let features = try GeoJSON.read(bytes).features
        let text = FeatureCollection(features: features).geoJSONString()
        let back = try GeoJSON.read(Array(text.utf8)).features
        #expect(back == features)
        #expect(FeatureCollection(features: back).geoJSONString() == text)
    }
}

/// The generic JSON reader on the oracle files of the other suites (clusters, index outputs):
/// the same values as Foundation's `JSONSerialization` (numbers to a relative 1e-14).
@Suite struct OracleFileTests {
    static let files = [
        "places-default.json", "places-flow.json", "places-minpoints5.json", "places-r60-e256-mz4.json",
        "places-z0-0-0-min5.json", "places-z0-0-0.json", "kdbush-input.json", "kdbush-output.json",
        "flatbush-input.json", "flatbush-output.json",
    ]

    @Test(arguments: files)
    func readsLikeFoundation(file: String) throws {
        guard let bytes = TestData.oracle(file) else { return }
        let value = try JSONValue(parsing: bytes)
        let reference = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        #expect(RandomJSON.matches(value, reference))
    }
}

/// The coordinate texts of every `"coordinates"` member of a file, found with plain byte searches
/// (no JSON reader): the numbers between the `[` after the member name and the next `]`.
enum CoordinateTexts {
    static func all(in bytes: [UInt8]) -> [[String]] {
        let key = Array(#""coordinates""#.utf8)
        var result: [[String]] = []
        result.reserveCapacity(bytes.count / 200)
        var i = 0
        while let range = bytes[i...].firstRange(of: key) {
            guard let open = bytes[range.upperBound...].firstIndex(of: UInt8(ascii: "[")) else { break }
            var numbers: [String] = []
            var start = open + 1
            var j = start
            while bytes[j] != UInt8(ascii: "]") {
                if bytes[j] == UInt8(ascii: ",") {
                    numbers.append(token(bytes, start, j))
                    start = j + 1
                }
                j += 1
            }
            numbers.append(token(bytes, start, j))
            result.append(numbers)
            i = j
        }
        return result
    }

    /// The text of `bytes[start..<end]` without surrounding blanks.
    private static func token(_ bytes: [UInt8], _ start: Int, _ end: Int) -> String {
        var a = start
        var b = end
        while a < b && (bytes[a] == 0x20 || bytes[a] == 0x0A || bytes[a] == 0x0D || bytes[a] == 0x09) { a += 1 }
        while b > a && (bytes[b - 1] == 0x20 || bytes[b - 1] == 0x0A || bytes[b - 1] == 0x0D || bytes[b - 1] == 0x09) { b -= 1 }
        return String(decoding: bytes[a..<b], as: UTF8.self)
    }
}
