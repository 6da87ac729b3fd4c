import Testing
@testable import SpatialCore

/// The isolation pre-pass on its own: its nearest-point distances against brute force, and the
/// premise of the `.float32` margin (how far `Float` rounding moves a unit-Mercator position).
@Suite("Clustering: isolation bound")
struct IsolationBoundTests {
    /// Seeded unit-Mercator points: uniform, plus tight pairs and exact duplicates, so that every
    /// grid pass settles some.
    static func points(_ n: Int, seed: UInt32) -> (x: ContiguousArray<Double>, y: ContiguousArray<Double>) {
        var rng = TestLCG(seed: seed)
        var x = ContiguousArray<Double>(), y = ContiguousArray<Double>()
        while x.count < n {
            let px = rng.next53(), py = rng.next53()
            x.append(px); y.append(py)
            switch rng.below(4) {
            case 0: x.append(px); y.append(py)
            case 1: x.append(px + rng.uniform(-1e-5, 1e-5)); y.append(py + rng.uniform(-1e-5, 1e-5))
            default: break
            }
        }
        return (x, y)
    }

    @Test("nearest distances: on the same side of every level threshold as brute force, ∞ beyond the cell size",
          arguments: [false, true], [false, true])
    func nearestAgainstBruteForce(parallel: Bool, float32: Bool) throws {
        let (x, y) = Self.points(3_000, seed: 17)
        let n = x.count
        let options = try ClusterOptions()
        let bound = IsolationBound(x: x, y: y, count: n, bounds: ItemBounds(x: x, y: y, count: n),
                                   options: options, float32: float32, parallel: Parallelism(parallel, yielding: PauseGate()))
        Self.expectAgreesWithBruteForce(bound, x: x, y: y, options: options, float32: float32)
    }

