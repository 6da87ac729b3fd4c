import Foundation

/// A small exact JSON reader for test fixtures: Foundation's `JSONSerialization` on Linux does not
/// read every double back exactly, and `JSONDecoder` into an untyped value is slow in debug builds.
/// Values: `[String: Any]`, `[Any]`, `Int` (integral numbers without fraction or exponent that
/// fit), `Double` (via `Double(String)`, correctly rounded), `Bool`, `String`, `NSNull`.
struct TestJSONParser {
    private let b: [UInt8]
    private var i = 0

    static func parse(_ bytes: [UInt8]) -> Any? {
        var p = TestJSONParser(b: bytes)
        return p.value()
    }

    private init(b: [UInt8]) { self.b = b }

    private mutating func ws() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
    }

    private mutating func value() -> Any? {
        ws()
        guard i < b.count else { return nil }
        switch b[i] {
        case UInt8(ascii: "{"):
            i += 1
            var o: [String: Any] = [:]
            ws()
            if b[i] == UInt8(ascii: "}") { i += 1; return o }
            while true {
                ws()
                guard let k = string() else { return nil }
                ws(); i += 1  // :
                guard let v = value() else { return nil }
                o[k] = v
                ws()
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                i += 1
                return o
            }
        case UInt8(ascii: "["):
            i += 1
            var a: [Any] = []
            ws()
            if b[i] == UInt8(ascii: "]") { i += 1; return a }
            while true {
                guard let v = value() else { return nil }
                a.append(v)
                ws()
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                i += 1
                return a
            }
        case UInt8(ascii: "\""): return string()
        case UInt8(ascii: "t"): i += 4; return true
        case UInt8(ascii: "f"): i += 5; return false
        case UInt8(ascii: "n"): i += 4; return NSNull()
        default:
            let start = i
            var integral = true
            while i < b.count {
                let c = b[i]
                if (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") { i += 1; continue }
                if c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { integral = false; i += 1; continue }
                break
            }
            let text = String(decoding: b[start..<i], as: UTF8.self)
            if integral, let n = Int(text) { return n }
            return Double(text)
        }
    }

    private mutating func string() -> String? {
        guard b[i] == UInt8(ascii: "\"") else { return nil }
        i += 1
        var bytes: [UInt8] = []
        while i < b.count, b[i] != UInt8(ascii: "\"") {
            if b[i] == UInt8(ascii: "\\") {
                i += 1
                switch b[i] {
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0C)
                case UInt8(ascii: "u"):
                    var code = UInt32(String(decoding: b[(i + 1)...(i + 4)], as: UTF8.self), radix: 16) ?? 0xFFFD
                    i += 4
                    if code >= 0xD800, code < 0xDC00, i + 6 < b.count, b[i + 1] == UInt8(ascii: "\\") {
                        let low = UInt32(String(decoding: b[(i + 3)...(i + 6)], as: UTF8.self), radix: 16) ?? 0
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                    }
                    bytes.append(contentsOf: Array(String(Character(Unicode.Scalar(code) ?? "\u{FFFD}")).utf8))
                default: bytes.append(b[i])
                }
                i += 1
            } else {
                bytes.append(b[i])
                i += 1
            }
        }
        i += 1
        return String(decoding: bytes, as: UTF8.self)
    }
}
