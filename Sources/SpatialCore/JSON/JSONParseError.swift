/// Why and where JSON text could not be read.
///
/// `offset` counts bytes from the start of the input (a byte-order mark included); `line` and
/// `column` are 1-based, lines end at `\n`, `\r\n` or a lone `\r`, and the column counts Unicode
/// scalars (characters, for ASCII text) from the start of the line, a leading byte-order mark not
/// counted.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the text.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The input ends inside a value (or holds no value at all).
        case truncated
        /// A character that cannot start a value.
        case expectedValue
        /// An object member's name is not a string (or a `,` is followed by `}`).
        case expectedKey
        /// An object member's name is not followed by `:`.
        case expectedColon
        /// An array element or object member is not followed by `,` or the closing bracket.
        case expectedCommaOrEnd
        /// A misspelt `true`, `false` or `null`.
        case invalidLiteral
        /// A number that breaks the JSON grammar (`01`, `1.`, `-`, `1e`, `+1`, `.5`).
        case invalidNumber
        /// A number too large for a `Double` (`1e400`), or `NaN` / `Infinity`, which JSON lacks.
        case nonFiniteNumber
        /// A backslash followed by a character that is not an escape.
        case invalidEscape
        /// A `\u` escape without four hexadecimal digits.
        case invalidUnicodeEscape
        /// A `\u` escape of a UTF-16 surrogate without its partner.
        case loneSurrogate
        /// A raw control character (below U+0020) inside a string.
        case controlCharacterInString
        /// Bytes that are not well-formed UTF-8 inside a string.
        case invalidUTF8
        /// Arrays and objects nested deeper than the reader's limit.
        case tooDeep
        /// Something other than white space after the value.
        case trailingCharacters

        /// A short English description.
        public var message: String {
            switch self {
            case .truncated: "the input ends too early"
            case .expectedValue: "expected a value"
            case .expectedKey: "expected a member name in double quotes"
            case .expectedColon: "expected ':' after a member name"
            case .expectedCommaOrEnd: "expected ',' or a closing bracket"
            case .invalidLiteral: "invalid literal (expected true, false or null)"
            case .invalidNumber: "invalid number"
            case .nonFiniteNumber: "number is not finite (too large, NaN or Infinity)"
            case .invalidEscape: "invalid escape sequence in a string"
            case .invalidUnicodeEscape: "\\u must be followed by four hexadecimal digits"
            case .loneSurrogate: "a UTF-16 surrogate escape without its partner"
            case .controlCharacterInString: "unescaped control character in a string"
            case .invalidUTF8: "invalid UTF-8"
            case .tooDeep: "arrays and objects nested too deeply"
            case .trailingCharacters: "unexpected characters after the value"
            }
        }
    }

    /// What is wrong.
    public var kind: Kind
    /// The byte offset of the offending character from the start of the input.
    public var offset: Int
    /// The 1-based line of the offending character.
    public var line: Int
    /// The 1-based column (in Unicode scalars) of the offending character.
    public var column: Int

    /// An error from its parts. O(1).
    public init(kind: Kind, offset: Int, line: Int, column: Int) {
        self.kind = kind
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// The error as a sentence: where (line, column, byte offset) and what. O(length of the sentence).
    public var description: String {
        "invalid JSON at line \(line), column \(column) (byte \(offset)): \(kind.message)"
    }
}

/// A line and column in the text, computed only when an error is reported.
struct TextLocation: Equatable {
    var line: Int
    var column: Int

    /// The location of byte `offset` in `bytes`: 1-based line and column (in Unicode scalars).
    /// O(offset).
    static func of(offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> TextLocation {
        var cursor = TextCursor()
        return cursor.location(of: offset, in: bytes)
    }
}

/// Counts lines and columns up to an offset and resumes from there, so that the locations of
/// many increasing offsets (a reader's skipped features) take one pass over the input.
struct TextCursor {
    private var i = 0
    private var line = 1
    private var column = 1

    /// The location of byte `offset` (see ``TextLocation/of(offset:in:)``). O(offset − the
    /// previous offset) for an offset at or after the previous one; from the start otherwise.
    mutating func location(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> TextLocation {
        let end = min(offset, bytes.count)
        if end < i { self = TextCursor() }
        // A byte-order mark is not a column (its last two bytes, continuation bytes, never count).
        if i == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = min(3, end) }
        while i < end {
            let b = bytes[i]
            if b == 0x0A {
                line += 1
                column = 1
            } else if b == 0x0D {
                if i + 1 < bytes.count, bytes[i + 1] == 0x0A {
                    // The \n that follows ends the line.
                } else {
                    line += 1
                    column = 1
                }
            } else if b & 0xC0 != 0x80 {
                column += 1  // a continuation byte is part of the previous scalar
            }
            i += 1
        }
        return TextLocation(line: line, column: column)
    }
}
