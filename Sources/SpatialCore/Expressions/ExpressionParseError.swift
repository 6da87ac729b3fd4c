/// A step of a JSON path: an array index or an object member name.
public enum JSONPathComponent: Hashable, Sendable {
    /// An array element, printed `[i]`.
    case index(Int)
    /// An object member, printed `.name`.
    case key(String)
}

/// An expression (or legacy function / filter) that cannot be loaded: where and why.
///
/// `path` names the failing JSON value: the caller's `prefix` (for example
/// `layers[2].paint.circle-radius`) followed by the position inside the expression (`[3][1]`).
public struct ExpressionParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The caller's location of the whole expression, or empty.
    public var prefix: String
    /// The position of the failing value inside the expression.
    public var components: [JSONPathComponent]
    /// What is wrong, in words.
    public var reason: String

    /// An error at `components` with `reason`. O(1).
    public init(prefix: String = "", components: [JSONPathComponent] = [], reason: String) {
        self.prefix = prefix
        self.components = components
        self.reason = reason
    }

    /// The full path, e.g. `layers[2].paint.circle-radius[3][1]`. O(path length).
    public var path: String {
        var text = prefix
        for component in components {
            switch component {
            case .index(let i): text += "[\(i)]"
            case .key(let k): text += text.isEmpty ? k : ".\(k)"
            }
        }
        return text
    }

    /// The same error placed under a caller's location (`layers[2].paint.circle-radius`). O(1).
    public func prefixed(by location: String) -> ExpressionParseError {
        var copy = self
        copy.prefix = location + prefix
        return copy
    }

    /// `path: reason`, or just the reason at the root. O(path length).
    public var description: String {
        let p = path
        return p.isEmpty ? reason : "\(p): \(reason)"
    }
}
