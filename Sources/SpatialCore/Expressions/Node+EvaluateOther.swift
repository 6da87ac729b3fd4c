// Evaluation of the less frequent operators: sequences (`at`, `in`, `index-of`, `length`),
// types (`typeof`, assertions, conversions) and strings. Strings are indexed by Unicode code
// points, as the style spec does (a UTF-16 surrogate pair counts as one character).

extension Node {
    @usableFromInline func evaluateOther<C: ExpressionContext>(_ c: C) -> JSONValue? {
        switch self {
        case .at(let indexNode, let targetNode):
            guard let index = indexNode.number(c), let target = targetNode.evaluate(c) else { return nil }
            guard index == index.rounded(), index >= 0 else { return nil }
            switch target {
            case .array(let items):
                guard index < Double(items.count) else { return nil }
                return items[Int(index)]
            default:
                return nil
            }
        case .contains(let needleNode, let haystackNode):
            guard let needle = needleNode.evaluate(c), let haystack = haystackNode.evaluate(c) else { return nil }
            // As the style spec's `in`: a haystack JavaScript deems false (null, as a missing
            // property reads, "", 0, false) contains nothing; other haystacks that are neither a
            // string nor an array are errors.
            switch haystack {
            case .null, .string(""), .number(0), .bool(false): return .bool(false)
            default: break
            }
            guard let i = Node.indexOf(needle, in: haystack, from: 0) else { return nil }
            return .bool(i >= 0)
        case .indexOf(let needleNode, let haystackNode, let fromNode):
            guard let needle = needleNode.evaluate(c), let haystack = haystackNode.evaluate(c) else { return nil }
            var from = 0.0
            if let fromNode {
                guard let f = fromNode.number(c) else { return nil }
                from = f
            }
            guard let i = Node.indexOf(needle, in: haystack, from: from) else { return nil }
            return .number(Double(i))
        case .length(let target):
            switch target.evaluate(c) {
            case .string(let s)?: return .number(Double(s.unicodeScalars.count))
            case .array(let items)?: return .number(Double(items.count))
            default: return nil
            }
        case .typeOf(let x):
            guard let v = x.evaluate(c) else { return nil }
            return .string(Node.typeName(v))
        case .assertType(let type, let args):
            for arg in args {
                guard let v = arg.evaluate(c) else { return nil }
                if ExpressionType.of(v) == type { return v }
            }
            return nil
        case .assertArray(let item, let length, let args):
            for arg in args {
                guard let v = arg.evaluate(c) else { return nil }
                guard case .array(let items) = v else { continue }
                if let length, items.count != length { continue }
                if item != .value {
                    let expected: ExpressionType = item == .number ? .number : item == .string ? .string : .boolean
                    guard items.allSatisfy({ ExpressionType.of($0) == expected }) else { continue }
                }
                return v
            }
            return nil
        case .toNumber(let args):
            for arg in args {
                guard let v = arg.evaluate(c) else { return nil }
                switch v {
                case .null: return .number(0)
                case .bool(let b): return .number(b ? 1 : 0)
                case .number(let n): if !n.isNaN { return v }
                case .string(let s): if let n = JSONText.parseNumber(s) { return .number(n) }
                case .array, .object: break
                }
            }
            return nil
        case .toString(let x):
            guard let v = x.evaluate(c) else { return nil }
            if case .string = v { return v }
            return .string(JSONText.string(of: v))
        case .toBoolean(let x):
            guard let v = x.evaluate(c) else { return nil }
            switch v {
            case .null: return .bool(false)
            case .bool: return v
            case .number(let n): return .bool(!(n == 0 || n.isNaN))
            case .string(let s): return .bool(!s.isEmpty)
            case .array, .object: return .bool(true)
            }
        case .concat(let args):
            var text = ""
            for arg in args {
                guard let v = arg.evaluate(c) else { return nil }
                text += JSONText.string(of: v)
            }
            return .string(text)
        case .upcase(let x), .downcase(let x):
            guard case .string(let s)? = x.evaluate(c) else { return nil }
            if case .upcase = self { return .string(s.uppercased()) }
            return .string(s.lowercased())
        case .slice(let inputNode, let startNode, let endNode):
            guard let input = inputNode.evaluate(c), let start = startNode.number(c) else { return nil }
            var end: Double?
            if let endNode {
                guard let e = endNode.number(c) else { return nil }
                end = e
            }
            switch input {
            case .array(let items):
                let r = Node.sliceRange(count: items.count, start: start, end: end)
                return .array(Array(items[r]))
            case .string(let s):
                let scalars = Array(s.unicodeScalars)
                let r = Node.sliceRange(count: scalars.count, start: start, end: end)
                var text = String.UnicodeScalarView()
                text.append(contentsOf: scalars[r])
                return .string(String(text))
            default:
                return nil
            }
        case .numberFormat(let options):
            return options.evaluate(c)
        case .featureState(let key):
            guard case .string? = key.evaluate(c) else { return nil }
            return .null
        case .image(let name):
            guard case .string(let s)? = name.evaluate(c) else { return nil }
            return c.hasImage(named: s) ? .string(s) : .null
        case .format(let sections):
            var text = ""
            for section in sections {
                guard let t = section.text(c) else { return nil }
                text += t
            }
            return .string(text)
        default:
            // Every other case is handled by `evaluate`.
            return nil
        }
    }