    @Test("a single pass: the first pass's cells only, still exact up to them", arguments: [false, true])
    func singlePass(float32: Bool) throws {
        let (x, y) = Self.points(3_000, seed: 23)
        let n = x.count
        let options = try ClusterOptions()
        let bounds = ItemBounds(x: x, y: y, count: n)
        let all = IsolationBound(x: x, y: y, count: n, bounds: bounds, options: options, float32: float32, parallel: false)
        let first = IsolationBound(x: x, y: y, count: n, bounds: bounds, options: options, float32: float32,
                                   singlePass: true, parallel: false)
        // The data need more than one pass: the first pass's cells are finer than the last's.
        #expect(first.h < all.h)
        Self.expectAgreesWithBruteForce(first, x: x, y: y, options: options, float32: float32)
        // Where both know the distance (within the first pass's cells), they agree on every level.
        let thresholds = (options.minZoom...options.maxZoom).map {
            first.isolatedSquaredDistance(radius: options.searchRadius(atZoom: $0), float32: float32)
        }.filter { $0 < .infinity }
        for i in 0..<n {
            for t in thresholds { #expect((first.nearest2[i] > t) == (all.nearest2[i] > t), "point \(i), threshold \(t)") }
        }
    }

    /// Seeded points that strain the sweep's blocks: crowded blobs (many points a cell, and twins
    /// that stop a scan at once), points along one parallel and one meridian (a row, or a column,
    /// of many cells, for the row pointers), and points exactly on the cell edges of every level's
    /// threshold (a pass's cells are as wide as one of them).
    static func crowdedPoints(seed: UInt32) throws -> (x: ContiguousArray<Double>, y: ContiguousArray<Double>) {
        var rng = TestLCG(seed: seed)
        var x = ContiguousArray<Double>(), y = ContiguousArray<Double>()
        for _ in 0..<12 {
            let cx = rng.uniform(0.1, 0.9), cy = rng.uniform(0.1, 0.9), spread = rng.uniform(1e-5, 1e-3)
            for _ in 0..<150 {
                x.append(cx + rng.uniform(-spread, spread)); y.append(cy + rng.uniform(-spread, spread))
                if rng.below(8) == 0 { x.append(x.last!); y.append(y.last!) }
            }
        }
        for k in 0..<300 {
            x.append(0.3 + Double(k) * 3e-6 * rng.uniform(0.5, 1.5)); y.append(0.5)
            x.append(0.7); y.append(0.2 + Double(k) * 3e-6 * rng.uniform(0.5, 1.5))
        }
        let options = try ClusterOptions()
        for z in options.minZoom...options.maxZoom {
            let t = IsolationBound.threshold(radius: options.searchRadius(atZoom: z), float32: false)
            let k = (rng.uniform(0.2, 0.8) / t).rounded(.down)
            for (dx, dy) in [(0.0, 0.0), (0, 0.3), (1, 0), (-0.4, 1), (0.2, -1)] {
                x.append((k + dx) * t); y.append((k + dy) * t)
            }
        }
        return (x, y)
    }

    @Test("nearest distances on crowded cells, long rows and cell edges: as brute force",
          arguments: [false, true], [false, true])
    func crowdedAgainstBruteForce(parallel: Bool, float32: Bool) throws {
        let (x, y) = try Self.crowdedPoints(seed: 41)
        let n = x.count
        let options = try ClusterOptions()
        let bounds = ItemBounds(x: x, y: y, count: n)
        for singlePass in [false, true] {
            let bound = IsolationBound(x: x, y: y, count: n, bounds: bounds, options: options, float32: float32,
                                       singlePass: singlePass, parallel: Parallelism(parallel, yielding: PauseGate()))
            Self.expectAgreesWithBruteForce(bound, x: x, y: y, options: options, float32: float32)
        }
    }

    /// Checks `bound` against brute-force nearest distances over the points.
    static func expectAgreesWithBruteForce(_ bound: IsolationBound, x: ContiguousArray<Double>, y: ContiguousArray<Double>,
                                           options: ClusterOptions, float32: Bool) {
        let n = x.count
        // What the levels ask: whether a point's nearest other point lies beyond their threshold.
        let thresholds = (options.minZoom...options.maxZoom).map {
            bound.isolatedSquaredDistance(radius: options.searchRadius(atZoom: $0), float32: float32)
        }.filter { $0 < .infinity }
        #expect(thresholds.count >= 3)
        var exact = 0, within = 0
        for i in 0..<n {
            var best = Double.infinity
            for j in 0..<n where j != i {
                let dx = x[j] - x[i], dy = y[j] - y[i]
                best = min(best, dx * dx + dy * dy)
            }
            let got = bound.nearest2[i]
            for t in thresholds {
                #expect((got > t) == (best > t), "point \(i): \(got) against nearest \(best), threshold \(t)")
            }
            if best <= bound.h * bound.h {
                // Never nearer than the nearest point: a distance found is a real point's.
                #expect(got >= best, "point \(i): \(got), nearest \(best)")
                within += 1
                if got == best { exact += 1 }
            } else {
                #expect(got == .infinity, "point \(i): \(got), nearest \(best) beyond h \(bound.h)")
            }
        }
        // The twins (exact, or within 10⁻⁵) lie within any pass's cells, and most scans end at
        // the nearest point.
        #expect(within > n / 4)
        #expect(exact > within / 2)
    }

    @Test("the scan's stop: the first level threshold past the previous pass's cells, at most the cell")
    func stopDistance() {
        let thresholds = [1.0, 2.0, 4.0, 8.0]
        #expect(IsolationBound.stopDistance(after: 0, cell: 1, thresholds: thresholds) == 1)
        #expect(IsolationBound.stopDistance(after: 1, cell: 4, thresholds: thresholds) == 2)
        #expect(IsolationBound.stopDistance(after: 1.5, cell: 8, thresholds: thresholds) == 2)
        #expect(IsolationBound.stopDistance(after: 4, cell: 4, thresholds: thresholds) == 4)
        #expect(IsolationBound.stopDistance(after: 8, cell: 9, thresholds: thresholds) == 9)
    }

    @Test("the isolation threshold: 3r plus the float32 margin, ∞ once it passes the cell size")
    func threshold() throws {
        let (x, y) = Self.points(500, seed: 3)
        let options = try ClusterOptions()
        let bound = IsolationBound(x: x, y: y, count: x.count, bounds: ItemBounds(x: x, y: y, count: x.count),
                                   options: options, parallel: false)
        let r = options.searchRadius(atZoom: 14)
        let plain = bound.isolatedSquaredDistance(radius: r).squareRoot()
        let float32 = bound.isolatedSquaredDistance(radius: r, float32: true).squareRoot()
        #expect(abs(plain - 3 * r) < 1e-12)
        #expect(abs(float32 - plain - IsolationBound.float32Margin) < 1e-12)
        #expect(bound.isolatedSquaredDistance(radius: bound.h) == .infinity)
    }

    @Test("the last pass's cells are as wide as its level's threshold, so the bound serves that level too",
          arguments: [false, true])
    func servesItsLastPassLevel(float32: Bool) throws {
        let (x, y) = Self.points(2_000, seed: 5)
        let options = try ClusterOptions()
        let bound = IsolationBound(x: x, y: y, count: x.count, bounds: ItemBounds(x: x, y: y, count: x.count),
                                   options: options, float32: float32, parallel: false)
        let served = (options.minZoom...options.maxZoom).filter {
            bound.isolatedSquaredDistance(radius: options.searchRadius(atZoom: $0), float32: float32) < .infinity
        }
        let coarsest = try #require(served.min())
        // Cells of exactly 3r left the last pass's own level past the cell size (by the margins):
        // the coarsest level served was then the one above it.
        #expect(IsolationBound.threshold(radius: options.searchRadius(atZoom: coarsest), float32: float32) == bound.h)
        #expect(served == Array(coarsest...options.maxZoom))
    }

    @Test("Float rounding moves a unit-Mercator position by at most ε = 2^-25 · √2, a 65th of the margin")
    func floatRounding() {
        var rng = TestLCG(seed: 99)
        let epsilon = IsolationBound.float32Margin / 65
        var values = [0, 1, 0.5, 0.5.nextDown, 1.0.nextDown, 0x1p-30, 0.25.nextUp]
        for _ in 0..<20_000 { values.append(rng.next53()) }
        var worst = 0.0
        for v in values {
            let e = abs(Double(Float(v)) - v)
            worst = max(worst, e)
            #expect(e <= 0x1p-25, "\(v)")
        }
        // The largest per-axis error on both axes at once is still within ε.
        #expect((worst * worst * 2).squareRoot() <= epsilon)
        #expect(worst > 0x1p-26)
    }
}
