import Foundation

/// Insets from the edges of a view, in points; they move the camera's focal point.
public struct EdgeInsets: Hashable, Sendable {
    /// From the view's top edge, in points.
    public var top: Double
    /// From the view's left edge, in points.
    public var left: Double
    /// From the view's bottom edge, in points.
    public var bottom: Double
    /// From the view's right edge, in points.
    public var right: Double

    /// Insets from their four values. O(1).
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// No insets.
    public static let zero = EdgeInsets()
}

/// Why a camera could not be made.
public enum CameraError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The centre is NaN, infinite, or its latitude is outside −90 … 90.
    case invalidCenter(Coordinate)
    /// The zoom is NaN or outside 0 … 24.
    case zoomOutOfRange(Double)
    /// The bearing is NaN or infinite.
    case invalidBearing(Double)
    /// A pitched camera: only pitch 0 is supported for now.
    case pitchNotSupported(Double)
    /// The view's width or height is not a positive finite number, or is above
    /// ``Camera/maximumViewSide``.
    case invalidViewSize(width: Double, height: Double)
    /// An inset is negative, NaN or infinite, or the insets leave no room in the view.
    case invalidInsets(EdgeInsets)

    /// The error as a sentence that names the bad value. O(length of the sentence).
    public var description: String {
        switch self {
        case .invalidCenter(let c): "invalid camera center (\(c.latitude), \(c.longitude)): latitude must be in -90...90 and both finite"
        case .zoomOutOfRange(let z): "camera zoom \(z) is outside 0...24"
        case .invalidBearing(let b): "camera bearing \(b) is not a finite number"
        case .pitchNotSupported(let p): "camera pitch \(p) is not supported yet (only 0)"
        case .invalidViewSize(let w, let h): "view size \(w)x\(h) must be positive, finite and at most \(Int(Camera.maximumViewSide)) points a side"
        case .invalidInsets(let i): "edge insets \(i) must be finite, non-negative and leave room in the view"
        }
    }
}

/// A map camera without pitch: what part of the Web Mercator world a view of `viewSize` points shows.
///
/// Conversions follow `projection-and-queries.md`: the focal point is the view's centre moved by
/// half the inset differences; a bearing of θ degrees turns the map so that the top of the view
/// faces θ clockwise from north. Screen points have their origin top-left with y down.
public struct Camera: Hashable, Sendable {
    /// The geographic point at the focal point (longitude wrapped into −180 ..< 180, latitude
    /// clamped to ±``WebMercator/maxLatitude``, as MapLibre reports its centre).
    public let center: Coordinate
    /// The fractional zoom level, 0 … 24 (512-point tiles).
    public let zoom: Double
    /// Degrees clockwise from north that the top of the view faces.
    public let bearing: Double
    /// The view's size in points.
    public let viewSize: CGSize
    /// Insets that move the focal point.
    public let insets: EdgeInsets

    /// The largest view width or height, in points (65,536: four times the largest texture side
    /// of current GPUs). It bounds the world copies one view can show (about 180 at zoom 0), so
    /// that a query always looks at every copy in view.
    public static let maximumViewSide: Double = 65_536

    /// The centre's Mercator ordinate, kept so that conversions work relative to the centre
    /// (differences of small numbers rather than of world points near 2^32 at zoom 24).
    private let centerOrdinate: Double

    /// A camera after validation. O(1).
    /// - Throws: ``CameraError`` for a NaN or out-of-range value, a view side that is not positive
    ///   or above ``maximumViewSide``, bad insets, or a pitch other than 0.
    public init(
        center: Coordinate, zoom: Double, bearing: Double = 0, pitch: Double = 0,
        viewSize: CGSize, insets: EdgeInsets = .zero
    ) throws(CameraError) {
        guard center.isValid else { throw .invalidCenter(center) }
        guard zoom.isFinite, zoom >= 0, zoom <= 24 else { throw .zoomOutOfRange(zoom) }
        guard bearing.isFinite else { throw .invalidBearing(bearing) }
        guard pitch == 0 else { throw .pitchNotSupported(pitch) }
        let w = Double(viewSize.width), h = Double(viewSize.height)
        guard w.isFinite, h.isFinite, w > 0, h > 0, w <= Self.maximumViewSide, h <= Self.maximumViewSide else {
            throw .invalidViewSize(width: w, height: h)
        }
        let values = [insets.top, insets.left, insets.bottom, insets.right]
        guard values.allSatisfy({ $0.isFinite && $0 >= 0 }),
            insets.left + insets.right < w, insets.top + insets.bottom < h
        else { throw .invalidInsets(insets) }
        let wrapped = center.wrapped
        self.center = Coordinate(
            latitude: Swift.min(Swift.max(wrapped.latitude, -WebMercator.maxLatitude), WebMercator.maxLatitude),
            longitude: wrapped.longitude)
        self.zoom = zoom
        self.bearing = bearing
        self.viewSize = viewSize
        self.insets = insets
        self.centerOrdinate = WebMercator.mercatorOrdinate(latitude: center.latitude)
    }

