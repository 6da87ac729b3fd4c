import Testing
@testable import SpatialCore

/// Box queries of the `.double` index against brute force over each level's rows. Its query
/// trees keep the rows' coordinates rounded to `Float`; a box still holds exactly the rows whose
/// `Double` coordinates lie inside it, bounds inclusive, including boxes whose edges fall between
/// a row's coordinate and its rounding. (`.float32` compares the rounded values, as supercluster
/// does; the oracle and reference suites check it.)
@Suite("Clustering: box queries of the .double index")
struct ClusterBoxQueryTests {
    /// Every row present at level z, read from the rows' level ranges (not from the trees).
    static func rows(_ index: ClusterIndex, level z: Int) -> [Int] {
        (0 ..< index.itemX.count).filter { Int(index.itemLowLevel[$0]) <= z && z <= Int(index.itemHighLevel[$0]) }
    }

    /// The rows of `all` inside the box, sorted.
    static func inside(_ index: ClusterIndex, _ all: [Int], _ box: (Double, Double, Double, Double)) -> [Int] {
        all.filter {
            box.0 <= index.itemX[$0] && index.itemX[$0] <= box.2 && box.1 <= index.itemY[$0] && index.itemY[$0] <= box.3
        }.sorted()
    }

    /// The rows a query of the box visits, sorted; records a row visited twice.
    static func found(_ index: ClusterIndex, level z: Int, _ box: (Double, Double, Double, Double)) -> [Int] {
        var rows: [Int] = []
        index.forEachRow(level: z, minX: box.0, minY: box.1, maxX: box.2, maxY: box.3) { rows.append($0) }
        #expect(Set(rows).count == rows.count, "a row visited twice at z\(z)")
        return rows.sorted()
    }

    /// Edges at and next to a coordinate, and at and next to its `Float` rounding.
    static func edges(near v: Double) -> [Double] {
        let f = Double(Float(v))
        return [v, v.nextUp, v.nextDown, f, f.nextUp, f.nextDown]
    }

    @Test("boxes whose edges fall at, beside and between rows' coordinates and their Float roundings",
          arguments: [(UInt32(7), 3_000, 40.0), (UInt32(8), 1_500, 5.0), (UInt32(9), 800, 150.0)])
    func edgesAtRows(seed: UInt32, n: Int, radius: Double) throws {
        var rng = TestLCG(seed: seed)
        // Blobs of several sizes, so that most levels hold clusters and points, plus duplicates.
        let centres = (0 ..< 6).map { _ in (rng.uniform(-170, 170), rng.uniform(-70, 70), rng.uniform(0.0001, 2)) }
        var coordinates: [Coordinate] = []
        for i in 0 ..< n {
            let (cx, cy, s) = centres[i % centres.count]
            if i % 97 == 0, let last = coordinates.last { coordinates.append(last); continue }
            coordinates.append(Coordinate(latitude: cy + s * (rng.next53() - 0.5), longitude: cx + s * (rng.next53() - 0.5)))
        }
        let options = try ClusterOptions(maxZoom: 16, radius: radius)
        let index = try ClusterIndex(coordinates: coordinates, options: options)
        var checked = 0
        for z in options.minZoom ... options.maxZoom + 1 {
            let all = Self.rows(index, level: z)
            // The whole world holds every row of the level, each once.
            #expect(Self.found(index, level: z, (-1, -1, 2, 2)) == all, "z\(z) world")
            for _ in 0 ..< 12 {
                let r = all[rng.below(all.count)]
                let (x, y) = (index.itemX[r], index.itemY[r])
                let span = rng.uniform(0, 0.01)
                for e in Self.edges(near: x) {
                    for box in [(e, y - span, e + span, y + span), (e - span, y - span, e, y + span)] {
                        #expect(Self.found(index, level: z, box) == Self.inside(index, all, box), "z\(z) row \(r) x edge \(e)")
                        checked += 1
                    }
                }
                for e in Self.edges(near: y) {
                    for box in [(x - span, e, x + span, e + span), (x - span, e - span, x + span, e)] {
                        #expect(Self.found(index, level: z, box) == Self.inside(index, all, box), "z\(z) row \(r) y edge \(e)")
                        checked += 1
                    }
                }
                // The row's point alone, as a box of no size.
                #expect(Self.found(index, level: z, (x, y, x, y)) == Self.inside(index, all, (x, y, x, y)), "z\(z) row \(r) as a point")
            }
        }
        #expect(checked == (options.maxZoom + 2) * 12 * 24)
    }

    @Test("random boxes over seeded points at every level")
    func randomBoxes() throws {
        var rng = TestLCG(seed: 41)
        let coordinates = (0 ..< 5_000).map { _ in
            Coordinate(latitude: rng.uniform(-60, 60), longitude: rng.uniform(-180, 180))
        }
        let options = try ClusterOptions(maxZoom: 14)
        let index = try ClusterIndex(coordinates: coordinates, options: options)
        for z in options.minZoom ... options.maxZoom + 1 {
            let all = Self.rows(index, level: z)
            #expect(!all.isEmpty)
            for _ in 0 ..< 40 {
                let (x0, y0) = (rng.next53(), rng.next53())
                let box = (x0, y0, x0 + rng.uniform(0, 0.3), y0 + rng.uniform(0, 0.3))
                #expect(Self.found(index, level: z, box) == Self.inside(index, all, box), "z\(z) box \(box)")
            }
        }
    }
}
