import Foundation
import Testing

@testable import SpatialCore

/// The JSON reader: what it accepts, what it builds, and every error with its kind and place.
@Suite struct JSONReaderTests {
    // MARK: Accepted text

    @Test func scalarsAndContainers() throws {
        #expect(try JSONValue(parsing: "null") == .null)
        #expect(try JSONValue(parsing: "true") == .bool(true))
        #expect(try JSONValue(parsing: "false") == .bool(false))
        #expect(try JSONValue(parsing: "\"\"") == .string(""))
        #expect(try JSONValue(parsing: "[]") == .array([]))
        #expect(try JSONValue(parsing: "{}") == .object(JSONObject()))
        #expect(try JSONValue(parsing: "[[[]],{}]") == [[[]], [:]])
        let value = try JSONValue(parsing: #"{"a":[1,"x",null,true,{"b":false}],"c":{}}"#)
        #expect(value == ["a": [1, "x", nil, true, ["b": false]], "c": [:]])
        #expect(value.objectValue?.keys == ["a", "c"])
    }

    @Test func whitespaceEverywhere() throws {
        let text = " \t\r\n[ \n1\t,\r{ \"a\" \n:\t[ ] , \"b\":\"c\" } ,  true ]\n\r\t "
        #expect(try JSONValue(parsing: text) == [1, ["a": [], "b": "c"], true])
    }

    @Test func byteOrderMarkIsSkipped() throws {
        #expect(try JSONValue(parsing: "\u{FEFF}[1]") == [1])
        #expect(try JSONValue(parsing: [0xEF, 0xBB, 0xBF, 0x7B, 0x7D] as [UInt8]) == .object(JSONObject()))
    }

    @Test func escapes() throws {
        #expect(try JSONValue(parsing: #""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{8}\u{C}\n\r\t"))
        #expect(try JSONValue(parsing: #""\u0041\u00e9\u00E9\u4e2d\u0000""#) == .string("Aéé中\u{0}"))
        #expect(try JSONValue(parsing: #""\ud83d\ude00 and \uD83D\uDE00""#) == .string("😀 and 😀"))
        #expect(try JSONValue(parsing: #""a\/b\/c""#) == .string("a/b/c"))
        // Escapes next to raw UTF-8 and long runs (the copying fast path).
        let long = String(repeating: "abcdefgh", count: 40)
        #expect(try JSONValue(parsing: "\"\(long)\\n日本\\t\(long)é\"") == .string("\(long)\n日本\t\(long)é"))
        // Escaped member names are unescaped before they are compared.
        let object = try JSONValue(parsing: #"{"\u0061":1,"a":2}"#)
        #expect(object == ["a": 2])
    }

    /// Escapes and multi-byte characters at every offset around the scratch buffer's first
    /// capacity (256 bytes) and the 16-byte copying steps.
    @Test func escapesAtEveryOffset() throws {
        let pieces: [(text: String, value: String)] = [
            ("\\n", "\n"), ("\\u00e9", "é"), ("\\ud83d\\ude00", "😀"), ("😀", "😀"), ("é", "é"), ("\\/", "/"),
        ]
        for length in 0..<300 {
            for (i, piece) in pieces.enumerated() {
                let filler = String(repeating: "ab", count: length / 2) + (length % 2 == 1 ? "x" : "")
                let other = pieces[(i + 1) % pieces.count]
                let text = "\"\\t" + filler + piece.text + filler + other.text + "\""
                let expected = "\t" + filler + piece.value + filler + other.value
                #expect(try JSONValue(parsing: text) == .string(expected))
            }
        }
    }

    @Test func rawUTF8() throws {
        #expect(try JSONValue(parsing: "\"日本語 😀 é ß\"") == .string("日本語 😀 é ß"))
        #expect(try JSONValue(parsing: "\"\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}\"")
            == .string("\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}"))
    }

    @Test func repeatedNamesKeepFirstPlaceAndLastValue() throws {
        let object = try #require(try JSONValue(parsing: #"{"a":1,"b":2,"a":3}"#).objectValue)
        #expect(object.keys == ["a", "b"])
        #expect(object.values == [3, 2])
    }

    @Test func inputKinds() throws {
        let text = #"{"k":[1,2]}"#
        let expected: JSONValue = ["k": [1, 2]]
        #expect(try JSONValue(parsing: Array(text.utf8)) == expected)
        #expect(try JSONValue(parsing: Data(text.utf8)) == expected)
        #expect(try JSONValue(parsing: Array("xx\(text)yy".utf8)[2..<(2 + text.utf8.count)]) == expected)
        #expect(try JSONValue(parsing: text.utf8) == expected)
        #expect(try JSONValue(parsing: AnyCollection(Array(text.utf8))) == expected)  // not contiguous
    }

    @Test func nestingUpToTheLimit() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        _ = try JSONValue(parsing: ok)
        let objects = String(repeating: #"{"a":"#, count: 512) + "1" + String(repeating: "}", count: 512)
        _ = try JSONValue(parsing: objects)
        _ = try JSONValue(parsing: "[[[1]]]", maxDepth: 3)
    }

    // MARK: Errors: kind and place

    private func expectError(
        _ text: String, _ kind: JSONParseError.Kind, line: Int = 1, column: Int,
        maxDepth: Int = JSONReader.defaultMaxDepth, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectError(Array(text.utf8), kind, line: line, column: column, maxDepth: maxDepth, sourceLocation: sourceLocation)
    }

    private func expectError(
        _ bytes: [UInt8], _ kind: JSONParseError.Kind, line: Int = 1, column: Int,
        maxDepth: Int = JSONReader.defaultMaxDepth, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let value = try JSONValue(parsing: bytes, maxDepth: maxDepth)
            Issue.record("expected \(kind), read \(value)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.kind == kind, sourceLocation: sourceLocation)
            #expect(error.line == line, "line", sourceLocation: sourceLocation)
            #expect(error.column == column, "column", sourceLocation: sourceLocation)
            #expect(error.offset >= 0 && error.offset <= bytes.count, sourceLocation: sourceLocation)
        }
    }

    @Test func truncatedInput() {
        expectError("", .truncated, column: 1)
        expectError("  \n ", .truncated, line: 2, column: 2)
        expectError("[1,", .truncated, column: 4)
        expectError("[1", .truncated, column: 3)
        expectError(#"{"a""#, .truncated, column: 5)
        expectError(#"{"a":"#, .truncated, column: 6)
        expectError(#""abc"#, .truncated, column: 5)
        expectError(#""ab\"#, .truncated, column: 5)
        expectError(#""\u12"#, .truncated, column: 6)
        expectError(#""\ud83d"#, .truncated, column: 8)
        expectError(#""\ud83d\"#, .truncated, column: 9)
        expectError("tru", .truncated, column: 4)
        expectError("-", .truncated, column: 2)
        expectError("1.", .truncated, column: 3)
        expectError("1e+", .truncated, column: 4)
        expectError([0x22, 0xE6, 0x97], .truncated, column: 3)  // a cut UTF-8 sequence
    }

    @Test func structuralErrors() {
        expectError(#"{"a" 1}"#, .expectedColon, column: 6)
        expectError(#"{"a":1,}"#, .expectedKey, column: 8)
        expectError("{1:2}", .expectedKey, column: 2)
        expectError("{,}", .expectedKey, column: 2)
        expectError("[1 2]", .expectedCommaOrEnd, column: 4)
        expectError(#"{"a":1 "b":2}"#, .expectedCommaOrEnd, column: 8)
        expectError("[1,]", .expectedValue, column: 4)
        expectError("[,1]", .expectedValue, column: 2)
        expectError("[1}", .expectedCommaOrEnd, column: 3)
        expectError(#"{"a":1]"#, .expectedCommaOrEnd, column: 7)
        expectError("]", .expectedValue, column: 1)
        expectError("[1] x", .trailingCharacters, column: 5)
        expectError("1 2", .trailingCharacters, column: 3)
        expectError("{}{}", .trailingCharacters, column: 3)
        expectError("[\u{0}]", .expectedValue, column: 2)
    }

    @Test func literalAndNumberErrors() {
        expectError("[tru]", .invalidLiteral, column: 5)
        expectError("[nul]", .invalidLiteral, column: 5)
        expectError("[nulL]", .invalidLiteral, column: 5)
        expectError("[fals3]", .invalidLiteral, column: 6)
        expectError("[True]", .expectedValue, column: 2)
        expectError("01", .invalidNumber, column: 2)
        expectError("-01", .invalidNumber, column: 3)
        expectError("[1.]", .invalidNumber, column: 4)
        expectError("[1.e5]", .invalidNumber, column: 4)
        expectError("[-]", .invalidNumber, column: 3)
        expectError("[-a]", .invalidNumber, column: 3)
        expectError("[1e]", .invalidNumber, column: 4)
        expectError("[1e-]", .invalidNumber, column: 5)
        expectError("[.5]", .expectedValue, column: 2)
        expectError("[+1]", .expectedValue, column: 2)
        expectError("[0x10]", .expectedCommaOrEnd, column: 3)
        expectError("1e400", .nonFiniteNumber, column: 1)
        expectError("[0, -1e400]", .nonFiniteNumber, column: 5)
        expectError("[NaN]", .nonFiniteNumber, column: 2)
        expectError("Infinity", .nonFiniteNumber, column: 1)
        expectError("[1, -Infinity]", .nonFiniteNumber, column: 5)
        // A long fraction does not pull a huge exponent back into range: about 1e9000008.
        expectError("[0." + String(repeating: "0", count: 1_000_000) + "1e10000009]", .nonFiniteNumber, column: 2)
        // Nor does a huge negative exponent come back: it reads as 0 (underflow), as 1e-400 does.
        #expect((try? JSONValue(parsing: "[0." + String(repeating: "0", count: 1_000_000) + "1e-10000009]")) == [0])
        expectError(String(repeating: "9", count: 400), .nonFiniteNumber, column: 1)
    }

    @Test func stringErrors() {
        expectError(#""\x""#, .invalidEscape, column: 3)
        expectError(#""abc\'""#, .invalidEscape, column: 6)
        expectError(#""\u12G4""#, .invalidUnicodeEscape, column: 6)
        expectError(#""\U0041""#, .invalidEscape, column: 3)
        expectError(#""\ud800""#, .loneSurrogate, column: 2)
        expectError(#""x\udc00""#, .loneSurrogate, column: 3)
        expectError(#""\ud800\u0041""#, .loneSurrogate, column: 2)
        expectError(#""\ud800\n""#, .loneSurrogate, column: 2)
        expectError(#""\ud800x""#, .loneSurrogate, column: 2)
        expectError("\"a\u{1}b\"", .controlCharacterInString, column: 3)
        expectError("\"tab\there\"", .controlCharacterInString, column: 5)
        expectError("[\"a\nb\"]", .controlCharacterInString, column: 4)
        expectError([0x22, 0xFF, 0x22], .invalidUTF8, column: 2)
        expectError([0x22, 0x80, 0x22], .invalidUTF8, column: 2)  // a lone continuation byte
        expectError([0x22, 0xC0, 0x80, 0x22], .invalidUTF8, column: 2)  // overlong NUL
        expectError([0x22, 0xE0, 0x80, 0x80, 0x22], .invalidUTF8, column: 2)  // overlong
        expectError([0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8, column: 2)  // a UTF-8 surrogate
        expectError([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8, column: 2)  // beyond U+10FFFF
        expectError([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], .invalidUTF8, column: 2)
        expectError([0x22, 0xE6, 0x97, 0x41, 0x22], .invalidUTF8, column: 2)
        // The same inside a string with escapes (the unescaping path).
        expectError([0x22, 0x5C, 0x6E, 0xFF, 0x22], .invalidUTF8, column: 4)
        expectError("\"\\n\u{1}\"", .controlCharacterInString, column: 4)
        expectError(#""\n\q""#, .invalidEscape, column: 5)
    }

    @Test func depthLimit() {
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        expectError(deep, .tooDeep, column: 513)
        expectError(String(repeating: #"{"a":"#, count: 600), .tooDeep, column: 5 * 512 + 1)
        expectError("[[[1]]]", .tooDeep, column: 3, maxDepth: 2)
        // Adversarial depth is an error, not a stack overflow.
        expectError(String(repeating: "[", count: 1_000_000), .tooDeep, column: 513)
        expectError(String(repeating: "[{\"a\":", count: 200_000), .tooDeep, column: 6 * 256 + 1)
        // A limit above JSONReader.maximumDepth counts as it: 100,000 levels read and freed
        // recursively overflowed an 8 MiB stack.
        expectError(String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000), .tooDeep,
                    column: JSONReader.maximumDepth + 1, maxDepth: 300_000)
        let deepest = String(repeating: "[", count: JSONReader.maximumDepth) + String(repeating: "]", count: JSONReader.maximumDepth)
        #expect((try? JSONValue(parsing: deepest, maxDepth: .max)) != nil)
    }

    @Test func linesAndColumns() {
        expectError("{\n  \"a\": 1,\n  \"b\" 2\n}", .expectedColon, line: 3, column: 7)
        expectError("[\r\n1,\r\n]", .expectedValue, line: 3, column: 1)
        expectError("[\r1,\r]", .expectedValue, line: 3, column: 1)  // lone CR ends a line too
        expectError("\"éé\" x", .trailingCharacters, column: 6)  // columns count characters
        expectError("\u{FEFF}[1,]", .expectedValue, column: 4)  // the byte-order mark is not a column
        expectError("[\n\n\n    tru\n]", .invalidLiteral, line: 4, column: 8)
    }

    @Test func errorDescriptions() throws {
        do {
            _ = try JSONValue(parsing: "[1,\n x]")
            Issue.record("no error")
        } catch {
            #expect(error.offset == 5)
            #expect(error.description == "invalid JSON at line 2, column 2 (byte 5): expected a value")
        }
        for kind in JSONParseError.Kind.allCases { #expect(!kind.message.isEmpty) }
    }
}
