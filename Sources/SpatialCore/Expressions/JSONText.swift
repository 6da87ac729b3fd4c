/// Text forms used by `to-string`, `concat` and error messages: numbers as JavaScript prints them
/// and values as compact JSON (`JSON.stringify`).
enum JSONText {
    /// A number as JavaScript's `Number.prototype.toString()` writes it: the shortest digits that
    /// read back to the same double, integers without ".0", exponent form below 1e-6 and from 1e21.
    /// O(1) (at most ~25 characters).
    static func number(_ x: Double) -> String {
        if x.isNaN { return "NaN" }
        if x.isInfinite { return x < 0 ? "-Infinity" : "Infinity" }
        if x == 0 { return "0" }
        // Swift's description gives the shortest round-trip digits; re-lay them out as JavaScript.
        let text = Swift.abs(x).description
        var digits: [UInt8] = []
        var pointPosition: Int? = nil
        var exponent = 0
        var seenE = false
        var expText = ""
        for byte in text.utf8 {
            if seenE {
                expText.append(Character(UnicodeScalar(byte)))
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                seenE = true
            } else if byte == UInt8(ascii: ".") {
                pointPosition = digits.count
            } else {
                digits.append(byte)
            }
        }
        if seenE { exponent = Int(expText) ?? 0 }
        // value = 0.d1d2…dk × 10^n
        var n = (pointPosition ?? digits.count) + exponent
        // Strip leading zeros (each moves the point left) and trailing zeros.
        var start = 0
        while start < digits.count - 1 && digits[start] == UInt8(ascii: "0") {
            start += 1
            n -= 1
        }
        var end = digits.count
        while end > start + 1 && digits[end - 1] == UInt8(ascii: "0") { end -= 1 }
        let d = Array(digits[start..<end])
        let k = d.count
        var out = x < 0 ? "-" : ""
        func append(_ bytes: ArraySlice<UInt8>) { out += String(decoding: bytes, as: UTF8.self) }
        if k <= n && n <= 21 {
            append(d[...])
            out += String(repeating: "0", count: n - k)
        } else if 0 < n && n <= 21 {
            append(d[0..<n])
            out += "."
            append(d[n...])
        } else if -6 < n && n <= 0 {
            out += "0." + String(repeating: "0", count: -n)
            append(d[...])
        } else {
            let e = n - 1
            append(d[0..<1])
            if k > 1 {
                out += "."
                append(d[1...])
            }
            out += e < 0 ? "e-\(-e)" : "e+\(e)"
        }
        return out
    }

    /// A string as a JSON string literal. O(length).
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// A value as compact JSON, as `JSON.stringify` writes it (non-finite numbers as null).
    /// O(size of the value).
    static func json(_ value: JSONValue) -> String {
        var out = ""
        write(value, into: &out)
        return out
    }

    static func write(_ value: JSONValue, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n.isFinite ? number(n) : "null"
        case .string(let s): out += quoted(s)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                write(item, into: &out)
            }
            out += "]"
        case .object(let object):
            out += "{"
            for (i, (k, v)) in object.members.enumerated() {
                if i > 0 { out += "," }
                out += quoted(k)
                out += ":"
                write(v, into: &out)
            }
            out += "}"
        }
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
