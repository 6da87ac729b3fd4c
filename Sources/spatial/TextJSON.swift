import SpatialCore

/// A failure reading JSON text: what went wrong and the line and column where.
struct TextJSONError: Error, CustomStringConvertible {
    var line: Int
    var column: Int
    var reason: String
    var description: String { "invalid JSON at line \(line), column \(column): \(reason)" }
}

/// A small recursive-descent JSON reader into ``JSONValue`` for the command-line tool.
///
/// The tool reads whole documents with it; the library's fast GeoJSON reader replaces it once it
/// lands on main. Depth is limited so that hostile input cannot exhaust the stack.
struct TextJSONReader {
    private let bytes: [UInt8]
    private var i = 0
    private var depth = 0
    private static let maximumDepth = 512

    /// Parses one JSON document (surrounding whitespace allowed). O(n).
    static func parse(_ bytes: [UInt8]) throws(TextJSONError) -> JSONValue {
        var r = TextJSONReader(bytes: bytes)
        // Skip a UTF-8 byte-order mark.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { r.i = 3 }
        r.skipSpace()
        let v = try r.value()
        r.skipSpace()
        guard r.i == bytes.count else { throw r.fail("unexpected text after the document") }
        return v
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func fail(_ reason: String) -> TextJSONError {
        var line = 1
        var column = 1
        for b in bytes[..<min(i, bytes.count)] {
            if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
        }
        return TextJSONError(line: line, column: column, reason: reason)
    }

    private mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    private mutating func value() throws(TextJSONError) -> JSONValue {
        guard i < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return .object(try object())
        case UInt8(ascii: "["): return .array(try array())
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw fail("unexpected character '\(Character(Unicode.Scalar(bytes[i])))'")
        }
    }

    private mutating func literal(_ word: String) throws(TextJSONError) {
        let w = Array(word.utf8)
        let n = w.count
        guard i + n <= bytes.count, bytes[i ..< i + n].elementsEqual(w) else { throw fail("invalid literal") }
        i += n
    }

    private mutating func enter() throws(TextJSONError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw fail("nesting deeper than \(Self.maximumDepth)") }
    }

    private mutating func object() throws(TextJSONError) -> JSONObject {
        try enter()
        defer { depth -= 1 }
        i += 1
        var o = JSONObject()
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return o }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
            let key = try string()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            i += 1
            skipSpace()
            o[key] = try value()
            skipSpace()
            guard i < bytes.count else { throw fail("unexpected end of input in an object") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return o }
            throw fail("expected ',' or '}'")
        }
    }

    private mutating func array() throws(TextJSONError) -> [JSONValue] {
        try enter()
        defer { depth -= 1 }
        i += 1
        var a: [JSONValue] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return a }
        while true {
            skipSpace()
            a.append(try value())
            skipSpace()
            guard i < bytes.count else { throw fail("unexpected end of input in an array") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return a }
            throw fail("expected ',' or ']'")
        }
    }

    private mutating func number() throws(TextJSONError) -> Double {
        let start = i
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        func digits(_ i: inout Int, _ bytes: [UInt8]) -> Int {
            let s = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            return i - s
        }
        let intStart = i
        guard digits(&i, bytes) > 0 else { throw fail("invalid number") }
        if bytes[intStart] == 0x30, i - intStart > 1 { throw fail("invalid number (leading zero)") }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits(&i, bytes) > 0 else { throw fail("invalid number (no digits after '.')") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits(&i, bytes) > 0 else { throw fail("invalid number (no exponent digits)") }
        }
        let text = String(decoding: bytes[start ..< i], as: UTF8.self)
        guard let d = Double(text) else { throw fail("invalid number") }
        return d
    }

    private mutating func hex4() throws(TextJSONError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0 ..< 4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw fail("invalid \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    private mutating func string() throws(TextJSONError) -> String {
        i += 1
        var out: [UInt8] = []
        var runStart = i
        while true {
            guard i < bytes.count else { throw fail("unterminated string") }
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                out.append(contentsOf: bytes[runStart ..< i])
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            if c < 0x20 { throw fail("control character in a string") }
            if c != UInt8(ascii: "\\") { i += 1; continue }
            out.append(contentsOf: bytes[runStart ..< i])
            i += 1
            guard i < bytes.count else { throw fail("unterminated string") }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if scalar >= 0xD800, scalar < 0xDC00, i + 1 < bytes.count, bytes[i] == 0x5C, bytes[i + 1] == UInt8(ascii: "u") {
                    let save = i
                    i += 2
                    let low = try hex4()
                    if low >= 0xDC00, low < 0xE000 {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        i = save
                    }
                }
                let u = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default: throw fail("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
            }
            runStart = i
        }
    }
}

/// Writes ``JSONValue``s as compact JSON text (numbers as JavaScript prints them where it matters:
/// integers without a fraction, non-finite numbers as `null`).
struct TextJSONWriter {
    private(set) var text = ""

    mutating func write(_ v: JSONValue) {
        switch v {
        case .null: text += "null"
        case .bool(let b): text += b ? "true" : "false"
        case .number(let d): writeNumber(d)
        case .string(let s): writeString(s)
        case .array(let a):
            text += "["
            for (k, e) in a.enumerated() {
                if k > 0 { text += "," }
                write(e)
            }
            text += "]"
        case .object(let o): write(o)
        }
    }

    mutating func write(_ o: JSONObject) {
        text += "{"
        for (k, (key, value)) in o.members.enumerated() {
            if k > 0 { text += "," }
            writeString(key)
            text += ":"
            write(value)
        }
        text += "}"
    }

    mutating func writeNumber(_ d: Double) {
        guard d.isFinite else { text += "null"; return }
        if d == d.rounded(), abs(d) < 1e15 {
            text += String(Int64(d))
        } else {
            text += "\(d)"
        }
    }

    mutating func writeString(_ s: String) {
        text += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where u.value < 0x20:
                let h = String(u.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - h.count) + h
            default: text.unicodeScalars.append(u)
            }
        }
        text += "\""
    }

    /// One value as text. O(size).
    static func string(_ v: JSONValue) -> String {
        var w = TextJSONWriter()
        w.write(v)
        return w.text
    }
}
