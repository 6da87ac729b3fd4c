/// Which part of a symbol's icon or text box sits at the feature's point (`icon-anchor`,
/// `text-anchor` in a style).
public enum SymbolAnchor: String, CaseIterable, Hashable, Sendable {
    case center
    case left
    case right
    case top
    case bottom
    case topLeft = "top-left"
    case topRight = "top-right"
    case bottomLeft = "bottom-left"
    case bottomRight = "bottom-right"

    /// The box of a `width` × `height` symbol relative to its anchor point (view points, y down). O(1).
    public func box(width: Double, height: Double) -> ScreenBox {
        let x: Double
        switch self {
        case .left, .topLeft, .bottomLeft: x = 0
        case .right, .topRight, .bottomRight: x = -width
        case .center, .top, .bottom: x = -width / 2
        }
        let y: Double
        switch self {
        case .top, .topLeft, .topRight: y = 0
        case .bottom, .bottomLeft, .bottomRight: y = -height
        case .center, .left, .right: y = -height / 2
        }
        return ScreenBox(minX: x, minY: y, maxX: x + width, maxY: y + height)
    }
}
