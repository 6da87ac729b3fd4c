import Foundation
import Testing
import SpatialCore

@Suite struct FootprintTests {
    @Test func circleTapIsStrictlyInside() {
        let circle = Footprint.circle(center: SIMD2(100, 100), radius: 25)
        #expect(circle.contains(SIMD2(100, 100)))
        #expect(circle.contains(SIMD2(124.9, 100)))
        #expect(!circle.contains(SIMD2(125, 100)))  // on the edge: distance is not less than r
        #expect(!circle.contains(SIMD2(100, 126)))  // 26 points away misses a 25-point cluster
        #expect(circle.contains(SIMD2(117, 117)))  // √(17² + 17²) ≈ 24.04
        #expect(!circle.contains(SIMD2(118, 118)))  // ≈ 25.46
        #expect(circle.distance(to: SIMD2(100, 130)) == 5)
        #expect(circle.distance(to: SIMD2(101, 100)) == 0)
        #expect(circle.bounds == ScreenBox(minX: 75, minY: 75, maxX: 125, maxY: 125))
    }

    @Test func circleAgainstRectangles() {
        let circle = Footprint.circle(center: SIMD2(100, 100), radius: 25)
        // Centre inside.
        #expect(circle.intersects(ScreenBox(minX: 90, minY: 90, maxX: 110, maxY: 110)))
        // 30 points to the right of the centre: too far for r = 25, near enough for r = 31.
        let right = ScreenBox(minX: 130, minY: 90, maxX: 140, maxY: 110)
        #expect(!circle.intersects(right))
        #expect(Footprint.circle(center: SIMD2(100, 100), radius: 31).intersects(right))
        // Exactly r away is not less than r.
        #expect(!circle.intersects(ScreenBox(minX: 125, minY: 0, maxX: 200, maxY: 200)))
        // Diagonal corner: the corner (120, 120) is 28.3 away.
        let corner = ScreenBox(minX: 120, minY: 120, maxX: 200, maxY: 200)
        #expect(!circle.intersects(corner))
        #expect(Footprint.circle(center: SIMD2(100, 100), radius: 28.5).intersects(corner))
    }

    @Test(arguments: [
        (SymbolAnchor.center, ScreenBox(minX: -11, minY: -5, maxX: 11, maxY: 5)),
        (.left, ScreenBox(minX: 0, minY: -5, maxX: 22, maxY: 5)),
        (.right, ScreenBox(minX: -22, minY: -5, maxX: 0, maxY: 5)),
        (.top, ScreenBox(minX: -11, minY: 0, maxX: 11, maxY: 10)),
        (.bottom, ScreenBox(minX: -11, minY: -10, maxX: 11, maxY: 0)),
        (.topLeft, ScreenBox(minX: 0, minY: 0, maxX: 22, maxY: 10)),
        (.topRight, ScreenBox(minX: -22, minY: 0, maxX: 0, maxY: 10)),
        (.bottomLeft, ScreenBox(minX: 0, minY: -10, maxX: 22, maxY: 0)),
        (.bottomRight, ScreenBox(minX: -22, minY: -10, maxX: 0, maxY: 0)),
    ])
    func anchorsPlaceTheBox(anchor: SymbolAnchor, expected: ScreenBox) {
        #expect(anchor.box(width: 22, height: 10) == expected)
    }

    @Test func anchorNamesAreTheStyleSpecNames() {
        #expect(SymbolAnchor(rawValue: "bottom-left") == .bottomLeft)
        #expect(SymbolAnchor(rawValue: "middle") == nil)
        #expect(SymbolAnchor.allCases.count == 9)
    }

    @Test func rotationEnvelope() {
        // A 10×2 bar to the right of the pivot turned 90° clockwise (y down) points down.
        let bar = ScreenBox(minX: 0, minY: -1, maxX: 10, maxY: 1)
        let turned = bar.envelopeRotated(by: 90, about: SIMD2(0, 0))
        #expect(abs(turned.minX + 1) < 1e-12 && abs(turned.maxX - 1) < 1e-12)
        #expect(abs(turned.minY) < 1e-12 && abs(turned.maxY - 10) < 1e-12)
        // A centred 22×22 square turned 45° covers 11·√2 on each side.
        let square = ScreenBox(minX: -11, minY: -11, maxX: 11, maxY: 11).envelopeRotated(by: 45, about: SIMD2(0, 0))
        #expect(abs(square.maxX - 11 * 2.0.squareRoot()) < 1e-12 && abs(square.minY + 11 * 2.0.squareRoot()) < 1e-12)
        // Whole turns change nothing.
        #expect(bar.envelopeRotated(by: 360, about: SIMD2(3, 3)) == bar)
        #expect(bar.envelopeRotated(by: 0, about: SIMD2(3, 3)) == bar)
    }

    @Test func boxesAreHitWhenTouched() {
        let icon = ScreenBox(minX: 0, minY: 0, maxX: 10, maxY: 10)
        let text = ScreenBox(minX: 20, minY: 0, maxX: 40, maxY: 10)
        let symbol = Footprint.boxes(icon: icon, text: text)
        #expect(symbol.contains(SIMD2(10, 10)))  // the edge counts
        #expect(symbol.contains(SIMD2(30, 5)))
        #expect(!symbol.contains(SIMD2(15, 5)))  // between the boxes
        #expect(symbol.distance(to: SIMD2(15, 5)) == 5)
        #expect(symbol.intersects(ScreenBox(minX: 40, minY: 10, maxX: 50, maxY: 50)))
        #expect(!symbol.intersects(ScreenBox(minX: 11, minY: 0, maxX: 19, maxY: 10)))
        #expect(symbol.bounds == ScreenBox(minX: 0, minY: 0, maxX: 40, maxY: 10))
        #expect(Footprint.boxes(icon: nil, text: text).bounds == text)
        #expect(!Footprint.boxes(icon: nil, text: text).contains(SIMD2(5, 5)))
    }

    @Test func screenBoxBasics() {
        let r = ScreenBox(CGRect(x: 10, y: 20, width: -5, height: 4))
        #expect(r == ScreenBox(minX: 5, minY: 20, maxX: 10, maxY: 24))
        #expect(r.rect == CGRect(x: 5, y: 20, width: 5, height: 4))
        #expect(r.insetBy(2) == ScreenBox(minX: 3, minY: 18, maxX: 12, maxY: 26))
        #expect(r.offsetBy(SIMD2(1, -1)) == ScreenBox(minX: 6, minY: 19, maxX: 11, maxY: 23))
        #expect(r.distance(to: SIMD2(13, 28)) == 5)
    }
}
