/// Text forms used by `to-string`, `concat` and error messages: numbers as JavaScript prints them
/// and values as compact JSON (`JSON.stringify`).
enum JSONText {
    /// A number as JavaScript's `Number.prototype.toString()` writes it: the shortest digits that
    /// read back to the same double, integers without ".0", exponent form below 1e-6 and from 1e21.
    /// O(1) (at most ~25 characters).
    static func number(_ x: Double) -> String {
        if x.isNaN { return "NaN" }
        if x.isInfinite { return x < 0 ? "-Infinity" : "Infinity" }
        var out = JSONOutput(negativeZeroAsZero: true)
        out.write(x)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// A value as compact JSON, as `JSON.stringify` writes it (non-finite numbers as null, −0 as 0).
    /// O(size of the value).
    static func json(_ value: JSONValue) -> String {
        var out = JSONOutput(negativeZeroAsZero: true)
        out.write(value)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// `to-string` of a value: null → "", booleans and numbers as JavaScript, strings unchanged,
    /// arrays and objects as JSON. O(size of the value).
    static func string(of value: JSONValue) -> String {
        switch value {
        case .null: ""
        case .bool(let b): b ? "true" : "false"
        case .number(let n): number(n)
        case .string(let s): s
        case .array, .object: json(value)
        }
    }

    /// `to-number` of a string: a whole decimal number with optional surrounding white space,
    /// else `nil`. O(length).
    static func parseNumber(_ s: String) -> Double? {
        let whitespace: Set<Unicode.Scalar> = [" ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{A0}", "\u{FEFF}", "\u{2028}", "\u{2029}"]
        var scalars = Substring(s).unicodeScalars[...]
        while let f = scalars.first, whitespace.contains(f) || f.properties.generalCategory == .spaceSeparator { scalars.removeFirst() }
        while let l = scalars.last, whitespace.contains(l) || l.properties.generalCategory == .spaceSeparator { scalars.removeLast() }
        let body = Array(String(String.UnicodeScalarView(scalars)).utf8)
        // Grammar: [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?
        var i = 0
        func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
        if i < body.count && (body[i] == UInt8(ascii: "+") || body[i] == UInt8(ascii: "-")) { i += 1 }
        var mantissaDigits = 0
        while i < body.count && isDigit(body[i]) { i += 1; mantissaDigits += 1 }
        if i < body.count && body[i] == UInt8(ascii: ".") {
            i += 1
            while i < body.count && isDigit(body[i]) { i += 1; mantissaDigits += 1 }
        }
        guard mantissaDigits > 0 else { return nil }
        if i < body.count && (body[i] == UInt8(ascii: "e") || body[i] == UInt8(ascii: "E")) {
            i += 1
            if i < body.count && (body[i] == UInt8(ascii: "+") || body[i] == UInt8(ascii: "-")) { i += 1 }
            var expDigits = 0
            while i < body.count && isDigit(body[i]) { i += 1; expDigits += 1 }
            guard expDigits > 0 else { return nil }
        }
        guard i == body.count else { return nil }
        return Double(String(decoding: body, as: UTF8.self))
    }
}
