/// A cursor over UTF-8 JSON text: the shared core of the JSON and GeoJSON readers.
///
/// It reads straight from the caller's bytes through an unsafe pointer; every read is checked
/// against `end` (``byte(at:)`` yields 0 past the end, and 0 is never valid where a token is
/// expected), so no byte outside the input is ever touched. Errors are ``ReadFailure`` values with
/// a byte offset; the public entry points turn them into ``JSONParseError`` / ``GeoJSONError`` with
/// line and column.
struct JSONScanner {
    /// The first byte of the input.
    let base: UnsafePointer<UInt8>
    /// The number of bytes in the input (or the end of the record being read, for
    /// newline-delimited input).
    var end: Int
    /// The offset of the next byte to read.
    var pos: Int
    /// How many arrays and objects are open.
    var depth = 0
    /// The most arrays and objects that may be open at once.
    let maxDepth: Int

    /// Member names met by ``parseValue()``, each made a `String` once.
    var keys = KeyTable()
    /// The shapes of the objects met by ``parseValue()``, and the predictions for the next
    /// object: the last shape seen as the value of each member name (by name number), and the
    /// last one seen as an array element (or the whole value) at each depth.
    var shapes = ShapeTable()
    var shapeUnderName: [ObjectShape] = []
    var shapeAtDepth: [ObjectShape] = []
    /// The work stacks of the iterative value builder and skipper, kept for reuse.
    var frames: [ContainerFrame] = []
    let valueStack = ValueStack()
    var keyStack: [Int32] = []
    var skipStack: [Bool] = []
    /// Where the unescaped bytes of a string with escapes are assembled (made on first use).
    var scratch: ByteScratch?
    /// Recently built short strings, so that a repeated value is built once (only for inputs
    /// large enough to repay the cache's setup).
    let recentStrings: StringCache?

