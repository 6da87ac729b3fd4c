/// Numbers: the JSON grammar, then the exact `Double` that the text denotes (round to nearest,
/// ties to even), as `JSON.parse` and `strtod` give it.
///
/// Three paths, fastest first: Clinger's exact path (at most 2^53 as the digits, |exponent| ≤ 22:
/// one exact multiplication or division); the Eisel–Lemire algorithm (up to 19 significant digits,
/// a 128-bit multiplication by a table of powers of ten, which proves its own rounding or gives
/// up); and, for the rest (more than 19 significant digits, results near the subnormal range, the
/// rare cases Eisel–Lemire cannot decide), the standard library's correctly rounded `Double(_:)`.
extension JSONScanner {
    /// Reads the number at `pos` (on its `-` or first digit); `pos` ends after it.
    @inline(__always) mutating func parseNumber() throws(ReadFailure) -> Double {
        let start = pos
        var p = pos
        let negative = base[p] == UInt8(ascii: "-")
        if negative { p += 1 }
        var mantissa: UInt64 = 0
        let intStart = p
        var b = byte(at: p)
        if b == UInt8(ascii: "0") {
            p += 1
            b = byte(at: p)
            if isDigit(b) { throw ReadFailure(.invalidNumber, at: p) }
        } else if isDigit(b) {
            p = accumulateDigits(from: p, into: &mantissa)
            b = byte(at: p)
        } else {
            throw notANumber(at: start)
        }
        var digits = p - intStart
        var exponent = 0
        if b == UInt8(ascii: ".") {
            p += 1
            let fracStart = p
            b = byte(at: p)
            guard isDigit(b) else { throw failure(.invalidNumber, at: p) }
            p = accumulateDigits(from: p, into: &mantissa)
            b = byte(at: p)
            exponent = fracStart - p
            digits += p - fracStart
        }
        if b | 0x20 == UInt8(ascii: "e") {
            p += 1
            b = byte(at: p)
            let negativeExponent = b == UInt8(ascii: "-")
            if negativeExponent || b == UInt8(ascii: "+") {
                p += 1
                b = byte(at: p)
            }
            guard isDigit(b) else { throw failure(.invalidNumber, at: p) }
            var e = 0
            repeat {
                // Capped far beyond any exponent a double takes, and beyond the digits a fraction
                // can offset it by (fewer than the input's bytes): an exponent capped at 10^6
                // let a million-digit fraction pull 1e10000009 back into range.
                if e < 1 << 40 { e = e * 10 + Int(b &- 48) }
                p += 1
                b = byte(at: p)
            } while isDigit(b)
            exponent += negativeExponent ? -e : e
        }
        pos = p
        if digits > 19 && significantDigits(from: intStart, to: p) > 19 {
            return try slowNumber(from: start, to: p)
        }
        if let value = JSONScanner.exactDouble(mantissa: mantissa, exponent: exponent) {
            return negative ? -value : value
        }
        if let value = JSONScanner.eiselLemire(mantissa: mantissa, exponent: exponent) {
            return negative ? -value : value
        }
        return try slowNumber(from: start, to: p)
    }

    /// Appends the decimal digits from `p` on to `mantissa` (wrapping past 19 digits; the caller
    /// counts them) and returns the offset after the last one.
    @inline(__always) func accumulateDigits(from p: Int, into mantissa: inout UInt64) -> Int {
        var q = base + p
        let stop = base + end
        var m = mantissa
        while q < stop {
            let d = q.pointee &- UInt8(ascii: "0")
            if d >= 10 { break }
            m = m &* 10 &+ UInt64(d)
            q += 1
        }
        mantissa = m
        return q - base
    }

    /// Checks the grammar of the number at `pos` without computing its value; `pos` ends after it.
    mutating func skipNumber() throws(ReadFailure) {
        let start = pos
        var p = pos
        if base[p] == UInt8(ascii: "-") { p += 1 }
        var b = byte(at: p)
        if b == UInt8(ascii: "0") {
            p += 1
            b = byte(at: p)
            if isDigit(b) { throw ReadFailure(.invalidNumber, at: p) }
        } else if isDigit(b) {
            repeat {
                p += 1
                b = byte(at: p)
            } while isDigit(b)
        } else {
            throw notANumber(at: start)
        }
        if b == UInt8(ascii: ".") {
            p += 1
            b = byte(at: p)
            guard isDigit(b) else { throw failure(.invalidNumber, at: p) }
            repeat {
                p += 1
                b = byte(at: p)
            } while isDigit(b)
        }
        if b | 0x20 == UInt8(ascii: "e") {
            p += 1
            b = byte(at: p)
            if b == UInt8(ascii: "-") || b == UInt8(ascii: "+") {
                p += 1
                b = byte(at: p)
            }
            guard isDigit(b) else { throw failure(.invalidNumber, at: p) }
            repeat {
                p += 1
                b = byte(at: p)
            } while isDigit(b)
        }
        pos = p
    }

