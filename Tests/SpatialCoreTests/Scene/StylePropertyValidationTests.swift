import Foundation
import Testing
@testable import SpatialCore

/// Paint and layout values in a style document as the style specification defines them: a value
/// under the other group is an unknown property there (ignored), an enumeration takes only its
/// listed strings and a number only its range; anything else is an error naming its JSON path.
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

    @Test("every anchor value of the style specification loads", arguments: [
        "center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left", "bottom-right",
    ])
    func anchors(anchor: String) throws {
        _ = try Self.scene(#"{"id":"a","type":"symbol","source":"points","layout":{"icon-image":"pin","icon-anchor":"\#(anchor)","text-field":"x","text-anchor":"\#(anchor)"},"paint":{"icon-translate-anchor":"viewport","text-translate-anchor":"map"}}"#)
    }

    @Test("a string outside an enumeration is an error naming its JSON path", arguments: [
        (#""layout":{"icon-anchor":"middle"}"#, "layers[0].layout.icon-anchor"),
        (#""layout":{"text-anchor":"centre"}"#, "layers[0].layout.text-anchor"),
        (#""paint":{"icon-translate-anchor":"screen"}"#, "layers[0].paint.icon-translate-anchor"),
        (#""paint":{"text-translate-anchor":"Viewport"}"#, "layers[0].paint.text-translate-anchor"),
        (#""layout":{"icon-anchor":{"stops":[[0,"top"],[10,"middle"]]}}"#, "layers[0].layout.icon-anchor.stops[1][1]"),
    ])
    func enumerations(member: String, path: String) throws {
        let e = try #require(D.error(D.style(layers: #"{"id":"a","type":"symbol","source":"points",\#(member)}"#)))
        #expect(e.path == path, "\(e)")
        let circle = try #require(D.error(D.style(layers: #"{"id":"a","type":"circle","source":"points","paint":{"circle-translate-anchor":"screen"}}"#)))
        #expect(circle.path == "layers[0].paint.circle-translate-anchor", "\(circle)")
    }

    @Test("a constant outside its property's range is an error naming its JSON path", arguments: [
        (#""type":"circle","paint":{"circle-radius":-1}"#, "layers[0].paint.circle-radius"),
        (#""type":"circle","paint":{"circle-stroke-width":-0.5}"#, "layers[0].paint.circle-stroke-width"),
        (#""type":"circle","paint":{"circle-opacity":1.5}"#, "layers[0].paint.circle-opacity"),
        (#""type":"circle","paint":{"circle-stroke-opacity":-1}"#, "layers[0].paint.circle-stroke-opacity"),
        (#""type":"symbol","layout":{"icon-size":-2}"#, "layers[0].layout.icon-size"),
        (#""type":"symbol","layout":{"text-size":-12}"#, "layers[0].layout.text-size"),
        (#""type":"symbol","layout":{"text-padding":-1}"#, "layers[0].layout.text-padding"),
        (#""type":"symbol","layout":{"icon-padding":-1}"#, "layers[0].layout.icon-padding"),
        (#""type":"symbol","paint":{"icon-opacity":2}"#, "layers[0].paint.icon-opacity"),
        (#""type":"symbol","paint":{"text-opacity":{"stops":[[0,1],[5,-1]]}}"#, "layers[0].paint.text-opacity.stops[1][1]"),
    ])
    func ranges(member: String, path: String) throws {
        let e = try #require(D.error(D.style(layers: #"{"id":"a","source":"points",\#(member)}"#)))
        #expect(e.path == path, "\(e)")
    }

    @Test("the ends of each range load: radius, widths, sizes and paddings 0, opacities 0 and 1")
    func rangeEnds() throws {
        _ = try Self.scene(#"{"id":"a","type":"circle","source":"points","paint":{"circle-radius":0,"circle-stroke-width":0,"circle-opacity":1,"circle-stroke-opacity":0}}"#)
        _ = try Self.scene(#"{"id":"b","type":"symbol","source":"points","layout":{"icon-size":0,"text-size":0,"icon-padding":0,"text-padding":0},"paint":{"icon-opacity":0,"text-opacity":1}}"#)
    }
}
