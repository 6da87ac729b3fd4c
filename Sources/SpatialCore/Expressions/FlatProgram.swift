// The hot-path form of an expression: the tree flattened into arrays of plain (trivially
// copyable) instructions, so that evaluating it does no reference counting. It covers the
// operators that filters, ramps and cluster properties use most (constants, get, has, zoom,
// accumulated, comparisons, !, all, any, case, math, step, interpolate); an expression using
// anything else is evaluated on its tree instead. Both give the same results.

import Synchronization

/// One instruction. `a`, `b`, `count` index the program's tables, depending on `op`.
@usableFromInline struct Instruction: Hashable, Sendable {
    @usableFromInline enum Op: UInt8, Hashable, Sendable {
        case number, constant, get, has, zoom, accumulated
        case arithmetic, unary, compare, not, all, any, conditional, step, interpolate, match
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
@usableFromInline final class FlatProgram: @unchecked Sendable {
    @usableFromInline let code: [Instruction]
    @usableFromInline let arguments: [Int32]
    @usableFromInline let keys: [PropertyKey]
    @usableFromInline let constants: [JSONValue]
    @usableFromInline let stops: [Double]
    @usableFromInline let curves: [Interpolation]
    /// `match` labels with the branch each selects.
    @usableFromInline let labels: [(label: MatchLabel, branch: Int32)]
    @usableFromInline let root: Int32
    /// Whether the whole tree was flattened (else the tree is evaluated and the tables are empty).
    @usableFromInline let isComplete: Bool
    /// One position hint per entry of `keys`: where that `get` / `has` site found its key last
    /// time (see ``PropertyKey/position(in:hint:)``). Relaxed `Atomic<Int32>`s, written only when
    /// the position changes, so that threads sharing the program neither race nor contend. Held
    /// as raw memory because `Atomic` needs macOS 15 / iOS 18 while the package supports older
    /// systems: there the hints are not used (every look-up starts at position 0).
    @usableFromInline let hints: UnsafeMutableRawPointer

    /// Flattens `node`; `isComplete` is false when it uses an operator the flat form lacks.
    init(_ node: Node) {
        var builder = FlatProgramBuilder()
        guard let r = builder.compile(node) else {
            (code, arguments, keys, constants, stops, curves, labels, root, isComplete) = ([], [], [], [], [], [], [], 0, false)
            hints = FlatProgram.makeHints(0)
            return
        }
        hints = FlatProgram.makeHints(builder.keys.count)
        isComplete = true
        code = builder.code
        arguments = builder.arguments
        keys = builder.keys
        constants = builder.constants
        stops = builder.stops
        curves = builder.curves
        labels = builder.labels
        root = r
    }

    deinit {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            hints.assumingMemoryBound(to: Atomic<Int32>.self).deinitialize(count: keys.count)
        }
        hints.deallocate()
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
            let found = keys.withUnsafeBufferPointer {
                PropertyKey.position(of: $0.baseAddress.unsafelyUnwrapped + i, in: names, hint: &position)
            }
            if position != seen { hint.pointee.store(position, ordering: .relaxed) }
            return found
        }
        var position: Int32 = 0
        return keys.withUnsafeBufferPointer {
            PropertyKey.position(of: $0.baseAddress.unsafelyUnwrapped + i, in: names, hint: &position)
        }
    }

    /// The value of property key `k` (nil when absent), by position when the context allows.
    @inlinable func property<C: ExpressionContext>(_ k: Int32, _ c: C) -> JSONValue? {
        if let names = c.borrowedMemberNames {
            guard let p = position(k, in: names) else { return nil }
            return c.memberValue(at: p)
        }
        return keys.withUnsafeBufferPointer { c.value(forProperty: $0[Int(k)]) }
    }
}

/// Builds the tables of a ``FlatProgram``.
struct FlatProgramBuilder {
    var code: [Instruction] = []
    var arguments: [Int32] = []
    var keys: [PropertyKey] = []
    var constants: [JSONValue] = []
    var stops: [Double] = []
    var curves: [Interpolation] = []
    var labels: [(label: MatchLabel, branch: Int32)] = []

