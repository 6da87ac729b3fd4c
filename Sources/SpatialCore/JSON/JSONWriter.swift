/// Writing JSON: compact text that ``JSONValue/init(parsing:maxDepth:)`` reads back to an equal
/// value, numbers bit for bit.
///
/// - Numbers are written as JavaScript's `Number.prototype.toString` writes them: the shortest
///   digits that read back to the same `Double`, integers without `.0` (`1e21` and beyond, and
///   below `1e-6`, in exponent form: `1e+21`, `1.5e-7`). Negative zero is written `-0` (so that
///   it reads back as negative zero; `JSON.stringify` writes `0`). NaN and ±infinity, which JSON
///   cannot express, are written `null`, as `JSON.stringify` does.
/// - Strings escape `"`, `\` and the control characters below U+0020 (`\n`, `\t`, … or `\u00XX`);
///   everything else, `/` and non-ASCII text included, is written as UTF-8.
/// - Object members keep their order.
struct JSONOutput {
    var bytes: [UInt8] = []
    /// Write negative zero as `0`, as `JSON.stringify` and `Number.prototype.toString` do (for
    /// text meant for people or for expression results rather than for reading back).
    var negativeZeroAsZero = false

    /// Appends ASCII text.
    @inline(__always) mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @inline(__always) mutating func append(_ byte: UInt8) {
        bytes.append(byte)
    }

    mutating func write(_ value: JSONValue) {
        switch value {
        case .null: append("null")
        case .bool(let b): b ? append("true") : append("false")
        case .number(let n): write(n)
        case .string(let s): write(s)
        case .array(let elements):
            append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { append(UInt8(ascii: ",")) }
                write(element)
            }
            append(UInt8(ascii: "]"))
        case .object(let object): write(object)
        }
    }

    mutating func write(_ object: JSONObject) {
        append(UInt8(ascii: "{"))
        for i in 0..<object.count {
            if i > 0 { append(UInt8(ascii: ",")) }
            write(object.keys[i])
            append(UInt8(ascii: ":"))
            write(object.values[i])
        }
        append(UInt8(ascii: "}"))
    }

    /// Writes a number in JavaScript's shortest form (see the type's notes).
    mutating func write(_ number: Double) {
        guard number.isFinite else {
            append("null")
            return
        }
        if number == 0 {
            number.sign == .minus && !negativeZeroAsZero ? append("-0") : append("0")
            return
        }
        // Integers below 2^53 in magnitude: their exact digits are the shortest ones.
        if number == number.rounded(.towardZero) && number.magnitude < 9_007_199_254_740_992 {
            writeInteger(Int64(number))
            return
        }
        writeShortest(number)
    }

    private mutating func writeInteger(_ value: Int64) {
        var v = value.magnitude
        if value < 0 { append(UInt8(ascii: "-")) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var i = 20
            repeat {
                i -= 1
                buffer[i] = UInt8(truncatingIfNeeded: v % 10) &+ 48
                v /= 10
            } while v > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[i...]))
        }
    }

    /// Takes the shortest round-trip digits from Swift's `description` and lays them out as
    /// JavaScript does.
    private mutating func writeShortest(_ number: Double) {
        var text = number.magnitude.description
        text.withUTF8 { utf8 in
            // description is `d.ddd`, `d.ddde±x` or `de±x`: gather the digits and the exponent n
            // of the value 0.d₁d₂… × 10ⁿ.
            var digits: [UInt8] = []
            digits.reserveCapacity(20)
            var pointAt = -1
            var exponent = 0
            var i = 0
            while i < utf8.count {
                let c = utf8[i]
                if c == UInt8(ascii: ".") {
                    pointAt = digits.count
                } else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                    var j = i + 1
                    var negative = false
                    if utf8[j] == UInt8(ascii: "-") || utf8[j] == UInt8(ascii: "+") {
                        negative = utf8[j] == UInt8(ascii: "-")
                        j += 1
                    }
                    while j < utf8.count {
                        exponent = exponent * 10 + Int(utf8[j] &- 48)
                        j += 1
                    }
                    if negative { exponent = -exponent }
                    break
                } else {
                    digits.append(c)
                }
                i += 1
            }
            var n = (pointAt < 0 ? digits.count : pointAt) + exponent
            var first = 0
            while first < digits.count - 1 && digits[first] == UInt8(ascii: "0") {
                first += 1
                n -= 1
            }
            var last = digits.count
            while last > first + 1 && digits[last - 1] == UInt8(ascii: "0") { last -= 1 }
            let d = digits[first..<last]
            let k = d.count
            if number < 0 { append(UInt8(ascii: "-")) }
            if k <= n && n <= 21 {
                bytes.append(contentsOf: d)
                for _ in 0..<(n - k) { append(UInt8(ascii: "0")) }
            } else if 0 < n && n <= 21 {
                bytes.append(contentsOf: d.prefix(n))
                append(UInt8(ascii: "."))
                bytes.append(contentsOf: d.dropFirst(n))
            } else if -6 < n && n <= 0 {
                append("0.")
                for _ in 0..<(-n) { append(UInt8(ascii: "0")) }
                bytes.append(contentsOf: d)
            } else {
                append(d.first!)
                if k > 1 {
                    append(UInt8(ascii: "."))
                    bytes.append(contentsOf: d.dropFirst())
                }
                append(UInt8(ascii: "e"))
                append(n - 1 < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
                writeInteger(Int64((n - 1).magnitude))
            }
        }
    }

    /// Writes a string literal with the escapes JSON needs.
    mutating func write(_ string: String) {
        append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for i in 0..<utf8.count {
                let c = utf8[i]
                guard c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
                runStart = i + 1
                append(UInt8(ascii: "\\"))
                switch c {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): append(c)
                case 0x0A: append(UInt8(ascii: "n"))
                case 0x0D: append(UInt8(ascii: "r"))
                case 0x09: append(UInt8(ascii: "t"))
                case 0x08: append(UInt8(ascii: "b"))
                case 0x0C: append(UInt8(ascii: "f"))
                default:
                    append("u00")
                    let hex: StaticString = "0123456789abcdef"
                    append(hex.utf8Start[Int(c >> 4)])
                    append(hex.utf8Start[Int(c & 0xF)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        append(UInt8(ascii: "\""))
    }
}

extension JSONValue {
    /// The value as compact JSON text (shortest numbers, integers
    /// without `.0`, `-0` kept, NaN/infinity as `null`). O(size).
    public func jsonString() -> String {
        String(decoding: jsonBytes(), as: UTF8.self)
    }

    /// The value as compact JSON text in UTF-8. O(size).
    public func jsonBytes() -> [UInt8] {
        var out = JSONOutput()
        out.write(self)
        return out.bytes
    }
}

extension JSONObject {
    /// The object as compact JSON text, members in order. O(size).
    public func jsonString() -> String {
        var out = JSONOutput()
        out.write(self)
        return String(decoding: out.bytes, as: UTF8.self)
    }
}
