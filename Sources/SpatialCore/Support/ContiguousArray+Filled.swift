// Arrays written once, in place, without zero-filling them first.
//
// The standard library's `init(unsafeUninitializedCapacity:initializingWith:)` writes the count
// into the array's storage even when the capacity is 0, and for 0 that storage is the process-wide
// empty-array singleton: two threads building empty arrays at once then write the same word, which
// ThreadSanitizer reports as a data race. These initializers return a plain empty array for 0 and
// only ever hand `body` a buffer of its own.

extension ContiguousArray {
    /// An array of `count` elements, every one written by `body` before it returns.
    ///
    /// `body` must initialize all `count` elements of the buffer it is given (intended for trivial
    /// element types: numbers, SIMD vectors). For `count == 0`, `body` is not called.
    ///
    /// - Complexity: O(`count`) plus whatever `body` does.
    @inlinable
    init(filling count: Int, with body: (UnsafeMutableBufferPointer<Element>) throws -> Void) rethrows {
        guard count > 0 else {
            self.init()
            return
        }
        try self.init(unsafeUninitializedCapacity: count) { buffer, initialized in
            try body(UnsafeMutableBufferPointer(rebasing: buffer[0..<count]))
            initialized = count
        }
    }

    /// An array of the first elements of a buffer of `capacity`: `body` writes elements
    /// `0 ..< k` and returns k (at most `capacity`). The array keeps the whole capacity.
    ///
    /// For a list filtered into place (no growth, no copy). For `capacity == 0`, `body` is not
    /// called.
    ///
    /// - Complexity: O(1) plus whatever `body` does.
    @inlinable
    init(fillingUpTo capacity: Int, with body: (UnsafeMutableBufferPointer<Element>) throws -> Int) rethrows {
        guard capacity > 0 else {
            self.init()
            return
        }
        try self.init(unsafeUninitializedCapacity: capacity) { buffer, initialized in
            let k = try body(UnsafeMutableBufferPointer(rebasing: buffer[0..<capacity]))
            precondition(k >= 0 && k <= capacity, "more elements than the capacity")
            initialized = k
        }
    }
}
