import Foundation
import Testing
@testable import SpatialCore

/// The index against the plain greedy reference (``ReferenceClustering``) in both precisions.
@Suite("Clustering: brute-force reference")
struct ClusterReferenceTests {
    enum Scenario: String, CaseIterable, Sendable {
        case uniform, blobs, duplicates, antimeridian, poles
    }

    /// Seeded points for a scenario (degrees).
    static func points(_ scenario: Scenario, n: Int, seed: UInt32) -> (lng: [Double], lat: [Double]) {
        var rng = TestLCG(seed: seed)
        var lng: [Double] = [], lat: [Double] = []
        switch scenario {
        case .uniform:
            for _ in 0..<n { lng.append(rng.uniform(-180, 180)); lat.append(rng.uniform(-85, 85)) }
        case .blobs:
            let centres = (0..<8).map { _ in (rng.uniform(-170, 170), rng.uniform(-70, 70), rng.uniform(0.001, 3)) }
            for i in 0..<n {
                let (cx, cy, s) = centres[i % centres.count]
                lng.append(cx + s * (rng.next53() + rng.next53() - 1))
                lat.append(cy + s * (rng.next53() + rng.next53() - 1))
            }
        case .duplicates:
            let sites = (0..<5).map { _ in (rng.uniform(-180, 180), rng.uniform(-80, 80)) }
            for _ in 0..<n { let s = sites[rng.below(sites.count)]; lng.append(s.0); lat.append(s.1) }
        case .antimeridian:
            for _ in 0..<n {
                let side = rng.below(4)
                // Both sides of ±180, exactly on it, and beyond it (wrapped on input).
                let d = rng.uniform(0, 2)
                lng.append(side == 0 ? 180 - d : side == 1 ? -180 + d : side == 2 ? (rng.below(2) == 0 ? 180 : -180) : 180 + d)
                lat.append(rng.uniform(-60, 60))
            }
        case .poles:
            for _ in 0..<n {
                let k = rng.below(4)
                lng.append(rng.uniform(-180, 180))
                lat.append(k == 0 ? 90 : k == 1 ? -90 : k == 2 ? rng.uniform(84, 90) : -rng.uniform(84, 90))
            }
        }
        return (lng, lat)
    }

    /// (minZoom, maxZoom, minPoints, radius, extent)
    static let configs: [(Int, Int, Int, Double, Double)] = [
        (0, 16, 2, 40, 512), (0, 16, 1, 40, 512), (0, 12, 3, 60, 256), (0, 8, 5, 200, 512),
        (0, 30, 4, 1, 512), (3, 20, 2, 120, 512), (0, 0, 3, 10, 512), (2, 5, 2, 90, 4096),
    ]

    /// Compares every level of `index` with the reference; returns the number of differences.
    @discardableResult
    static func compare(_ index: ClusterIndex, _ reference: ReferenceClustering, label: String) throws -> Int {
        var issues = 0
        func fail(_ message: String) {
            issues += 1
            if issues <= 5 { Issue.record("\(label): \(message)") }
        }
        let o = index.options
        for z in o.minZoom...(o.maxZoom + 1) {
            let items = index.clusters(in: [-180, -90, 180, 90], zoom: Double(z))
            let expected = reference.levels[z]!
            if items.count != expected.count { fail("z\(z): \(items.count) items, expected \(expected.count)") }
            let byID = Dictionary(items.map { ($0.rawID, $0) }, uniquingKeysWith: { a, _ in a })
            if byID.count != items.count { fail("z\(z): duplicate ids") }
            for e in expected {
                guard let item = byID[e.id] else { fail("z\(z): missing id \(e.id)"); continue }
                if item.pointCount != e.count { fail("z\(z) id \(e.id): count \(item.pointCount), expected \(e.count)") }
                let m = item.cluster?.mercator ?? item.point!.mercator
                if m != SIMD2(e.x, e.y) { fail("z\(z) id \(e.id): position \(m), expected \(e.x), \(e.y)") }
                if let c = item.cluster {
                    let children = try index.children(of: c.id).map(\.rawID)
                    let want = e.children.map { reference.rows[$0].id }
                    if children != want { fail("z\(z) id \(e.id): children \(children), expected \(want)") }
                }
            }
        }
        return issues
    }

