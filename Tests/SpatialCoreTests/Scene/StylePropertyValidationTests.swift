import Foundation
import Testing
@testable import SpatialCore

/// Paint and layout values in a style document as the style specification defines them: a value
/// under the other group is an unknown property there (ignored).
@Suite("Style property validation")
struct StylePropertyValidationTests {
    typealias D = StyleDocumentTests

    /// The one point of ``StyleDocumentTests/style(layers:sources:)`` on screen.
    static var point: CGPoint { D.camera.point(for: Coordinate(latitude: 38.9, longitude: -77.0)) }

    static func scene(_ layer: String) throws -> Scene {
        try Scene(styleData: D.style(layers: layer), images: ["pin": CGSize(width: 20, height: 20)], camera: D.camera)
    }

    static func hits(_ scene: Scene, dx: Double, dy: Double = 0) -> Int {
        scene.visibleFeatures(at: CGPoint(x: point.x + dx, y: point.y + dy)).count
    }

    @Test("a paint property under layout (or a layout one under paint) is unknown there and ignored")
    func wrongGroup() throws {
        // circle-radius is a paint property: under layout the default radius 5 holds.
        let circle = try Self.scene(#"{"id":"a","type":"circle","source":"points","layout":{"circle-radius":40,"circle-opacity":0}}"#)
        #expect(Self.hits(circle, dx: 4.9) == 1)
        #expect(Self.hits(circle, dx: 20) == 0)
        // icon-size is a layout property: under paint the size stays 1 (20 × 20 box, padding 2 → 12 from the point).
        let icon = try Self.scene(#"{"id":"a","type":"symbol","source":"points","layout":{"icon-image":"pin"},"paint":{"icon-size":3,"icon-offset":[50,0]}}"#)
        #expect(Self.hits(icon, dx: 11.9) == 1)
        #expect(Self.hits(icon, dx: 12.1) == 0)
        #expect(Self.hits(icon, dx: 50) == 0)
        // icon-translate is a paint property: under layout the icon stays where it is.
        let translated = try Self.scene(#"{"id":"a","type":"symbol","source":"points","layout":{"icon-image":"pin","icon-translate":[100,0]}}"#)
        #expect(Self.hits(translated, dx: 0) == 1)
        #expect(Self.hits(translated, dx: 100) == 0)
    }
}
