import Foundation
import Testing

@testable import SpatialCore

/// Seeded random JSON: writing then reading gives the same value, numbers bit for bit; and a
/// seeded mutator shows that broken input gives a typed error, never a crash.
@Suite struct JSONRoundTripTests {
    @Test func randomValuesRoundTripBitExactly() throws {
        var rng = SplitMix(state: 0x5EED_0003)
        for _ in 0..<3_000 {
            let value = RandomJSON.value(depth: 4, using: &rng)
            let text = value.jsonString()
            let back = try JSONValue(parsing: text)
            #expect(RandomJSON.identical(value, back), "\(text)")
            #expect(back.jsonString() == text)
        }
    }

    @Test func foundationReadsWhatWeWrite() throws {
        var rng = SplitMix(state: 0x5EED_0004)
        for _ in 0..<300 {
            // swift-corelibs-foundation drops U+FEFF inside strings, so leave it out here.
            let value = RandomJSON.value(depth: 3, withoutBOM: true, using: &rng)
            let text = value.jsonString()
            let reference = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            #expect(RandomJSON.matches(value, reference), "\(text)")
        }
    }

    @Test func mutatedInputNeverCrashes() {
        var rng = SplitMix(state: 0x5EED_0005)
        let seeds = (0..<20).map { _ in Array(RandomJSON.value(depth: 4, using: &rng).jsonString().utf8) }
            + [Array(#"{"a":[1,2.5e-3,"\u00e9\ud83d\ude00",true,null],"b":{"c":"d\n"}}"#.utf8)]
        var errors = 0
        for i in 0..<20_000 {
            let bytes = Mutator.mutate(seeds[i % seeds.count], using: &rng)
            do {
                _ = try JSONValue(parsing: bytes, maxDepth: 64)
            } catch {
                errors += 1
                #expect(error.offset >= 0 && error.offset <= bytes.count)
                #expect(error.line >= 1 && error.column >= 1)
            }
        }
        #expect(errors > 10_000)  // most mutations break the text
    }
}

/// Random JSON values for round-trip tests.
enum RandomJSON {
    static func value(depth: Int, withoutBOM: Bool = false, using rng: inout SplitMix) -> JSONValue {
        switch Int.random(in: 0..<(depth > 0 ? 8 : 5), using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .number(number(using: &rng))
        case 3, 4: return .string(string(withoutBOM: withoutBOM, using: &rng))
        case 5:
            return .array((0..<Int.random(in: 0...5, using: &rng)).map { _ in
                value(depth: depth - 1, withoutBOM: withoutBOM, using: &rng)
            })
        default:
            var object = JSONObject()
            for _ in 0..<Int.random(in: 0...6, using: &rng) {
                object[string(withoutBOM: withoutBOM, using: &rng)] = value(depth: depth - 1, withoutBOM: withoutBOM, using: &rng)
            }
            return .object(object)
        }
    }

    static func number(using rng: inout SplitMix) -> Double {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return Double(Int.random(in: -1000...1000, using: &rng))
        case 1: return -0.0
        case 2: return Double.random(in: -180...180, using: &rng)
        case 3: return Double(Int64.random(in: .min ... .max, using: &rng))
        default:
            var d: Double
            repeat { d = Double(bitPattern: rng.next()) } while !d.isFinite
            return d
        }
    }

    static func string(withoutBOM: Bool = false, using rng: inout SplitMix) -> String {
        var alphabet: [Unicode.Scalar] = [
            "a", "b", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "ß", "中", "😀",
            "\u{10FFFF}", "\u{2028}",
        ]
        if !withoutBOM { alphabet.append("\u{FEFF}") }
        var s = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...(Bool.random(using: &rng) ? 8 : 60), using: &rng) {
            s.append(alphabet[Int.random(in: 0..<alphabet.count, using: &rng)])
        }
        return String(s)
    }

    /// Equal, with numbers compared by bit pattern and members in the same order.
    static func identical(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): return x.bitPattern == y.bitPattern
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { identical($0, $1) }
        case (.object(let x), .object(let y)):
            return x.keys == y.keys && zip(x.values, y.values).allSatisfy { identical($0, $1) }
        default: return a == b
        }
    }

    /// Whether our value equals what `JSONSerialization` made of the same text. Numbers are
    /// compared to a relative 1e-14: swift-corelibs-foundation does not round every decimal
    /// correctly (it reads `-96.75085853967161` as `-96.75085853967157`), so it is no bit-exact
    /// reference; `JSONNumberTests` checks exactness against the standard library instead.
    static func matches(_ value: JSONValue, _ reference: Any) -> Bool {
        switch value {
        case .null: return reference is NSNull
        case .bool(let b):
            guard let n = reference as? NSNumber else { return false }
            return n.boolValue == b
        case .number(let d):
            guard let n = reference as? NSNumber else { return false }
            return closeEnough(d, n.doubleValue)
        case .string(let s): return (reference as? String) == s
        case .array(let elements):
            guard let array = reference as? [Any], array.count == elements.count else { return false }
            return zip(elements, array).allSatisfy { matches($0, $1) }
        case .object(let object):
            guard let dictionary = reference as? [String: Any], dictionary.count == object.count else { return false }
            return object.members.allSatisfy { key, value in dictionary[key].map { matches(value, $0) } ?? false }
        }
    }
}

/// Equal to a relative 1e-14 (or both tiny).
func closeEnough(_ a: Double, _ b: Double) -> Bool {
    a == b || abs(a - b) <= 1e-14 * max(abs(a), abs(b)) || (abs(a) < 1e-300 && abs(b) < 1e-300)
}

/// Byte-level mutations of valid text: flips, insertions, deletions, truncation, splices.
enum Mutator {
    static let interesting: [UInt8] = Array(#"{}[],:"\0123456789.-+eEtrufalsn \/u"#.utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xE0, 0xED, 0xF0, 0xF4, 0xFF, 0x0A, 0x0D]

    static func mutate(_ input: [UInt8], using rng: inout SplitMix) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let i = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &rng)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0 where !bytes.isEmpty: bytes[i] = interesting.randomElement(using: &rng)!
            case 1: bytes.insert(interesting.randomElement(using: &rng)!, at: i)
            case 2 where !bytes.isEmpty: bytes.remove(at: i)
            case 3: bytes = Array(bytes.prefix(i))
            case 4 where !bytes.isEmpty: bytes[i] ^= UInt8(1) << UInt8.random(in: 0...7, using: &rng)
            case 5 where bytes.count > 2:
                let j = Int.random(in: 0..<bytes.count, using: &rng)
                bytes.insert(contentsOf: bytes[min(i, j)..<max(i, j)].prefix(16), at: i)
            default: break
            }
        }
        return bytes
    }
}
