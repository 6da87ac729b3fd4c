import Foundation
import Testing
@testable import SpatialCore

/// A scene is an immutable `Sendable` value: eight threads querying it concurrently get the answers
/// of a single-threaded run.
@Suite("Scene concurrency")
struct SceneConcurrencyTests {
    @Test("8 concurrent queriers agree with a single-threaded run")
    func concurrent() async throws {
        let (scene, _, _) = try SceneBruteForceTests.randomScene(seed: 2024)
        var rng = SplitMix(state: 5)
        let points = (0..<200).map { _ in CGPoint(x: rng.range(0, 390), y: rng.range(0, 844)) }
        func answers() -> [[String]] {
            points.map { p in
                (scene.visibleFeatures(at: p) + scene.visibleFeatures(in: CGRect(x: p.x - 22, y: p.y - 22, width: 44, height: 44))
                    + scene.nearestFeatures(to: p, within: 30)).map { "\($0.layerIdentifier) \($0.feature.id.map { "\($0)" } ?? "-") \($0.distance)" }
            }
        }
        let expected = answers()
        try await withThrowingTaskGroup(of: [[String]].self) { group in
            for _ in 0..<8 { group.addTask { answers() } }
            for try await got in group { #expect(got == expected) }
        }
    }
}