    /// The positions JavaScript's `slice(start, end)` takes from a sequence of `count` items:
    /// indices truncated toward zero (NaN as 0), negative ones counted from the end, all clamped
    /// to 0 … count; an end before the start gives nothing. O(1).
    static func sliceRange(count: Int, start: Double, end: Double?) -> Range<Int> {
        func position(_ x: Double) -> Int {
            let t = x.isNaN ? 0 : x.rounded(.towardZero)
            let p = t < 0 ? Swift.max(Double(count) + t, 0) : Swift.min(t, Double(count))
            return Int(p)
        }
        let from = position(start)
        let to = end.map(position) ?? count
        return from..<Swift.max(from, to)
    }

    /// `in` / `index-of`: the position of `needle` in a string (code points; the needle as
    /// JavaScript's `String()` writes it) or an array (strict equality), or −1; `nil` when the
    /// needle is not a boolean, string, number or null, or the haystack not a string or array.
    static func indexOf(_ needle: JSONValue, in haystack: JSONValue, from: Double) -> Int? {
        switch needle {
        case .array, .object: return nil
        default: break
        }
        switch haystack {
        case .array(let items):
            var start = from.isNaN ? 0 : from.rounded(.towardZero)
            if start < 0 { start = Swift.max(0, Double(items.count) + start) }
            guard start < Double(items.count) else { return -1 }
            for i in Int(start)..<items.count where strictlyEqual(items[i], needle) { return i }
            return -1
        case .string(let s):
            let text = Array(s.unicodeScalars)
            let pattern: [Unicode.Scalar]
            switch needle {
            case .null: pattern = Array("null".unicodeScalars)
            default: pattern = Array(JSONText.string(of: needle).unicodeScalars)
            }
            var start = from.isNaN ? 0 : from.rounded(.towardZero)
            start = Swift.min(Swift.max(start, 0), Double(text.count))
            let first = Int(start)
            if pattern.isEmpty { return first }
            guard text.count >= pattern.count else { return -1 }
            var i = first
            while i + pattern.count <= text.count {
                if text[i..<(i + pattern.count)].elementsEqual(pattern) { return i }
                i += 1
            }
            return -1
        default:
            return nil
        }
    }

    /// The `typeof` name of a value, as the style spec writes it (`array<number, 2>`). O(size).
    static func typeName(_ v: JSONValue) -> String {
        switch v {
        case .array(let items):
            var item: String? = nil
            for element in items {
                let t: String
                switch element {
                case .array: t = "value"  // nested array types never coincide
                default: t = typeName(element)
                }
                if item == nil {
                    item = items.count == 1 ? typeName(element) : t
                } else if item != t {
                    item = "value"
                    break
                }
            }
            return "array<\(item ?? "value"), \(items.count)>"
        default:
            return ExpressionType.of(v).description
        }
    }
}

extension FormatSection {
    /// The section's text: its content as `to-string` writes it, "" for an image section; `nil`
    /// for an evaluation error (which fails the whole `format`). O(content).
    func text<C: ExpressionContext>(_ c: C) -> String? {
        guard let v = content.evaluate(c) else { return nil }
        if case .image = content { return "" }
        return JSONText.string(of: v)
    }
}
