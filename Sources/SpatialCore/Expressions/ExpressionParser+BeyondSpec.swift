// Operators beyond the spec's required list that real styles use, so that such a style loads
// and its footprints come out as a map SDK draws them.
//
// Paint and layout values only (parse errors in filters and cluster properties), since what
// they yield is about drawing:
// - `["feature-state", key]` reads null: a headless engine sets no feature state, which is a
//   feature's state in a map SDK until the app sets one.
// - `["image", name]` is the name when the context has that image (see
//   ``ExpressionContext/hasImage(named:)``), else null, so that `coalesce` falls back to the next
//   image as a map SDK does when an image is missing.
// - `["format", content, options?, ...]` is the sections' text run together (an image section
//   adds none), as `to-string` of a formatted value; the scene measures each section at its
//   `font-scale` (``Expression/formatSections``). `text-font` (an array), `text-color` (a
//   string) and `vertical-align` (`bottom`, `center` or `top`) are checked, then not used.
//
// Anywhere, as upstream has them:
// - `["let", name, value, ..., body]` / `["var", name]`: a `var` stands for its bound expression,
//   which upstream evaluates at each use; here the parser puts that expression in its place.
//   Names are ASCII letters, digits and `_`, as upstream requires.
// - `["slice", input, start, end?]`: part of a string (by code points, as `at` and `length`) or
//   of an array, with JavaScript's `slice` rules for negative and out-of-range indices.
// - `["number-format", input, {locale, currency, min-fraction-digits, max-fraction-digits}]`:
//   the number as `Intl.NumberFormat` writes it (ICU through Foundation, rounding half away from
//   zero, the same defaults: 0 to 3 fraction digits, a currency's own digits). Without a
//   `locale` it is en-US: a headless engine has no device locale, and a fixed one keeps answers
//   the same on every machine. A `unit` option is accepted and not applied (but, as upstream,
//   not together with `currency`).

extension ExpressionParser {
    mutating func parseOperatorBeyondSpec(_ op: String, _ a: [JSONValue], zoom: Bool)
        throws(ExpressionParseError) -> (Node, ExpressionType)
    {
        switch op {
        case "feature-state":
            try requireValuePurpose(op)
            try arity(op, a, 1...1)
            return (.featureState(try node(a, 1, zoom: zoom, .string)), .value)
        case "image":
            try requireValuePurpose(op)
            try arity(op, a, 1...1)
            return (.image(try node(a, 1, zoom: zoom, .string)), .string)
        case "format":
            try requireValuePurpose(op)
            return (.format(try formatSections(a, zoom: zoom)), .string)
        case "var":
            try arity(op, a, 1...1)
            guard case .string(let name) = a[1] else { throw failAt(1, "\"var\" expects a literal variable name") }
            guard let bound = bindings.last(where: { $0.name == name }) else {
                throw failAt(1, "unknown variable \"\(name)\"; bind it with an enclosing \"let\"")
            }
            expandedSize += bound.size
            guard expandedSize <= Self.maximumExpandedSize else {
                throw fail("the expression expands to more than \(Self.maximumExpandedSize) operators through its variables")
            }
            return (bound.node, bound.type)
        case "slice":
            try arity(op, a, 2...3)
            let (input, type) = try child(a, 1, zoom: zoom)
            try requireSequence(type, at: 1)
            let start = try node(a, 2, zoom: zoom, .number)
            let end = a.count == 4 ? try node(a, 3, zoom: zoom, .number) : nil
            return (.slice(input, start, end), type == .array || type == .string ? type : .value)
        case "number-format":
            return (.numberFormat(try numberFormat(a, zoom: zoom)), .string)
        default:
            throw fail("unknown expression operator \"\(op)\"")
        }
    }

    /// The drawing-only operators are parse errors outside paint and layout values.
    func requireValuePurpose(_ op: String) throws(ExpressionParseError) {
        guard purpose == .value else { throw fail("\"\(op)\" is only available in paint and layout values") }
    }