    private mutating func emit(_ instruction: Instruction) -> Int32 {
        code.append(instruction)
        return Int32(code.count - 1)
    }

    private mutating func compileList(_ nodes: [Node]) -> (start: Int32, count: Int32)? {
        var children: [Int32] = []
        for n in nodes {
            guard let i = compile(n) else { return nil }
            children.append(i)
        }
        let start = Int32(arguments.count)
        arguments.append(contentsOf: children)
        return (start, Int32(children.count))
    }

    mutating func compile(_ node: Node) -> Int32? {
        var ins: Instruction
        switch node {
        case .literal(let v):
            if case .number(let n) = v {
                ins = Instruction(op: .number)
                ins.number = n
            } else {
                ins = Instruction(op: .constant)
                ins.a = Int32(constants.count)
                constants.append(v)
            }
        case .get(let key), .has(let key):
            ins = Instruction(op: { if case .get = node { return .get } else { return .has } }())
            ins.a = Int32(keys.count)
            keys.append(key)
        case .zoom:
            ins = Instruction(op: .zoom)
        case .accumulated:
            ins = Instruction(op: .accumulated)
        case .e:
            ins = Instruction(op: .number)
            ins.number = 2.718281828459045
        case .pi:
            ins = Instruction(op: .number)
            ins.number = Double.pi
        case .arithmetic(let op, let xs):
            guard let (start, count) = compileList(xs) else { return nil }
            ins = Instruction(op: .arithmetic)
            ins.arithmetic = op
            ins.b = start
            ins.count = count
        case .unary(let op, let x):
            guard let child = compile(x) else { return nil }
            ins = Instruction(op: .unary)
            ins.unary = op
            ins.a = child
        case .compare(let op, let l, let r):
            guard let lhs = compile(l), let rhs = compile(r) else { return nil }
            ins = Instruction(op: .compare)
            ins.comparison = op
            ins.a = lhs
            ins.b = rhs
        case .not(let x):
            guard let child = compile(x) else { return nil }
            ins = Instruction(op: .not)
            ins.a = child
        case .all(let xs), .any(let xs):
            guard let (start, count) = compileList(xs) else { return nil }
            ins = Instruction(op: { if case .all = node { return .all } else { return .any } }())
            ins.b = start
            ins.count = count
        case .conditional(let conditions, let outputs, let fallback):
            var list: [Node] = []
            for (c, o) in zip(conditions, outputs) { list += [c, o] }
            guard let (start, count) = compileList(list + [fallback]) else { return nil }
            ins = Instruction(op: .conditional)
            ins.b = start
            ins.count = count
        case .step(let input, let stopValues, let outputs):
            guard let inputIndex = compile(input), let (start, count) = compileList(outputs) else { return nil }
            ins = Instruction(op: .step)
            ins.a = inputIndex
            ins.b = start
            ins.count = count
            ins.number = Double(stops.count)
            stops.append(contentsOf: stopValues)
        case .interpolate(let curve, let input, let stopValues, let outputs):
            // Numeric outputs only; arrays of numbers use the tree.
            guard outputs.allSatisfy({ $0.staticType == .number }),
                let inputIndex = compile(input), let (start, count) = compileList(outputs)
            else { return nil }
            ins = Instruction(op: .interpolate)
            ins.a = inputIndex
            ins.b = start
            ins.count = count
            ins.number = Double(stops.count)
            stops.append(contentsOf: stopValues)
            // The curve index follows the outputs in `arguments`.
            arguments.append(Int32(curves.count))
            curves.append(curve)
        case .match(let input, let labelGroups, let outputs, let fallback):
            guard let inputIndex = compile(input), let (start, count) = compileList(outputs + [fallback]) else { return nil }
            ins = Instruction(op: .match)
            ins.a = inputIndex
            ins.b = start
            ins.count = count
            ins.c = Int32(labels.count)
            for (branch, group) in labelGroups.enumerated() {
                for label in group { labels.append((label, Int32(branch))) }
            }
            ins.d = Int32(labels.count) - ins.c
        default:
            return nil
        }
        return emit(ins)
    }
}