    /// The length of the `NaN`, `Infinity` or `-Infinity` word at `start` (never valid JSON, but
    /// some writers emit them, such as Python's `json.dumps`), or nil. O(1).
    func nonFiniteWordLength(at start: Int) -> Int? {
        for word in ["NaN", "Infinity", "-Infinity"] as [StaticString] {
            let n = word.utf8CodeUnitCount
            if start + n <= end, bytesEqual(base + start, word.utf8Start, count: n) { return n }
        }
        return nil
    }

    /// The failure for text at `start` that was expected to be a number: `NaN`, `Infinity` and
    /// `-Infinity` (which some writers emit) are non-finite numbers, anything else is no number.
    func notANumber(at start: Int) -> ReadFailure {
        if nonFiniteWordLength(at: start) != nil { return ReadFailure(.nonFiniteNumber, at: start) }
        let b = byte(at: start)
        return failure(b == UInt8(ascii: "-") ? .invalidNumber : .expectedValue, at: b == UInt8(ascii: "-") ? start + 1 : start)
    }

    /// The number of digits from the first non-zero digit on, in the number text `from..<to`.
    private func significantDigits(from: Int, to: Int) -> Int {
        var count = 0
        var leading = true
        for i in from..<to {
            let b = base[i]
            if b == UInt8(ascii: ".") { continue }
            if !isDigit(b) { break }
            if leading && b == UInt8(ascii: "0") { continue }
            leading = false
            count += 1
        }
        return count
    }

    /// The value of the number text `from..<to` through the standard library (correctly rounded).
    private func slowNumber(from: Int, to: Int) throws(ReadFailure) -> Double {
        let text = String(decoding: UnsafeBufferPointer(start: base + from, count: to - from), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw ReadFailure(.nonFiniteNumber, at: from) }
        return value
    }

    /// mantissa · 10^exponent when both factors are exact doubles (Clinger's fast path).
    @inline(__always) static func exactDouble(mantissa: UInt64, exponent: Int) -> Double? {
        guard mantissa <= 1 << 53 else { return nil }
        let m = Double(mantissa)
        if exponent == 0 { return m }
        if exponent < 0 {
            guard exponent >= -22 else { return nil }
            return m / exactPowerOfTen(-exponent)
        }
        guard exponent <= 22 else { return nil }
        return m * exactPowerOfTen(exponent)
    }

    /// 10^e for 0 ≤ e ≤ 22, all exact in a double.
    @inline(__always) static func exactPowerOfTen(_ e: Int) -> Double {
        exactPowersOfTen.withUnsafeBufferPointer { $0[e] }
    }

    /// mantissa · 10^exponent, correctly rounded, or `nil` when the algorithm cannot decide (or
    /// the result is subnormal, zero or infinite): Eisel and Lemire, "Number Parsing at a Gigabyte
    /// per Second" (2021), as in Go's `strconv` and Wuffs.
    @inline(__always) static func eiselLemire(mantissa: UInt64, exponent: Int) -> Double? {
        if mantissa == 0 { return 0 }
        guard exponent >= powersOfTenMinExponent, exponent <= powersOfTenMaxExponent else { return nil }
        let clz = mantissa.leadingZeroBitCount
        let man = mantissa << clz
        var exp2 = UInt64(bitPattern: Int64((217_706 &* exponent) >> 16 &+ 64 &+ 1023)) &- UInt64(clz)
        let row = 2 * (exponent - powersOfTenMinExponent)
        let (hi, lo) = powersOfTen128.withUnsafeBufferPointer { ($0[row], $0[row + 1]) }
        var (xHi, xLo) = man.multipliedFullWidth(by: hi)
        if xHi & 0x1FF == 0x1FF && xLo &+ man < man {
            // The truncated power may have cost a carry: use its low half too.
            let (yHi, yLo) = man.multipliedFullWidth(by: lo)
            var mergedHi = xHi
            let mergedLo = xLo &+ yHi
            if mergedLo < xLo { mergedHi &+= 1 }
            if mergedHi & 0x1FF == 0x1FF && mergedLo &+ 1 == 0 && yLo &+ man < man { return nil }
            xHi = mergedHi
            xLo = mergedLo
        }
        let msb = xHi >> 63
        var bits = xHi >> (msb + 9)
        exp2 &-= 1 ^ msb
        // Exactly half-way between two doubles: leave it to the slow path.
        if xLo == 0 && xHi & 0x1FF == 0 && bits & 3 == 1 { return nil }
        bits &+= bits & 1
        bits >>= 1
        if bits >> 53 > 0 {
            bits >>= 1
            exp2 &+= 1
        }
        // Zero, subnormal, infinite: the slow path decides.
        if exp2 &- 1 >= 0x7FF - 1 { return nil }
        return Double(bitPattern: exp2 << 52 | bits & 0x000F_FFFF_FFFF_FFFF)
    }
}

/// 10^0 … 10^22, each exact in a `Double`.
let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

/// Whether `b` is an ASCII digit.
@inline(__always) func isDigit(_ b: UInt8) -> Bool {
    b &- UInt8(ascii: "0") < 10
}
