// The operators that only paint and layout values use: `feature-state`, `image` and `format`.
// They are not in the spec's required list, but real styles use them in the very properties a
// footprint reads (a hover radius, an icon with a fallback, a formatted label), and a style that
// holds one must load. What each yields here is what decides a footprint:
//
// - `["feature-state", key]` reads null: a headless engine sets no feature state, which is a
//   feature's state in a map SDK until the app sets one.
// - `["image", name]` is the name when the context has that image (see
//   ``ExpressionContext/hasImage(named:)``), else null, so that `coalesce` falls back to the next
//   image as a map SDK does when an image is missing.
// - `["format", content, options?, ...]` is the sections' text run together (an image section
//   adds none), as `to-string` of a formatted value; the scene measures each section at its
//   `font-scale` (``Expression/formatSections``).

extension ExpressionParser {
    mutating func parseStyleOperator(_ op: String, _ a: [JSONValue], zoom: Bool)
        throws(ExpressionParseError) -> (Node, ExpressionType)
    {
        switch op {
        case "feature-state", "image", "format":
            guard purpose == .value else {
                throw fail("\"\(op)\" is only available in paint and layout values")
            }
        default:
            throw fail("unknown expression operator \"\(op)\"")
        }
        switch op {
        case "feature-state":
            try arity(op, a, 1...1)
            return (.featureState(try node(a, 1, zoom: zoom, .string)), .value)
        case "image":
            try arity(op, a, 1...1)
            return (.image(try node(a, 1, zoom: zoom, .string)), .string)
        default:
            return (.format(try formatSections(a, zoom: zoom)), .string)
        }
    }

    /// The sections of `["format", content, options?, content, options?, ...]`: each content a
    /// string, null or image expression (numbers must go through `to-string`, as upstream asks),
    /// each optional options object right after its content. O(size of the JSON).
    mutating func formatSections(_ a: [JSONValue], zoom: Bool) throws(ExpressionParseError) -> [FormatSection] {
        try arity("format", a, 1...Int.max)
        var sections: [FormatSection] = []
        var i = 1
        while i < a.count {
            if case .object = a[i] {
                throw failAt(i, "a format section must start with its text or image, not an options object")
            }
            let (content, type) = try child(a, i, zoom: zoom)
            guard type == .string || type == .value || type == .null else {
                throw failAt(i, "a format section must be a string, an image or null, found \(type); use \"to-string\" for numbers")
            }
            i += 1
            var scale: Node?
            if i < a.count, case .object(let options) = a[i] {
                if let s = options["font-scale"] {
                    path.append(.index(i))
                    path.append(.key("font-scale"))
                    defer { path.removeLast(2) }
                    let (node, scaleType) = try parse(s, zoom: zoom)
                    guard ExpressionType.number.accepts(scaleType) else { throw fail("expected number but found \(scaleType)") }
                    scale = node
                }
                i += 1
            }
            sections.append(FormatSection(content: content, scale: scale))
        }
        return sections
    }
}
