/// A growable buffer of plain values for a build loop's scratch lists: appends and reads without
/// an array's uniqueness and capacity checks per element. A local value, owned by one loop: the
/// owner calls `deallocate()` when done (copying the handle does not copy the storage).
/// Unsafe code is fenced here; indices are checked in debug builds.
struct ScratchBuffer<Element: BitwiseCopyable> {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// The number of elements appended since the last `removeAll()`.
    private(set) var count = 0

    /// An empty buffer with room for `capacity` elements before it first grows.
    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    /// Frees the storage; the buffer must not be used afterwards.
    func deallocate() { base.deallocate() }

    /// Appends `value`, doubling the storage when full. O(1) amortized.
    @inline(__always)
    mutating func append(_ value: Element) {
        if count == capacity { grow() }
        base[count] = value
        count &+= 1
    }

    /// Writes `value` after the current elements and keeps it only when `keep`, without a branch
    /// on `keep` (for a test that goes either way in no pattern). O(1) amortized.
    @inline(__always)
    mutating func append(_ value: Element, keeping keep: Bool) {
        if count == capacity { grow() }
        base[count] = value
        count &+= keep ? 1 : 0
    }

    /// Lets `body` write up to `extra` elements after the current ones, from the pointer it is
    /// handed, and keeps the number of them it returns: for loops that write every candidate
    /// and keep some without a branch (the count stays in a register, not in this buffer).
    /// O(count) when it grows, else O(1) plus `body`.
    @inline(__always)
    mutating func append(upTo extra: Int, _ body: (UnsafeMutablePointer<Element>) -> Int) {
        while count + extra > capacity { grow() }
        let written = body(base + count)
        assert(written >= 0 && written <= extra)
        count &+= written
    }

    /// Appends the elements of `values`. O(values.count) amortized.
    mutating func append(contentsOf values: UnsafeBufferPointer<Element>) {
        while count + values.count > capacity { grow() }
        if let source = values.baseAddress { (base + count).update(from: source, count: values.count) }
        count &+= values.count
    }

    /// Forgets the elements, keeping the storage. O(1).
    @inline(__always)
    mutating func removeAll() { count = 0 }

    /// Forgets the elements from `newCount` on, keeping the storage. O(1).
    @inline(__always)
    mutating func removeLast(toCount newCount: Int) {
        assert(newCount >= 0 && newCount <= count)
        count = newCount
    }

    /// The element at `index` (`0 ..< count`).
    @inline(__always)
    subscript(index: Int) -> Element {
        get {
            assert(index >= 0 && index < count)
            return base[index]
        }
        set {
            assert(index >= 0 && index < count)
            base[index] = newValue
        }
    }

    /// The elements, valid until the next append, insert or `deallocate()`.
    var elements: UnsafeMutableBufferPointer<Element> { UnsafeMutableBufferPointer(start: base, count: count) }

    @inline(never)
    private mutating func grow() {
        let larger = 2 * capacity
        let storage = UnsafeMutablePointer<Element>.allocate(capacity: larger)
        storage.initialize(from: base, count: count)
        base.deallocate()
        base = storage
        capacity = larger
    }
}
