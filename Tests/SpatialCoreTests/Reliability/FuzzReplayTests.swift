import Foundation
import Testing

/// Replays the committed fuzz seeds (`Fuzz/corpus/<target>`) and every past finding
/// (`Fuzz/regressions/<target>`) through the same bodies the libFuzzer targets run.
@Suite("Reliability: fuzz corpus replay")
struct FuzzReplayTests {
    static let fuzzRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz")

    static func inputs(_ target: String) -> [[UInt8]] {
        ["corpus", "regressions"].flatMap { folder -> [[UInt8]] in
            let dir = fuzzRoot.appendingPathComponent(folder).appendingPathComponent(target)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            return names.sorted().filter { !$0.hasPrefix(".") }.compactMap {
                (try? Data(contentsOf: dir.appendingPathComponent($0))).map { [UInt8]($0) }
            }
        }
    }

    /// Each fuzz target with the least number of committed inputs it must find.
    static let targets: [(name: String, minimumInputs: Int)] = [
        ("expression", 10), ("index", 10), ("geojson", 5), ("style", 8),
    ]

    @Test("seeds and regressions of every target", arguments: targets.map(\.name))
    func replay(target: String) {
        let inputs = Self.inputs(target)
        let minimum = Self.targets.first { $0.name == target }!.minimumInputs
        #expect(inputs.count >= minimum, "seed corpus missing under \(Self.fuzzRoot.path)")
        let body: ([UInt8]) -> Void
        switch target {
        case "expression": body = FuzzBodies.expression
        case "index": body = FuzzBodies.index
        case "geojson": body = FuzzBodies.geojson
        case "style": body = FuzzBodies.style
        default:
            Issue.record("no fuzz body for \(target)")
            return
        }
        for input in inputs { body(input) }
    }

    @Test("the committed index seeds are the ones the generator writes")
    func indexSeedsAreCurrent() {
        let dir = Self.fuzzRoot.appendingPathComponent("corpus/index")
        for (i, seed) in FuzzBodies.indexSeeds().enumerated() {
            let stored = (try? Data(contentsOf: dir.appendingPathComponent("seed\(i)"))).map { [UInt8]($0) }
            #expect(stored == seed, "seed\(i)")
        }
    }
}
