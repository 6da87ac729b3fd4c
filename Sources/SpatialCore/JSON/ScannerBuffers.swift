/// The reusable buffers of a ``JSONScanner``: classes with manually managed memory, each owned by
/// one scanner and freed with it.

/// The value stack of the iterative builder: values are moved in and moved out into each
/// container's array, with no copies (no retain/release per value).
final class ValueStack {
    private var base: UnsafeMutablePointer<JSONValue>
    private var capacity = 16
    private(set) var count = 0

    init() { base = .allocate(capacity: capacity) }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    @inline(__always) func push(_ value: __owned JSONValue) {
        if count == capacity { grow() }
        (base + count).initialize(to: value)
        count += 1
    }

    /// The values from `start` to the top, moved out into an array.
    @inline(__always) func popArray(from start: Int) -> [JSONValue] {
        let n = count - start
        guard n > 0 else { return [] }
        let source = base + start
        count = start
        // Not Array(unsafeUninitializedCapacity:): that calls an unspecialized allocator in the
        // standard library (with a metadata lookup) on every call.
        var values: [JSONValue] = []
        values.reserveCapacity(n)
        for i in 0..<n { values.append((source + i).move()) }
        return values
    }

    /// Drops the values from `start` to the top.
    func removeAll(from start: Int = 0) {
        (base + start).deinitialize(count: count - start)
        count = start
    }

    private func grow() {
        let bigger = UnsafeMutablePointer<JSONValue>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity *= 2
    }
}

/// A growable byte buffer for assembling unescaped strings, reused across strings.
final class ByteScratch {
    private(set) var pointer: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int

    init() {
        capacity = 256
        pointer = .allocate(capacity: capacity)
    }

    deinit { pointer.deallocate() }

    /// Ensures room for `count` bytes, keeping the first `keeping`; returns the buffer.
    func reserve(_ count: Int, keeping: Int = 0) -> UnsafeMutablePointer<UInt8> {
        if count > capacity {
            let newCapacity = max(count, capacity * 2)
            let new = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            new.update(from: pointer, count: keeping)
            pointer.deallocate()
            pointer = new
            capacity = newCapacity
        }
        return pointer
    }
}

/// A direct-mapped cache of short strings by their UTF-8 bytes: values such as `"TULSA"`,
/// `"US"` or `"America/Chicago"` repeat across features, and building a Swift `String` costs far
/// more than hashing and comparing a few bytes. A repeated long-ish value also shares one storage.
/// Each slot (bytes, length, string) fills one 64-byte cache line.
final class StringCache {
    /// Strings of at most this many bytes are cached.
    static let maxLength = 32
    private static let slotCount = 2048

    private struct Slot {
        var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var length = -1
        var string = ""
    }

    private let slots: UnsafeMutablePointer<Slot>

    init() {
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: StringCache.slotCount * MemoryLayout<Slot>.stride, alignment: 64)
        slots = raw.bindMemory(to: Slot.self, capacity: StringCache.slotCount)
        slots.initialize(repeating: Slot(), count: StringCache.slotCount)
    }

    deinit {
        slots.deinitialize(count: StringCache.slotCount)
        UnsafeMutableRawPointer(slots).deallocate()
    }

    /// The string with these (checked, well-formed UTF-8) bytes.
    @inline(__always) func string(_ text: UnsafeBufferPointer<UInt8>) -> String {
        let n = text.count
        guard n <= StringCache.maxLength, n > 0, let p = text.baseAddress else {
            return String(decoding: text, as: UTF8.self)
        }
        let slot = slots + StringCache.slot(p, n)
        let stored = UnsafeMutableRawPointer(slot).assumingMemoryBound(to: UInt8.self)
        if slot.pointee.length == n && bytesEqual(stored, p, count: n) { return slot.pointee.string }
        let string = String(decoding: text, as: UTF8.self)
        slot.pointee.length = n
        stored.update(from: p, count: n)
        slot.pointee.string = string
        return string
    }

    /// The slot for 1 … 32 bytes.
    @inline(__always) private static func slot(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
        let raw = UnsafeRawPointer(p)
        var h: UInt64
        if n >= 8 {
            h = raw.loadUnaligned(as: UInt64.self) &* 0x9E37_79B9_7F4A_7C15
            h ^= raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) &* 0xC2B2_AE3D_27D4_EB4F
            if n > 16 { h ^= raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self) &* 0x1656_67B1_9E37_79F9 }
        } else if n >= 4 {
            h = (UInt64(raw.loadUnaligned(as: UInt32.self)) << 32 | UInt64(raw.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)))
                &* 0x9E37_79B9_7F4A_7C15
        } else {
            h = (UInt64(p[0]) << 16 | UInt64(p[n >> 1]) << 8 | UInt64(p[n - 1])) &* 0x9E37_79B9_7F4A_7C15
        }
        h ^= UInt64(n) &* 0xC2B2_AE3D_27D4_EB4F
        return Int(truncatingIfNeeded: h >> 53)  // 11 bits: slotCount
    }
}
