/// Interns member names: each distinct name (as UTF-8 bytes) is made a `String` once and given a
/// small number, so that a reader builds no string for a name it has seen before and later code
/// can compare names as integers.
struct KeyTable {
    /// The names, by number.
    private(set) var strings: [String] = []
    /// Where each name's bytes start in `arena`, by number; one extra entry marks the end.
    private var starts: [Int] = [0]
    private var arena: [UInt8] = []
    /// Open-addressed hash table of name numbers (−1: empty); its size is a power of two.
    private var slots: [Int32] = Array(repeating: -1, count: 64)
    private var hashes: [UInt64] = []

    /// The number of distinct names.
    var count: Int { strings.count }

    /// The number of the name with these bytes, adding it if it is new. O(length) expected.
    mutating func id(of bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        let h = KeyTable.hash(bytes)
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let id = slots[i]
            if id < 0 { break }
            if hashes[Int(id)] == h && matches(id, bytes) { return id }
            i = (i + 1) & mask
        }
        let id = Int32(strings.count)
        strings.append(String(decoding: bytes, as: UTF8.self))
        arena.append(contentsOf: bytes)
        starts.append(arena.count)
        hashes.append(h)
        slots[i] = id
        if strings.count * 2 > slots.count { grow() }
        return id
    }

    /// Whether name `id` has exactly these bytes. O(length).
    @inline(__always) func matches(_ id: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let s = starts[Int(id)]
        let n = starts[Int(id) + 1] - s
        guard n == bytes.count else { return false }
        return n == 0 || arena.withUnsafeBufferPointer { a in
            bytesEqual(a.baseAddress! + s, bytes.baseAddress!, count: n)
        }
    }

    private mutating func grow() {
        slots = Array(repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (id, h) in hashes.enumerated() {
            var i = Int(truncatingIfNeeded: h) & mask
            while slots[i] >= 0 { i = (i + 1) & mask }
            slots[i] = Int32(id)
        }
    }

    /// A 64-bit hash of the bytes, eight at a time.
    @inline(__always) static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let k: UInt64 = 0x9E37_79B9_7F4A_7C15
        var h = UInt64(bytes.count) &* k
        guard let p = bytes.baseAddress else { return h }
        let raw = UnsafeRawPointer(p)
        var i = 0
        while i + 8 <= bytes.count {
            h = (h ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))) &* k
            h ^= h >> 29
            i += 8
        }
        var tail: UInt64 = 0
        while i < bytes.count {
            tail = tail << 8 | UInt64(p[i])
            i += 1
        }
        h = (h ^ tail) &* k
        return h ^ (h >> 32)
    }
}

/// Whether `count` bytes at `a` and `b` are equal, eight (or four) at a time. O(count).
@inline(__always) func bytesEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
    let ra = UnsafeRawPointer(a)
    let rb = UnsafeRawPointer(b)
    if count >= 8 {
        var i = 0
        while i + 8 < count {
            if ra.loadUnaligned(fromByteOffset: i, as: UInt64.self) != rb.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
                return false
            }
            i += 8
        }
        // The last eight bytes (overlapping the previous word when count is not a multiple of 8).
        return ra.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            == rb.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    }
    if count >= 4 {
        return ra.loadUnaligned(as: UInt32.self) == rb.loadUnaligned(as: UInt32.self)
            && ra.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                == rb.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
    }
    var i = 0
    while i < count {
        if a[i] != b[i] { return false }
        i += 1
    }
    return true
}
