/// How much scratch a query can take from `withUnsafeTemporaryAllocation` and still get it on the
/// stack.
///
/// Up to 1,024 bytes the standard library always allocates on the stack. Above that it asks the
/// runtime, and on Linux the answer is no: every call then pays a `posix_memalign` and a `free`.
/// Measured with callgrind on this project's Linux machine: 1,024 bytes (128 `Int`s) stayed on the
/// stack, 1,032 bytes went to `malloc` on every call. So the query loops size their temporary
/// buffers to fit, and split unrelated buffers into separate allocations.
@usableFromInline
internal enum StackRoom {
    /// The most bytes one temporary allocation can take and stay on the stack on every platform.
    @inlinable static var bytes: Int { 1024 }

    /// How many values of type `T` fit in ``bytes``. O(1).
    @inlinable static func capacity<T>(of type: T.Type) -> Int { bytes / MemoryLayout<T>.stride }
}
