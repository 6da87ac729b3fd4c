import Foundation
import Testing

@testable import SpatialCore

/// Numbers read to the exact double the text denotes, and are written in the shortest form that
/// reads back bit for bit.
@Suite struct JSONNumberTests {
    private func number(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Double {
        try #require(try JSONValue(parsing: text).numberValue, sourceLocation: sourceLocation)
    }

    @Test func exactValues() throws {
        let cases: [(String, Double)] = [
            ("0", 0), ("1", 1), ("-1", -1), ("0.1", 0.1), ("1e308", 1e308), ("5e-324", 5e-324),
            ("4.9406564584124654e-324", .leastNonzeroMagnitude), ("2.2250738585072014e-308", .leastNormalMagnitude),
            ("1.7976931348623157e308", .greatestFiniteMagnitude), ("123456789012345678", 123_456_789_012_345_678),
            ("1E2", 100), ("1e+2", 100), ("1e-2", 0.01), ("12.5e-1", 1.25), ("0e0", 0), ("0.000001", 1e-6),
            ("9007199254740993", 9_007_199_254_740_992),  // 2^53 + 1: halfway, ties to even
            ("9007199254740995", 9_007_199_254_740_996), ("1e23", 1e23), ("8.98846567431158e307", 8.98846567431158e307),
            ("38.870310061087913", 38.870310061087913), ("-77.00896639534831", -77.00896639534831),
            ("1507425650893", 1_507_425_650_893), ("1e-400", 0), ("123e-20", 123e-20),
            ("0.10000000000000000555111512312578270211815834045410156250", 0.1),
            ("1.00000000000000011102230246251565404236316680908203125", 1),  // exactly halfway: even
            ("1.00000000000000011102230246251565404236316680908203126", 1.0000000000000002),
            ("2.4703282292062327e-324", 0), ("2.4703282292062328e-324", 5e-324),  // around the smallest subnormal
            ("1.7976931348623158e308", .greatestFiniteMagnitude),  // rounds down, not to infinity
            (String(repeating: "1", count: 30), 111_111_111_111_111_111_111_111_111_111),
            ("0." + String(repeating: "0", count: 30) + "123", 123e-33),
        ]
        for (text, expected) in cases {
            let value = try number(text)
            #expect(value.bitPattern == expected.bitPattern, "\(text) → \(value), expected \(expected)")
        }
    }

    @Test func negativeZeroIsKept() throws {
        for text in ["-0", "-0.0", "-0e10", "-0.000", "-1e-400"] {
            let value = try number(text)
            #expect(value == 0 && value.sign == .minus, "\(text)")
        }
        #expect(try number("0").sign == .plus)
    }

    /// Random decimal texts (up to 25 digits, exponents across the whole range) read exactly as
    /// the standard library's correctly rounded `Double(_:)` reads them.
    @Test func randomDecimalsMatchTheStandardLibrary() throws {
        var rng = SplitMix(state: 0x5EED_0001)
        for _ in 0..<30_000 {
            let digits = Int.random(in: 1...25, using: &rng)
            var text = Bool.random(using: &rng) ? "-" : ""
            let intDigits = Int.random(in: 1...digits, using: &rng)
            for i in 0..<digits {
                if i == intDigits { text += "." }
                let d = (i == 0 && digits > intDigits) || (i == 0 && intDigits > 1) ? Int.random(in: 1...9, using: &rng) : Int.random(in: 0...9, using: &rng)
                text += String(d)
            }
            if Bool.random(using: &rng) { text += "e\(Int.random(in: -340...300, using: &rng))" }
            guard let expected = Double(text), expected.isFinite else { continue }
            let value = try number(text)
            #expect(value.bitPattern == expected.bitPattern, "\(text)")
            if value.bitPattern != expected.bitPattern { return }
        }
    }

    /// Random doubles (all bit patterns) written by Swift and by our writer read back bit for bit.
    @Test func randomDoublesRoundTrip() throws {
        var rng = SplitMix(state: 0x5EED_0002)
        for i in 0..<40_000 {
            let value: Double
            switch i % 4 {
            case 0: value = Double(bitPattern: rng.next())
            case 1: value = Double.random(in: -180...180, using: &rng)
            case 2: value = Double(Int64.random(in: -(1 << 60)...(1 << 60), using: &rng))
            default: value = Double(sign: .plus, exponent: Int.random(in: -1074...1023, using: &rng), significand: 1)
            }
            guard value.isFinite else { continue }
            for text in [value.description, JSONValue.number(value).jsonString()] {
                let back = try number(text)
                #expect(back.bitPattern == value.bitPattern, "\(text)")
                if back.bitPattern != value.bitPattern { return }
            }
        }
    }

    @Test func writtenLikeJavaScript() {
        // Expected texts from node 20's Number.prototype.toString, except -0 (kept as "-0").
        let cases: [(Double, String)] = [
            (0, "0"), (-0.0, "-0"), (1, "1"), (-1.5, "-1.5"), (1e21, "1e+21"), (1e20, "100000000000000000000"),
            (123_456_789_012_345_680, "123456789012345680"), (0.000001, "0.000001"), (1e-7, "1e-7"),
            (1.5e-7, "1.5e-7"), (5e-324, "5e-324"), (.greatestFiniteMagnitude, "1.7976931348623157e+308"),
            (0.1, "0.1"), (100, "100"), (9_007_199_254_740_992, "9007199254740992"),
            (1_152_921_504_606_846_976, "1152921504606847000"), (-1_152_921_504_606_846_976, "-1152921504606847000"),
            (123e-20, "1.23e-18"), (1.2345e-5, "0.000012345"), (0.3, "0.3"), (2.0 / 3, "0.6666666666666666"),
            (-77.00896639534831, "-77.00896639534831"), (38.870310061087913, "38.87031006108791"),
            (1_507_425_650_893, "1507425650893"), (4.35, "4.35"), (1e16, "10000000000000000"),
            (12_345_678_901_234_567_890, "12345678901234567000"), (9.999999999999999e20, "999999999999999900000"),
            (2.5e-7, "2.5e-7"), (1234.5e10, "12345000000000"),
            (.nan, "null"), (.infinity, "null"), (-.infinity, "null"),
        ]
        for (value, text) in cases {
            #expect(JSONValue.number(value).jsonString() == text, "\(value)")
        }
    }

    @Test func writtenStrings() {
        #expect(JSONValue.string("a\"b\\c/d").jsonString() == #""a\"b\\c/d""#)
        #expect(JSONValue.string("\n\r\t\u{8}\u{C}\u{0}\u{1F}\u{7F}").jsonString() == #""\n\r\t\b\f\u0000\u001f"# + "\u{7F}\"")
        #expect(JSONValue.string("日本 😀").jsonString() == "\"日本 😀\"")
        let object: JSONValue = ["b": [1, 2.5, nil, true], "a": ["x": "y"], "": false]
        #expect(object.jsonString() == #"{"b":[1,2.5,null,true],"a":{"x":"y"},"":false}"#)
    }
}