    /// A scanner over `bytes` (which must stay valid while it is used), after a UTF-8 byte-order
    /// mark if there is one.
    init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        // An empty buffer may have no address; point at a static zero byte instead (never read,
        // since `end` is 0).
        base = bytes.baseAddress ?? JSONScanner.emptyInput
        end = bytes.count
        pos = 0
        self.maxDepth = min(max(1, maxDepth), JSONReader.maximumDepth)
        recentStrings = end >= 65536 ? StringCache() : nil
        if end >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { pos = 3 }
    }

    private nonisolated(unsafe) static let emptyInput: UnsafePointer<UInt8> = {
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        p.initialize(to: 0)
        return UnsafePointer(p)
    }()

    // MARK: Bytes

    /// The byte at `i`, or 0 at or past the end. O(1).
    @inline(__always) func byte(at i: Int) -> UInt8 {
        i < end ? base[i] : 0
    }

    /// The failure for an unexpected byte at `offset`: `.truncated` at the end of the input.
    @inline(__always) func failure(_ kind: JSONParseError.Kind, at offset: Int) -> ReadFailure {
        ReadFailure(offset >= end ? .truncated : kind, at: min(offset, end))
    }

    /// Skips JSON white space and returns the next byte (0 at the end), leaving `pos` on it.
    @inline(__always) mutating func skipWhitespace() -> UInt8 {
        var p = pos
        while p < end {
            let b = base[p]
            if b > 0x20 || (b != 0x20 && b != 0x0A && b != 0x0D && b != 0x09) {
                pos = p
                return b
            }
            p += 1
        }
        pos = end
        return 0
    }

    /// Fails unless only white space is left.
    mutating func expectEnd() throws(ReadFailure) {
        _ = skipWhitespace()
        if pos < end { throw ReadFailure(.trailingCharacters, at: pos) }
    }

    /// Opens an array or object at `pos` (checking the depth limit) and steps over its bracket.
    @inline(__always) mutating func enterContainer() throws(ReadFailure) {
        if depth >= maxDepth { throw ReadFailure(.tooDeep, at: pos) }
        depth += 1
        pos += 1
    }

    /// Reads `true`, `false` or `null` at `pos` (whose first byte the caller has seen).
    mutating func parseLiteral() throws(ReadFailure) -> JSONValue {
        let b = base[pos]
        let word: StaticString = b == UInt8(ascii: "t") ? "true" : b == UInt8(ascii: "f") ? "false" : "null"
        try expectWord(word, else: .invalidLiteral)
        return b == UInt8(ascii: "t") ? .bool(true) : b == UInt8(ascii: "f") ? .bool(false) : .null
    }

    /// Steps over `word` at `pos`, or fails with `kind` at the first byte that differs.
    mutating func expectWord(_ word: StaticString, else kind: JSONParseError.Kind) throws(ReadFailure) {
        let n = word.utf8CodeUnitCount
        let w = word.utf8Start
        for i in 0..<n where byte(at: pos + i) != w[i] {
            throw failure(kind, at: pos + i)
        }
        pos += n
    }

    // MARK: Strings

    /// The offset of the first byte at or after `from` that is a quote, a backslash, a control
    /// character or not ASCII (or `end`). Eight bytes at a time.
    @inline(__always) func nextSpecialByte(from: Int) -> Int {
        var p = from
        let raw = UnsafeRawPointer(base)
        while p + 8 <= end {
            let flags = JSONScanner.specialBytes(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: p, as: UInt64.self)))
            if flags != 0 { return p + flags.trailingZeroBitCount >> 3 }
            p += 8
        }
        while p < end {
            let b = base[p]
            if b == 0x22 || b == 0x5C || b < 0x20 || b >= 0x80 { return p }
            p += 1
        }
        return end
    }

    /// The top bit of each byte of `x` (little-endian) that is a quote, a backslash, a control
    /// character or not ASCII; the lowest flagged byte is exact (borrows only run upwards).
    @inline(__always) static func specialBytes(_ x: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let q = x ^ (ones &* 0x22)  // zero where '"'
        let s = x ^ (ones &* 0x5C)  // zero where '\'
        return ((q &- ones) & ~q | (s &- ones) & ~s | (x &- ones &* 0x20) & ~x | x) & (ones &* 0x80)
    }

    /// Checks the UTF-8 sequence that starts with the non-ASCII byte at `p`; returns the offset
    /// after it. Rejects overlong forms, surrogates and values beyond U+10FFFF.
    @inline(__always) func endOfUTF8Sequence(at p: Int) throws(ReadFailure) -> Int {
        let b0 = base[p]
        let length: Int
        var lo: UInt8 = 0x80
        var hi: UInt8 = 0xBF
        switch b0 {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lo = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; hi = 0x9F
        case 0xF0: length = 4; lo = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; hi = 0x8F
        default: throw ReadFailure(.invalidUTF8, at: p)
        }
        if p + length > end { throw ReadFailure(.truncated, at: end) }
        let b1 = base[p + 1]
        if b1 < lo || b1 > hi { throw ReadFailure(.invalidUTF8, at: p) }
        for i in 2..<length where base[p + i] & 0xC0 != 0x80 {
            throw ReadFailure(.invalidUTF8, at: p)
        }
        return p + length
    }

    /// Checks the escape sequence at `p` (a backslash); returns the offset after it.
    func endOfEscape(at p: Int) throws(ReadFailure) -> Int {
        let e = byte(at: p + 1)
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
            UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return p + 2
        case UInt8(ascii: "u"):
            let unit = try hexQuad(at: p + 2)
            if unit & 0xFC00 == 0xDC00 { throw ReadFailure(.loneSurrogate, at: p) }
            if unit & 0xFC00 != 0xD800 { return p + 6 }
            // A high surrogate: the low one must follow at once.
            if p + 6 >= end || (base[p + 6] == UInt8(ascii: "\\") && p + 7 >= end) {
                throw ReadFailure(.truncated, at: end)
            }
            guard base[p + 6] == UInt8(ascii: "\\"), base[p + 7] == UInt8(ascii: "u") else {
                throw ReadFailure(.loneSurrogate, at: p)
            }
            let low = try hexQuad(at: p + 8)
            if low & 0xFC00 != 0xDC00 { throw ReadFailure(.loneSurrogate, at: p) }
            return p + 12
        default:
            throw failure(.invalidEscape, at: p + 1)
        }
    }

    /// The four hexadecimal digits at `p` as a number.
    @inline(__always) func hexQuad(at p: Int) throws(ReadFailure) -> UInt32 {
        var v: UInt32 = 0
        for i in 0..<4 {
            let b = byte(at: p + i)
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b &- 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b &- 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b &- 55)
            default: throw failure(.invalidUnicodeEscape, at: p + i)
            }
            v = v << 4 | d
        }
        return v
    }

    /// Checks the string whose body starts at `from` (after the opening quote, or anywhere inside
    /// the body) and returns the offset of its closing quote. Validates escapes and UTF-8.
    mutating func endOfString(from: Int) throws(ReadFailure) -> Int {
        var p = from
        while true {
            p = nextSpecialByte(from: p)
            guard p < end else { throw ReadFailure(.truncated, at: end) }
            let b = base[p]
            if b == 0x22 { return p }
            if b == 0x5C {
                p = try endOfEscape(at: p)
            } else if b < 0x20 {
                throw ReadFailure(.controlCharacterInString, at: p)
            } else {
                p = try endOfUTF8Sequence(at: p)
            }
        }
    }

    /// A string's raw body: where it starts and ends in the input, and whether it holds escapes.
    struct RawString {
        var start: Int
        var end: Int
        var hasEscapes: Bool
    }

    /// Reads the string at `pos` (on its opening quote) without building it; `pos` ends after the
    /// closing quote.
    @inline(__always) mutating func scanString() throws(ReadFailure) -> RawString {
        let start = pos + 1
        var p = start
        while true {
            p = nextSpecialByte(from: p)
            guard p < end else { throw ReadFailure(.truncated, at: end) }
            let b = base[p]
            if b == 0x22 {
                pos = p + 1
                return RawString(start: start, end: p, hasEscapes: false)
            }
            if b == 0x5C {
                let close = try endOfString(from: p)
                pos = close + 1
                return RawString(start: start, end: close, hasEscapes: true)
            }
            if b < 0x20 { throw ReadFailure(.controlCharacterInString, at: p) }
            p = try endOfUTF8Sequence(at: p)
        }
    }

    /// Reads the string at `pos` (on its opening quote); `pos` ends after the closing quote.
    @inline(__always) mutating func parseString() throws(ReadFailure) -> String {
        let start = pos + 1
        var p = start
        while true {
            p = nextSpecialByte(from: p)
            guard p < end else { throw ReadFailure(.truncated, at: end) }
            let b = base[p]
            if b == 0x22 {
                pos = p + 1
                let bytes = UnsafeBufferPointer(start: base + start, count: p - start)
                return recentStrings?.string(bytes) ?? String(decoding: bytes, as: UTF8.self)
            }
            if b == 0x5C { return try parseEscapedString(from: start, escape: p) }
            if b < 0x20 { throw ReadFailure(.controlCharacterInString, at: p) }
            p = try endOfUTF8Sequence(at: p)
        }
    }

    /// Reads the rest of a string whose body starts at `start` and that has an escape at `escape`,
    /// checking and unescaping in one pass into `scratch`; `pos` ends after the closing quote.
    private mutating func parseEscapedString(from start: Int, escape: Int) throws(ReadFailure) -> String {
        if scratch == nil { scratch = ByteScratch() }
        let scratch = self.scratch!
        var n = escape - start
        var out = scratch.reserve(n + 32)
        out.update(from: base + start, count: n)
        var p = escape
        while true {
            // `p` is on a special byte: a quote, a backslash, a control character or non-ASCII.
            let b = base[p]
            if b == 0x5C {
                let e = byte(at: p + 1)
                var decoded: UInt8 = e
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): break
                case UInt8(ascii: "b"): decoded = 0x08
                case UInt8(ascii: "f"): decoded = 0x0C
                case UInt8(ascii: "n"): decoded = 0x0A
                case UInt8(ascii: "r"): decoded = 0x0D
                case UInt8(ascii: "t"): decoded = 0x09
                default:
                    let next = try endOfEscape(at: p)  // \u escapes (and failures)
                    n += JSONScanner.unescape(RawString(start: p, end: next, hasEscapes: true), in: base, into: out + n)
                    p = next
                    decoded = 0
                }
                if decoded != 0 {
                    out[n] = decoded
                    n += 1
                    p += 2
                }
            } else if b == 0x22 {
                pos = p + 1
                return String(decoding: UnsafeBufferPointer(start: out, count: n), as: UTF8.self)
            } else if b < 0x20 {
                throw ReadFailure(.controlCharacterInString, at: p)
            } else {
                let next = try endOfUTF8Sequence(at: p)
                while p < next {
                    out[n] = base[p]
                    n += 1
                    p += 1
                }
            }
            // Copy plain bytes up to the next special one, sixteen at a time (two words, each
            // stored whole before its flags are looked at). 32 bytes stay spare beyond `n`, so
            // after a stop at most 15 bytes in, the next escape or UTF-8 sequence (4 bytes at
            // most) and the tail (15 at most) still fit.
            if n + 32 > scratch.capacity { out = scratch.reserve(n + 32, keeping: n) }
            var room = scratch.capacity - 32
            let raw = UnsafeRawPointer(base)
            while p + 16 <= end {
                let x0 = raw.loadUnaligned(fromByteOffset: p, as: UInt64.self)
                let x1 = raw.loadUnaligned(fromByteOffset: p + 8, as: UInt64.self)
                let target = UnsafeMutableRawPointer(out + n)
                target.storeBytes(of: x0, as: UInt64.self)
                target.storeBytes(of: x1, toByteOffset: 8, as: UInt64.self)
                let f0 = JSONScanner.specialBytes(UInt64(littleEndian: x0))
                let f1 = JSONScanner.specialBytes(UInt64(littleEndian: x1))
                if f0 | f1 != 0 {
                    let k = f0 != 0 ? f0.trailingZeroBitCount >> 3 : 8 + f1.trailingZeroBitCount >> 3
                    n += k
                    p += k
                    break
                }
                n += 16
                p += 16
                if n > room {
                    out = scratch.reserve(n + 32, keeping: n)
                    room = scratch.capacity - 32
                }
            }
            if p + 16 > end {
                while p < end {
                    let c = base[p]
                    if c == 0x22 || c == 0x5C || c < 0x20 || c >= 0x80 { break }
                    out[n] = c
                    n += 1
                    p += 1
                }
                guard p < end else { throw ReadFailure(.truncated, at: end) }
            }
        }
    }

    /// The text of a checked raw string.
    @inline(__always) func makeString(_ raw: RawString) -> String {
        let base = self.base  // the closure below must not capture (copy) the scanner
        if !raw.hasEscapes {
            return String(decoding: UnsafeBufferPointer(start: base + raw.start, count: raw.end - raw.start), as: UTF8.self)
        }
        // The unescaped text is never longer than the escaped one.
        return String(unsafeUninitializedCapacity: raw.end - raw.start) { out in
            JSONScanner.unescape(raw, in: base, into: out.baseAddress!)
        }
    }

    /// Writes the unescaped UTF-8 of a checked raw string of the input at `base` to `out` and
    /// returns its length.
    static func unescape(_ raw: RawString, in base: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        /// The four (checked) hexadecimal digits at `p`.
        func hex(_ p: Int) -> UInt32 {
            var v: UInt32 = 0
            for i in 0..<4 {
                let b = UInt32(base[p + i])
                v = v << 4 | (b <= 0x39 ? b &- 0x30 : (b | 0x20) &- 0x57)
            }
            return v
        }
        var p = raw.start
        var n = 0
        while p < raw.end {
            let b = base[p]
            if b != 0x5C {
                out[n] = b
                n += 1
                p += 1
                continue
            }
            let e = base[p + 1]
            p += 2
            switch e {
            case UInt8(ascii: "b"): out[n] = 0x08
            case UInt8(ascii: "f"): out[n] = 0x0C
            case UInt8(ascii: "n"): out[n] = 0x0A
            case UInt8(ascii: "r"): out[n] = 0x0D
            case UInt8(ascii: "t"): out[n] = 0x09
            case UInt8(ascii: "u"):
                var scalar = hex(p)
                p += 4
                if scalar & 0xFC00 == 0xD800 {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (hex(p + 2) - 0xDC00)
                    p += 6
                }
                n += encodeUTF8(scalar, into: out + n)
                continue
            default: out[n] = e  // " \ /
            }
            n += 1
        }
        return n
    }

    /// Writes `scalar` as UTF-8 and returns the number of bytes written.
    @inline(__always) static func encodeUTF8(_ scalar: UInt32, into out: UnsafeMutablePointer<UInt8>) -> Int {
        switch scalar {
        case 0..<0x80:
            out[0] = UInt8(scalar)
            return 1
        case 0x80..<0x800:
            out[0] = UInt8(0xC0 | scalar >> 6)
            out[1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case 0x800..<0x10000:
            out[0] = UInt8(0xE0 | scalar >> 12)
            out[1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            out[0] = UInt8(0xF0 | scalar >> 18)
            out[1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            out[2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[3] = UInt8(0x80 | scalar & 0x3F)
            return 4
        }
    }

    /// Calls `body` with the unescaped bytes of a checked raw string (the input itself when it
    /// has no escapes).
    @inline(__always) func withUnescapedBytes<R>(_ raw: RawString, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let base = self.base
        if !raw.hasEscapes {
            return body(UnsafeBufferPointer(start: base + raw.start, count: raw.end - raw.start))
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.end - raw.start) { out in
            let n = JSONScanner.unescape(raw, in: base, into: out.baseAddress!)
            return body(UnsafeBufferPointer(start: out.baseAddress, count: n))
        }
    }
}

/// One open array or object of the iterative value builder.
struct ContainerFrame {
    var isObject: Bool
    /// Where this container's values begin on the value stack.
    var valueStart: Int
    /// For an object: where its member name numbers begin on the key stack (used once its names
    /// depart from the predicted shape).
    var keyStart: Int
    /// For an object: the shape predicted for it, how many of its names matched so far, and
    /// whether a name departed from the prediction.
    var shape: ObjectShape
    var matched = 0
    var diverged = false
    /// For an object: where its shape is remembered — the member name number it is the value
    /// of (≥ 0), or −depth (its depth, from 1) for an array element or a whole value.
    var context: Int32 = 0
}