extension FlatProgram {
    /// Evaluates the whole program for an expression of static type `type` (numbers and
    /// Booleans take their typed paths). Only for complete programs.
    @inlinable func evaluate<C: ExpressionContext>(type: ExpressionType, _ c: C) -> JSONValue? {
        switch type {
        case .number:
            guard let n = number(root, c) else { return nil }
            return .number(n)
        case .boolean:
            guard let b = boolean(root, c) else { return nil }
            return .bool(b)
        default:
            return value(root, c)
        }
    }

    /// The number instruction `i` yields, or nil (error or not a number). No reference counting.
    @inlinable func number<C: ExpressionContext>(_ i: Int32, _ c: C) -> Double? {
        let ins = code[Int(i)]
        switch ins.op {
        case .number:
            return ins.number
        case .get:
            if let names = c.borrowedMemberNames {
                guard let p = position(ins.a, in: names) else { return nil }
                return c.memberNumber(at: p)
            }
            return keys.withUnsafeBufferPointer { c.number(forProperty: $0[Int(ins.a)]) }
        case .accumulated:
            if case .number(let n)? = c.accumulated { return n }
            return nil
        case .zoom:
            return c.zoom
        case .arithmetic:
            let start = Int(ins.b)
            let count = Int(ins.count)
            switch ins.arithmetic {
            case .add, .multiply:
                var result = ins.arithmetic == .add ? 0.0 : 1.0
                for k in start..<(start + count) {
                    guard let v = number(arguments[k], c) else { return nil }
                    result = ins.arithmetic == .add ? result + v : result * v
                }
                return result
            case .min, .max:
                guard var result = number(arguments[start], c) else { return nil }
                for k in (start + 1)..<(start + count) {
                    guard let v = number(arguments[k], c) else { return nil }
                    result = ins.arithmetic == .max ? Node.jsMax(result, v) : Node.jsMin(result, v)
                }
                return result
            case .subtract:
                guard let a = number(arguments[start], c) else { return nil }
                if count == 1 { return -a }
                guard let b = number(arguments[start + 1], c) else { return nil }
                return a - b
            case .divide, .remainder, .power:
                guard let a = number(arguments[start], c), let b = number(arguments[start + 1], c) else { return nil }
                switch ins.arithmetic {
                case .divide: return a / b
                case .remainder: return a.truncatingRemainder(dividingBy: b)
                default: return Node.jsPow(a, b)
                }
            }
        case .unary:
            guard let x = number(ins.a, c) else { return nil }
            return Node.unary(ins.unary, x)
        case .step:
            guard let x = number(ins.a, c) else { return nil }
            return number(arguments[Int(ins.b) + stepIndex(x, ins)], c)
        case .interpolate:
            guard let x = number(ins.a, c) else { return nil }
            let s = Int(ins.number)
            let n = Int(ins.count)
            let out = Int(ins.b)
            if n == 1 || x <= stops[s] { return number(arguments[out], c) }
            if x >= stops[s + n - 1] { return number(arguments[out + n - 1], c) }
            let k = x.isNaN ? 0 : stepIndex(x, ins) - 1
            guard let a = number(arguments[out + k], c), let b = number(arguments[out + k + 1], c) else { return nil }
            let curve = curves[Int(arguments[out + n])]
            let t = curve.factor(x, stops[s + k], stops[s + k + 1])
            return a * (1 - t) + b * t
        case .conditional:
            guard let branch = conditionalBranch(ins, c) else { return nil }
            return number(branch, c)
        case .match:
            guard let branch = matchBranch(ins, c) else { return nil }
            return number(branch, c)
        default:
            if case .number(let n)? = value(i, c) { return n }
            return nil
        }
    }

