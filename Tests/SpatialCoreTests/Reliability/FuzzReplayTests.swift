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

    @Test("expression seeds and regressions")
    func expression() {
        let inputs = Self.inputs("expression")
        #expect(inputs.count >= 10, "seed corpus missing under \(Self.fuzzRoot.path)")
        for input in inputs { FuzzBodies.expression(input) }
    }

    @Test("index seeds and regressions")
    func index() {
        let inputs = Self.inputs("index")
        #expect(inputs.count >= 10, "seed corpus missing under \(Self.fuzzRoot.path)")
        for input in inputs { FuzzBodies.index(input) }
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

extension FuzzReplayTests {
    @Test("geojson seeds and regressions")
    func geojson() {
        let inputs = Self.inputs("geojson")
        #expect(inputs.count >= 5, "seed corpus missing under \(Self.fuzzRoot.path)")
        for input in inputs { FuzzBodies.geojson(input) }
    }
}

extension FuzzReplayTests {
    @Test("style seeds and regressions")
    func style() {
        let inputs = Self.inputs("style")
        #expect(inputs.count >= 8, "seed corpus missing under \(Self.fuzzRoot.path)")
        for input in inputs { FuzzBodies.style(input) }
    }
}
