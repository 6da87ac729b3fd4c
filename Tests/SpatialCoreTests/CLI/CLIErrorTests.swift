import Foundation
import Testing
import SpatialCore

/// Every error path of `spatial`: the documented exit code, one line on stderr that says what is
/// wrong, nothing on stdout, never a crash; and the help texts.
@Suite("CLI: errors, exit codes and help", .serialized)
struct CLIErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var stdin: String? = nil
        var status: Int32
        var message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let places = "@places"  // replaced by the dataset path

    static let cases: [Case] = [
        Case(arguments: [], status: 2, message: "missing subcommand"),
        Case(arguments: ["bogus"], status: 2, message: "unknown subcommand 'bogus'"),
        Case(arguments: ["clusters", "--zoom", "1"], status: 2, message: "missing FILE"),
        Case(arguments: ["clusters", "/no/such/file.geojson", "--zoom", "1"], status: 1, message: "/no/such/file.geojson: no such file"),
        Case(arguments: ["clusters", "/", "--zoom", "1"], status: 1, message: "is a directory"),
        Case(arguments: ["clusters", places], status: 2, message: "missing --zoom"),
        Case(arguments: ["clusters", places, "--zoom", "x"], status: 2, message: "--zoom takes"),
        Case(arguments: ["clusters", places, "--zoom", "5-2"], status: 2, message: "--zoom A-B"),
        Case(arguments: ["clusters", places, "--zoom", "31"], status: 2, message: "--zoom takes"),
        Case(arguments: ["clusters", places, "--zoom"], status: 2, message: "--zoom needs a value"),
        Case(arguments: ["clusters", places, "--zoom", "1", "--zoom", "2"], status: 2, message: "--zoom given twice"),
        Case(arguments: ["clusters", places, "--zoom", "1", "--frobnicate", "2"], status: 2, message: "unknown option --frobnicate"),
        Case(arguments: ["clusters", places, "--zoom", "1", "-q"], status: 2, message: "unknown option -q"),
        Case(arguments: ["clusters", places, "extra", "--zoom", "1"], status: 2, message: "unexpected argument 'extra'"),
        Case(arguments: ["clusters", places, "--zoom", "1", "--bbox", "1,2,3"], status: 2, message: "--bbox takes W,S,E,N"),
        Case(arguments: ["clusters", places, "--zoom", "1", "--bbox", "0,50,10,40"], status: 2, message: "south 50.0 is above north 40.0"),
        Case(arguments: ["clusters", places, "--zoom", "1", "--radius", "-4"], status: 2, message: "radius"),
        Case(arguments: ["clusters", places, "--zoom", "1", "--radius", "wide"], status: 2, message: "--radius takes a number"),
        Case(arguments: ["clusters", places, "--zoom", "1", "--max-zoom", "40"], status: 2, message: "maxZoom"),
        Case(arguments: ["clusters", places, "--zoom", "1", "--min-zoom", "9", "--max-zoom", "3"], status: 2, message: "minZoom"),
        Case(arguments: ["clusters", places, "--zoom", "1", "--min-points", "0"], status: 2, message: "minPoints"),
        Case(arguments: ["clusters", places, "--zoom", "1", "--precision", "half"], status: 2, message: "--precision takes double or float32"),
        Case(arguments: ["clusters", places, "--zoom", "1", "--cluster-properties", "{"], status: 2, message: "--cluster-properties: invalid JSON"),
        Case(arguments: ["clusters", places, "--zoom", "1", "--cluster-properties", #"{"s":["frob",["get","x"]]}"#], status: 2, message: "--cluster-properties"),
        Case(arguments: ["clusters", places, "--zoom", "1", "--cluster-properties", "@/no/such.json"], status: 1, message: "no such file"),
        Case(arguments: ["clusters", "-", "--zoom", "1"], stdin: #"{"type":"FeatureCollection","features":[}"#, status: 1, message: "<stdin>: invalid GeoJSON at line 1, column 41"),
        Case(arguments: ["clusters", "-", "--zoom", "1"], stdin: "", status: 1, message: "<stdin>: invalid GeoJSON at line 1, column 1"),
        Case(arguments: ["clusters", "-", "--zoom", "1"], stdin: #"{"type":"Topology"}"#, status: 1, message: "unknown type \"Topology\""),
        Case(arguments: ["clusters", "-", "--zoom", "1"], stdin: #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1]}}]}"#, status: 1, message: "in feature 0: a position needs at least two numbers"),
        Case(arguments: ["clusters", "-", "--zoom", "1"], stdin: #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}]}"#, status: 1, message: "feature 0: geometry LineString is not a Point"),
        Case(arguments: ["clusters", "-", "--zoom", "1"], stdin: #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[0,95]}}]}"#, status: 1, message: "in feature 0: latitude 95 is outside"),
        Case(arguments: ["children", places], status: 2, message: "missing --cluster-id"),
        Case(arguments: ["children", places, "--cluster-id", "abc"], status: 2, message: "--cluster-id takes a whole number"),
        Case(arguments: ["children", places, "--cluster-id", "5"], status: 3, message: "no cluster with id 5"),
        Case(arguments: ["leaves", places, "--cluster-id", "99999999"], status: 3, message: "no cluster with id 99999999"),
        Case(arguments: ["leaves", places, "--cluster-id", "164", "--limit", "-1"], status: 2, message: "--limit takes"),
        Case(arguments: ["leaves", places, "--cluster-id", "164", "--offset", "-1"], status: 2, message: "--offset takes"),
        Case(arguments: ["expansion-zoom", places, "--cluster-id", "-7"], status: 3, message: "no cluster with id -7"),
        Case(arguments: ["tile", places], status: 2, message: "missing Z/X/Y"),
        Case(arguments: ["tile", places, "1/2/0"], status: 2, message: "Z/X/Y must be"),
        Case(arguments: ["tile", places, "1/a/0"], status: 2, message: "Z/X/Y must be"),
        Case(arguments: ["tile", places, "1/0"], status: 2, message: "Z/X/Y must be"),
    ]

    @Test("each error: documented exit code, one clear line on stderr, nothing on stdout", arguments: cases)
    func error(_ c: Case) throws {
        guard let places = CLIRunner.datasetPath("places.json") else { return }
        let arguments = c.arguments.map { $0 == Self.places ? places : $0 }
        guard let r = try CLIRunner.run(arguments, stdin: c.stdin.map { Array($0.utf8) }) else { return }
        #expect(r.status == c.status, "stderr: \(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("spatial: "))
        #expect(r.stderr.contains(c.message), "stderr: \(r.stderr)")
        #expect(r.stderr.hasSuffix("\n") && r.stderr.dropLast().split(separator: "\n").count == 1, "one line: \(r.stderr)")
    }

    @Test("--help of the tool and of every subcommand, with the exit codes", arguments: [
        ["--help"], ["-h"], ["help"], ["clusters", "--help"], ["children", "--help"], ["leaves", "-h"], ["query", "--help"], ["render", "--help"],
        ["expansion-zoom", "--help"], ["tile", "--help"],
    ])
    func help(_ arguments: [String]) throws {
        guard let r = try CLIRunner.run(arguments) else { return }
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        #expect(r.text.contains("Usage: spatial"))
        #expect(r.text.contains("Exit codes:") && r.text.contains("3  not found"))
        if arguments.count == 2 { #expect(r.text.contains("spatial \(arguments[0])")) }
    }

    @Test("a cluster id is found by the same options that made it")
    func idNeedsSameOptions() throws {
        guard let places = CLIRunner.datasetPath("places.json"), let features = ClusterTestSupport.dataset("places.json") else { return }
        let index = try ClusterIndex(features: features)
        let id = try #require(index.clusters(west: -180, south: -85, east: 180, north: 85, zoom: 0).compactMap(\.cluster).first?.id)
        guard let ok = try CLIRunner.run(["children", places, "--cluster-id", "\(id.rawValue)"]) else { return }
        #expect(ok.status == 0)
    }
}