    /// `["let", name, value, ..., body]`: each value parsed with the bindings before it, the body
    /// with all of them and in the let's place (so a top-level let's body may be a zoom curve, as
    /// upstream allows). O(size of the JSON).
    mutating func parseLet(_ a: [JSONValue], zoom: Bool, topLevel: Bool) throws(ExpressionParseError) -> (Node, ExpressionType) {
        guard a.count >= 4, a.count % 2 == 0 else {
            throw fail("\"let\" expects name and value pairs followed by a body, found \(a.count - 1) arguments")
        }
        let outer = bindings.count
        defer { bindings.removeSubrange(outer...) }
        var i = 1
        while i < a.count - 1 {
            guard case .string(let name) = a[i] else { throw failAt(i, "a \"let\" variable name must be a literal string") }
            guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                throw failAt(i, "variable names must contain only letters, digits or '_' (ASCII)")
            }
            // The value is in the tree only where a `var` names it, so it counts there.
            let before = expandedSize
            let (value, type) = try child(a, i + 1, zoom: zoom)
            bindings.append((name, value, type, expandedSize - before))
            expandedSize = before
            i += 2
        }
        return try child(a, a.count - 1, zoom: zoom, topLevel: topLevel)
    }

    /// The operands of `["number-format", input, options]`: a number and an options object whose
    /// members are expressions. O(size of the JSON).
    mutating func numberFormat(_ a: [JSONValue], zoom: Bool) throws(ExpressionParseError) -> NumberFormatOptions {
        try arity("number-format", a, 2...2)
        guard case .object(let options) = a[2] else { throw failAt(2, "\"number-format\" expects an options object") }
        var result = NumberFormatOptions(input: try node(a, 1, zoom: zoom, .number))
        path.append(.index(2))
        defer { path.removeLast() }
        result.locale = try option(options, "locale", .string, zoom: zoom)
        result.currency = try option(options, "currency", .string, zoom: zoom)
        if try option(options, "unit", .string, zoom: zoom) != nil, result.currency != nil {
            throw fail("\"number-format\" takes \"currency\" or \"unit\", not both")
        }
        result.minFractionDigits = try option(options, "min-fraction-digits", .number, zoom: zoom)
        result.maxFractionDigits = try option(options, "max-fraction-digits", .number, zoom: zoom)
        return result
    }

    /// The member `name` of an options object (the current path) parsed as an expression of
    /// `type`, or nil when it is absent or null (upstream skips a null option). O(size of the JSON).
    mutating func option(_ options: JSONObject, _ name: String, _ type: ExpressionType, zoom: Bool)
        throws(ExpressionParseError) -> Node?
    {
        guard let json = options[name], json != .null else { return nil }
        path.append(.key(name))
        defer { path.removeLast() }
        let (node, found) = try parse(json, zoom: zoom)
        guard type.accepts(found) else { throw fail("expected \(type) but found \(found)") }
        return node
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
                path.append(.index(i))
                defer { path.removeLast() }
                scale = try option(options, "font-scale", .number, zoom: zoom)
                // Checked as upstream checks them, though drawing does not use them.
                _ = try option(options, "text-font", .array, zoom: zoom)
                // A colour expression (`rgba`, `to-color`, ...) is beyond this parser: only a
                // literal colour is checked (a string), so that such a style still loads.
                switch options["text-color"] {
                case nil, .null?, .string?, .array?: break
                case let other?:
                    path.append(.key("text-color"))
                    defer { path.removeLast() }
                    throw fail("expected a colour string but found \(ExpressionType.of(other))")
                }
                if case .string(let align)? = options["vertical-align"], !["bottom", "center", "top"].contains(align) {
                    throw fail("\"vertical-align\" must be \"bottom\", \"center\" or \"top\", found \"\(align)\"")
                }
                _ = try option(options, "vertical-align", .string, zoom: zoom)
                i += 1
            }
            sections.append(FormatSection(content: content, scale: scale))
        }
        return sections
    }
}