    /// The side of the world square at this zoom, in points. O(1).
    @inlinable public var worldSize: Double { WebMercator.worldSize(zoom: zoom) }

    /// The focal point in view coordinates. O(1).
    public var focalPoint: CGPoint {
        CGPoint(
            x: Double(viewSize.width) / 2 + (insets.left - insets.right) / 2,
            y: Double(viewSize.height) / 2 + (insets.top - insets.bottom) / 2)
    }

    /// The centre in world points at this zoom. O(1).
    @inlinable public var centerWorldPoint: SIMD2<Double> {
        WebMercator.project(center, worldSize: worldSize)
    }

    /// The view point where `coordinate` is drawn, using the world copy nearest the centre. O(1).
    public func point(for coordinate: Coordinate) -> CGPoint {
        let lng = Longitude.nearestCopy(of: coordinate.longitude, to: center.longitude)
        let size = worldSize
        let d = SIMD2(
            (lng - center.longitude) / 360 * size,
            (centerOrdinate - WebMercator.mercatorOrdinate(latitude: coordinate.latitude)) / (2 * Double.pi) * size)
        return viewPoint(forOffset: d)
    }

    /// The view point of a world point at this zoom (no world-copy choice). O(1).
    public func viewPoint(forWorldPoint world: SIMD2<Double>) -> CGPoint {
        viewPoint(forOffset: world - centerWorldPoint)
    }

    /// The view point at world offset `d` (points, y down) from the centre. O(1).
    public func viewPoint(forOffset d: SIMD2<Double>) -> CGPoint {
        let (sinT, cosT) = sinCos(bearing)
        let a = focalPoint
        return CGPoint(
            x: Double(a.x) + d.x * cosT + d.y * sinT,
            y: Double(a.y) - d.x * sinT + d.y * cosT)
    }

    /// The world offset (points, y down) from the centre of a view point. O(1).
    public func offset(for point: CGPoint) -> SIMD2<Double> {
        let a = focalPoint
        let e = SIMD2(Double(point.x) - Double(a.x), Double(point.y) - Double(a.y))
        let (sinT, cosT) = sinCos(bearing)
        return SIMD2(e.x * cosT - e.y * sinT, e.x * sinT + e.y * cosT)
    }

    /// The world point (at this zoom, unwrapped) under a view point. O(1).
    public func worldPoint(for point: CGPoint) -> SIMD2<Double> {
        centerWorldPoint + offset(for: point)
    }

    /// The coordinate under a view point, longitude wrapped into −180 ..< 180. O(1).
    public func coordinate(for point: CGPoint) -> Coordinate {
        unwrappedCoordinate(for: point).wrapped
    }

    /// The coordinate under a view point with its longitude in the centre's world copy or the
    /// copies beside it (not wrapped). O(1).
    public func unwrappedCoordinate(for point: CGPoint) -> Coordinate {
        let d = offset(for: point)
        let size = worldSize
        return Coordinate(
            latitude: WebMercator.latitude(mercatorOrdinate: centerOrdinate - d.y / size * (2 * Double.pi)),
            longitude: center.longitude + d.x / size * 360)
    }

    /// The geographic envelope of the view (of the turned rectangle when there is a bearing).
    ///
    /// Longitudes are left unwrapped so that the box can cross the antimeridian or span more than
    /// 360° at low zoom; latitudes are those of the Mercator square's edges at most. O(1).
    public var visibleBounds: GeoBoundingBox {
        let w = Double(viewSize.width), h = Double(viewSize.height)
        let corners = [CGPoint(x: 0, y: 0), CGPoint(x: w, y: 0), CGPoint(x: 0, y: h), CGPoint(x: w, y: h)]
            .map(unwrappedCoordinate(for:))
        return GeoBoundingBox(
            west: corners.map(\.longitude).min()!,
            south: max(corners.map(\.latitude).min()!, -WebMercator.maxLatitude),
            east: corners.map(\.longitude).max()!,
            north: min(corners.map(\.latitude).max()!, WebMercator.maxLatitude))
    }

    private func sinCos(_ degrees: Double) -> (Double, Double) {
        let radians = degrees * Double.pi / 180
        return (sin(radians), cos(radians))
    }
}