    /// Step: how many of the instruction's stops are ≤ x (binary search).
    @inlinable func stepIndex(_ x: Double, _ ins: Instruction) -> Int {
        let s = Int(ins.number)
        var lo = 0
        var hi = ins.op == .step ? Int(ins.count) - 1 : Int(ins.count)
        while lo < hi {
            let mid = (lo + hi) >> 1
            if stops[s + mid] <= x { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The instruction index of the chosen `match` output (the fallback when no label equals the
    /// input or the input has another type), or nil when the input fails.
    @inlinable func matchBranch<C: ExpressionContext>(_ ins: Instruction, _ c: C) -> Int32? {
        guard let input = value(ins.a, c) else { return nil }
        let first = Int(ins.c)
        var branch = Int(ins.count) - 1
        switch input {
        case .string(let s):
            for k in first..<(first + Int(ins.d)) {
                if case .string(let label) = labels[k].label, Node.sameString(label, s) {
                    branch = Int(labels[k].branch)
                    break
                }
            }
        case .number(let n):
            for k in first..<(first + Int(ins.d)) {
                if case .number(let label) = labels[k].label, label == n {
                    branch = Int(labels[k].branch)
                    break
                }
            }
        default:
            break
        }
        return arguments[Int(ins.b) + branch]
    }

    /// The instruction index of the chosen `case` output, or nil on a non-Boolean condition.
    @inlinable func conditionalBranch<C: ExpressionContext>(_ ins: Instruction, _ c: C) -> Int32? {
        let start = Int(ins.b)
        let pairs = (Int(ins.count) - 1) / 2
        for p in 0..<pairs {
            guard let condition = boolean(arguments[start + 2 * p], c) else { return nil }
            if condition { return arguments[start + 2 * p + 1] }
        }
        return arguments[start + Int(ins.count) - 1]
    }

    /// The Boolean instruction `i` yields, or nil (error or not a Boolean).
    @inlinable func boolean<C: ExpressionContext>(_ i: Int32, _ c: C) -> Bool? {
        let ins = code[Int(i)]
        switch ins.op {
        case .has:
            if let names = c.borrowedMemberNames { return position(ins.a, in: names) != nil }
            return keys.withUnsafeBufferPointer { c.hasProperty($0[Int(ins.a)]) }
        case .not:
            guard let b = boolean(ins.a, c) else { return nil }
            return !b
        case .all, .any:
            let start = Int(ins.b)
            let isAll = ins.op == .all
            for k in start..<(start + Int(ins.count)) {
                guard let b = boolean(arguments[k], c) else { return nil }
                if b != isAll { return b }
            }
            return isAll
        case .compare:
            let lhs = code[Int(ins.a)]
            let rhs = code[Int(ins.b)]
            // `["get", key]` against a constant: no value is built for the constant.
            if lhs.op == .get && (rhs.op == .constant || rhs.op == .number) {
                let v = property(lhs.a, c) ?? .null
                if rhs.op == .number { return Node.compare(ins.comparison, v, .number(rhs.number)) }
                return Node.compare(ins.comparison, v, constants[Int(rhs.a)])
            }
            guard let a = value(ins.a, c), let b = value(ins.b, c) else { return nil }
            return Node.compare(ins.comparison, a, b)
        case .constant:
            if case .bool(let b) = constants[Int(ins.a)] { return b }
            return nil
        case .conditional:
            guard let branch = conditionalBranch(ins, c) else { return nil }
            return boolean(branch, c)
        case .match:
            guard let branch = matchBranch(ins, c) else { return nil }
            return boolean(branch, c)
        case .get, .accumulated, .step:
            if case .bool(let b)? = value(i, c) { return b }
            return nil
        default:
            return nil
        }
    }

    /// The value instruction `i` yields, or nil for an evaluation error.
    @inlinable func value<C: ExpressionContext>(_ i: Int32, _ c: C) -> JSONValue? {
        let ins = code[Int(i)]
        switch ins.op {
        case .constant:
            return constants[Int(ins.a)]
        case .get:
            return property(ins.a, c) ?? .null
        case .accumulated:
            return c.accumulated ?? .null
        case .has, .not, .all, .any, .compare:
            guard let b = boolean(i, c) else { return nil }
            return .bool(b)
        case .conditional:
            guard let branch = conditionalBranch(ins, c) else { return nil }
            return value(branch, c)
        case .match:
            guard let branch = matchBranch(ins, c) else { return nil }
            return value(branch, c)
        case .step:
            guard let x = number(ins.a, c) else { return nil }
            return value(arguments[Int(ins.b) + stepIndex(x, ins)], c)
        default:
            guard let n = number(i, c) else { return nil }
            return .number(n)
        }
    }
}
