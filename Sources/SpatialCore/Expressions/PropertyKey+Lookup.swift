// Finding a property name among a feature's member names without comparing strings.
//
// A `String` is two machine words: short names (up to 15 UTF-8 bytes) hold their bytes inline, in
// one canonical form, and longer ones a reference to immutable storage. So two strings with the
// same words are the same string, and comparing words is a complete test for short names and for
// long names shared by reference (the GeoJSON reader interns member names, so every feature of
// a file shares them). The content comparison remains as the fallback for strings that are equal
// without sharing a representation. Evaluation sites also keep a position hint (where the key was
// found last time), so that a run of features with one shape finds each key at the first try.

extension PropertyKey {
    /// The two words of a string's representation. O(1).
    @inlinable static func words(of string: String) -> SIMD2<UInt64> {
        guard MemoryLayout<String>.size == MemoryLayout<SIMD2<UInt64>>.size else { return .zero }
        return withUnsafeBytes(of: string) { $0.loadUnaligned(as: SIMD2<UInt64>.self) }
    }

    /// The position of this key's name among `names`, or nil (see
    /// `PropertyKey.position(of:in:hint:)`). O(1) when the hint is right, else O(names).
    @inlinable public func position(in names: UnsafeBufferPointer<String>, hint: inout Int32) -> Int? {
        withUnsafePointer(to: self) { PropertyKey.position(of: $0, in: names, hint: &hint) }
    }

    /// The position of the key at `key` among `names`, or nil. Tries `hint` first (by words, then
    /// by contents), then every name by words, then every name by contents; on success `hint`
    /// holds the position. Reads the key in place (no reference counting).
    /// - Complexity: O(1) when the hint is right, else O(names) without string comparisons when
    ///   the name shares its representation, else O(total length).
    @inlinable static func position(
        of key: UnsafePointer<PropertyKey>, in names: UnsafeBufferPointer<String>, hint: inout Int32
    ) -> Int? {
        guard let base = names.baseAddress else { return nil }
        let n = names.count
        let h = Int(hint)
        let words = key.pointee.nameWords
        guard MemoryLayout<String>.size == MemoryLayout<SIMD2<UInt64>>.size else {
            return slowPosition(of: key, in: names, hint: &hint)
        }
        let raw = UnsafeRawPointer(base)
        let stride = MemoryLayout<String>.stride
        if h >= 0 && h < n && raw.loadUnaligned(fromByteOffset: h &* stride, as: SIMD2<UInt64>.self) == words {
            return h
        }
        for i in 0..<n where raw.loadUnaligned(fromByteOffset: i &* stride, as: SIMD2<UInt64>.self) == words {
            hint = Int32(truncatingIfNeeded: i)
            return i
        }
        return slowPosition(of: key, in: names, hint: &hint)
    }

    /// The position by contents (lengths first), hint first. O(total length).
    @usableFromInline static func slowPosition(
        of key: UnsafePointer<PropertyKey>, in names: UnsafeBufferPointer<String>, hint: inout Int32
    ) -> Int? {
        let h = Int(hint)
        if h >= 0 && h < names.count && key.pointee.matches(names[h]) { return h }
        for i in names.indices where key.pointee.matches(names[i]) {
            hint = Int32(truncatingIfNeeded: i)
            return i
        }
        return nil
    }
}