    @Test("seeded data, both precisions, minPoints 1–5, radius 1–200, maxZoom 0–30",
          arguments: Scenario.allCases, [ClusterPrecision.double, .float32])
    func seededData(scenario: Scenario, precision: ClusterPrecision) throws {
        for (k, c) in Self.configs.enumerated() {
            let n = scenario == .duplicates ? 300 : 600
            let (lng, lat) = Self.points(scenario, n: n, seed: UInt32(1000 + k))
            var options = try ClusterOptions(minZoom: c.0, maxZoom: c.1, minPoints: c.2, radius: c.3, extent: c.4, precision: precision)
            let reference = try ReferenceClustering(
                longitudes: lng, latitudes: lat, options: options, featureCount: n, featureIndex: Array(0..<n))
            for variant in Self.buildVariants(precision) {
                variant.apply(to: &options)
                let index = try ClusterIndex(
                    coordinates: zip(lng, lat).map { Coordinate(latitude: $0.1, longitude: $0.0) }, options: options)
                try Self.compare(index, reference, label: "\(scenario) \(precision) config \(k) \(variant)")
            }
        }
    }

    /// The ways a `.double` build can run, which must all give the reference's result: with and
    /// without the isolation pre-pass (it runs only where it pays), and with the grid passes on
    /// two cores from the first item, taking each level's neighbours as the build chooses (for
    /// levels of any size, or every level taken to be larger than the core's cache), from pair
    /// lists wherever they fit, or from searches everywhere. `.float32` runs with and without the
    /// pre-pass.
    struct BuildVariant: CustomStringConvertible {
        var prePass: Bool? = nil
        var parallelFrom: Int? = nil
        var pairsBelow: Double? = nil
        var prefetchFrom: Int? = nil

        func apply(to options: inout ClusterOptions) {
            options.isolationPrePass = prePass
            options.parallelThreshold = parallelFrom
            options.pairsBelow = pairsBelow
            options.prefetchFrom = prefetchFrom
        }

        var description: String {
            "pre-pass \(prePass.map(String.init) ?? "auto") parallel from \(parallelFrom ?? -1) "
                + "pair lists below \(pairsBelow.map { "\($0)" } ?? "auto") large levels from \(prefetchFrom ?? -1)"
        }
    }

    static func buildVariants(_ precision: ClusterPrecision) -> [BuildVariant] {
        guard precision == .double else { return [BuildVariant(prePass: false), BuildVariant(prePass: true)] }
        return [
            BuildVariant(prePass: false), BuildVariant(prePass: true), BuildVariant(prePass: true, parallelFrom: 0),
            BuildVariant(prePass: false, parallelFrom: 0, pairsBelow: .infinity),
            BuildVariant(prePass: true, parallelFrom: 0, pairsBelow: 0),
            BuildVariant(prePass: true, prefetchFrom: 0),
        ]
    }

    /// With minPoints 5 as well as the default: there a seed may keep several neighbours without
    /// forming a cluster, and the order it keeps them in (the k-d tree's) shapes later levels.
    @Test("real datasets, both precisions, minPoints 2 and 5, every zoom",
          arguments: ["places.json", "earthquakes.geojson", "dc-fire-hydrants.geojson", "tulsa-fire-hydrants.geojson"],
          [(ClusterPrecision.double, 2), (.float32, 2), (.double, 5), (.float32, 5)])
    func realData(file: String, setting: (precision: ClusterPrecision, minPoints: Int)) throws {
        let precision = setting.precision
        guard let features = ClusterTestSupport.dataset(file) else { return }
        var lng: [Double] = [], lat: [Double] = [], which: [Int] = []
        for (i, f) in features.enumerated() {
            guard case .point(let p)? = f.geometry else { continue }
            lng.append(p.longitude); lat.append(p.latitude); which.append(i)
        }
        var options = try ClusterOptions(minPoints: setting.minPoints, precision: precision)
        let reference = try ReferenceClustering(
            longitudes: lng, latitudes: lat, options: options, featureCount: features.count, featureIndex: which)
        for variant in Self.buildVariants(precision) {
            variant.apply(to: &options)
            let index = try ClusterIndex(features: features, options: options)
            try Self.compare(index, reference, label: "\(file) \(precision) minPoints \(setting.minPoints) \(variant)")
        }
    }
}
