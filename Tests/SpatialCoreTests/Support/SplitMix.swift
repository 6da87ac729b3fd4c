/// The one seeded generator of the tests (SplitMix64), so that every run sees the same "random"
/// inputs.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    /// Starts one step past `seed` (the clustering and index tests' seeds).
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    /// Starts at `state` itself (the JSON, GeoJSON and scene tests' seeds).
    init(state: UInt64) { self.state = state }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double in [0, 1) from the top 53 bits.
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// A double in [lo, hi).
    mutating func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * unit() }

    /// A double in [a, b) (the scene tests' name for ``uniform(_:_:)``).
    mutating func range(_ a: Double, _ b: Double) -> Double { uniform(a, b) }

    /// An integer in 0 ..< n (n > 0), by remainder.
    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }

    /// A fair coin from the lowest bit.
    mutating func bool() -> Bool { next() & 1 == 1 }
}
