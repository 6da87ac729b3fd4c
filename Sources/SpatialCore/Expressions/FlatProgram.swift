// The hot-path form of an expression: the tree flattened into tables of plain (trivially
// copyable) instructions, so that evaluating it does no reference counting. It covers the
// operators that filters, ramps and cluster properties use most (constants, get, has, zoom,
// accumulated, comparisons, !, all, any, case, math, step, interpolate, match); an expression
// using anything else is evaluated on its tree instead. Both give the same results.
//
// The builder (FlatProgramBuilder.swift) fuses the commonest shapes into single instructions
// (`getNumber`: a `get` whose value must be a number, as under a one-operand `max`/`min`;
// `compareGet`: a `get` compared with a constant), so that they read the member in place instead
// of materialising a `JSONValue`. Evaluation is in FlatProgram+Evaluate.swift.

import Synchronization

/// One instruction. `a`, `b`, `count` index the program's tables, depending on `op`.
@usableFromInline struct Instruction: Hashable, Sendable {
    @usableFromInline enum Op: UInt8, Hashable, Sendable {
        case number, constant, get, has, zoom, accumulated
        case arithmetic, unary, compare, not, all, any, conditional, step, interpolate, match
        /// `get` of key `a` that must yield a number (else an evaluation error): the one operand
        /// of `max` / `min`, which returns it unchanged.
        case getNumber
        /// `comparison` of `get` of key `a` (null when absent) with a constant: the number
        /// `number` when `d` is 1, else `constants[b]`.
        case compareGet
    }

    @usableFromInline var op: Op
    @usableFromInline var arithmetic: ArithmeticOperator = .add
    @usableFromInline var unary: UnaryMathOperator = .abs
    @usableFromInline var comparison: ComparisonOperator = .equal
    /// Child, key or constant index.
    @usableFromInline var a: Int32 = 0
    /// Second child, or the first index into `arguments` / `stops`.
    @usableFromInline var b: Int32 = 0
    /// Number of arguments / stops.
    @usableFromInline var count: Int32 = 0
    /// A numeric constant, or the index of a curve.
    @usableFromInline var number: Double = 0
    /// `match`: the first label in `labels`; the label count is in `d`.
    @usableFromInline var c: Int32 = 0
    @usableFromInline var d: Int32 = 0

    @usableFromInline init(op: Op) { self.op = op }
}

/// A flattened expression (see the file comment). Immutable apart from the look-up hints; one
/// reference per expression, so that reaching it costs one reference count at most.
/// (`@unchecked Sendable`: the only mutable state is `hints`, whose elements are atomics.)
///
/// The hot tables are owned buffers read through pointers, so that instruction fetches do no
/// bounds checks or array-buffer loads; every index in them is produced by the builder.
@usableFromInline final class FlatProgram: @unchecked Sendable {
    @usableFromInline let code: UnsafeMutablePointer<Instruction>
    @usableFromInline let arguments: UnsafeMutablePointer<Int32>
    @usableFromInline let keys: UnsafeMutablePointer<PropertyKey>
    @usableFromInline let constants: UnsafeMutablePointer<JSONValue>
    @usableFromInline let stops: UnsafeMutablePointer<Double>
    @usableFromInline let curves: [Interpolation]
    /// `match` labels with the branch each selects.
    @usableFromInline let labels: [(label: MatchLabel, branch: Int32)]
    @usableFromInline let root: Int32
    /// Whether the whole tree was flattened (else the tree is evaluated and the tables are empty).
    @usableFromInline let isComplete: Bool
    /// The table sizes (for deinitialisation).
    let counts: (code: Int, arguments: Int, keys: Int, constants: Int, stops: Int)
    /// One position hint per entry of `keys`: where that `get` / `has` site found its key last
    /// time (see ``PropertyKey/position(in:hint:)``). Relaxed `Atomic<Int32>`s, written only when
    /// the position changes, so that threads sharing the program neither race nor contend. Held
    /// as raw memory because `Atomic` needs macOS 15 / iOS 18 while the package supports older
    /// systems: there the hints are not used (every look-up starts at position 0).
    @usableFromInline let hints: UnsafeMutableRawPointer

    /// Flattens `node`; `isComplete` is false when it uses an operator the flat form lacks.
    init(_ node: Node) {
        var builder = FlatProgramBuilder()
        let r = builder.compile(node)
        if r == nil { builder = FlatProgramBuilder() }
        isComplete = r != nil
        root = r ?? 0
        hints = FlatProgram.makeHints(builder.keys.count)
        counts = (builder.code.count, builder.arguments.count, builder.keys.count, builder.constants.count, builder.stops.count)
        code = FlatProgram.table(builder.code)
        arguments = FlatProgram.table(builder.arguments)
        keys = FlatProgram.table(builder.keys)
        constants = FlatProgram.table(builder.constants)
        stops = FlatProgram.table(builder.stops)
        curves = builder.curves
        labels = builder.labels
    }

    deinit {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            hints.assumingMemoryBound(to: Atomic<Int32>.self).deinitialize(count: counts.keys)
        }
        hints.deallocate()
        code.deinitialize(count: counts.code).deallocate()
        arguments.deinitialize(count: counts.arguments).deallocate()
        keys.deinitialize(count: counts.keys).deallocate()
        constants.deinitialize(count: counts.constants).deallocate()
        stops.deinitialize(count: counts.stops).deallocate()
    }

    /// A buffer holding a copy of `elements` (one slot at least). O(count).
    private static func table<T>(_ elements: [T]) -> UnsafeMutablePointer<T> {
        let p = UnsafeMutablePointer<T>.allocate(capacity: Swift.max(elements.count, 1))
        _ = UnsafeMutableBufferPointer(start: p, count: elements.count).initialize(from: elements)
        return p
    }

    /// `count` hints, all at position 0 (uninitialised raw memory where atomics are unavailable).
    private static func makeHints(_ count: Int) -> UnsafeMutableRawPointer {
        let bytes = Swift.max(count, 1) * MemoryLayout<Int32>.stride
        let raw = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: MemoryLayout<Int32>.alignment)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            assert(MemoryLayout<Atomic<Int32>>.stride == MemoryLayout<Int32>.stride)
            let p = raw.bindMemory(to: Atomic<Int32>.self, capacity: Swift.max(count, 1))
            for i in 0..<count { (p + i).initialize(to: Atomic(0)) }
        }
        return raw
    }

    /// Where key `k` sits among a context's borrowed member names, or nil when absent: tries the
    /// position this site found it at last time, and stores the new position when it moved.
    /// O(1) when the hint is right, else O(members); no reference counting.
    @inlinable func position(_ k: Int32, in names: UnsafeBufferPointer<String>) -> Int? {
        let i = Int(k)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            let hint = hints.assumingMemoryBound(to: Atomic<Int32>.self) + i
            var position = hint.pointee.load(ordering: .relaxed)
            let seen = position
            let found = PropertyKey.position(of: keys + i, in: names, hint: &position)
            if position != seen { hint.pointee.store(position, ordering: .relaxed) }
            return found
        }
        var position: Int32 = 0
        return PropertyKey.position(of: keys + i, in: names, hint: &position)
    }

    /// The value of property key `k` (nil when absent), by position when the context allows.
    @inlinable func property<C: ExpressionContext>(_ k: Int32, _ c: C) -> JSONValue? {
        if let names = c.borrowedMemberNames {
            guard let p = position(k, in: names) else { return nil }
            return c.memberValue(at: p)
        }
        return c.value(forProperty: keys[Int(k)])
    }
}
