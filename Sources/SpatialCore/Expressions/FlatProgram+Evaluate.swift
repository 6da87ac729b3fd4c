// Evaluation of a FlatProgram: typed entry points (number, Boolean, value) that call each other
// by instruction index; numbers and Booleans never go through a `JSONValue`.

extension FlatProgram {
    /// Evaluates the whole program for an expression of static type `type` (numbers and
    /// Booleans take their typed paths). Only for complete programs.
    @inlinable func evaluate<C: ExpressionContext>(type: ExpressionType, _ c: C) -> JSONValue? {
        // The commonest cluster-property maps, without the dispatch of `value` / `boolean`: a bare
        // `["get", key]` on borrowed members (the member's value, or null).
        let top = code[Int(root)]
        if top.op == .get, let names = c.borrowedMemberNames {
            guard let p = position(top.a, in: names) else { return .null }
            return c.memberValue(at: p)
        }
        // A fused comparison at the root (`["any", ["==", ["get", k], v]]` flattens to one).
        if top.op == .compareGet {
            guard let b = compareGet(top, c) else { return nil }
            return .bool(b)
        }
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
        case .get, .getNumber:
            if let names = c.borrowedMemberNames {
                guard let p = position(ins.a, in: names) else { return nil }
                return c.memberNumber(at: p)
            }
            return c.number(forProperty: keys[Int(ins.a)])
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
            return c.hasProperty(keys[Int(ins.a)])
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
        case .compareGet:
            return compareGet(ins, c)
        case .compare:
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
        case .has, .not, .all, .any, .compare, .compareGet:
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

    /// A fused `["get", key]` compared with a constant (see `Instruction.Op.compareGet`): a
    /// numeric constant is compared with the member's number in place; an absent member is null.
    /// Same results as `Node.compare(_:_:_:)` on the values.
    @inlinable func compareGet<C: ExpressionContext>(_ ins: Instruction, _ c: C) -> Bool? {
        let op = ins.comparison
        guard let names = c.borrowedMemberNames else {
            let v = property(ins.a, c) ?? .null
            return ins.d == 1 ? Node.compare(op, v, .number(ins.number)) : Node.compare(op, v, constants[Int(ins.b)])
        }
        guard let p = position(ins.a, in: names) else {
            return ins.d == 1 ? Node.compare(op, .null, .number(ins.number)) : Node.compare(op, .null, constants[Int(ins.b)])
        }
        if ins.d == 1 {
            guard let x = c.memberNumber(at: p) else {
                // Another type: never equal to a number, and not ordered against one.
                switch op {
                case .equal: return false
                case .notEqual: return true
                default: return nil
                }
            }
            let y = ins.number
            switch op {
            case .equal: return x == y
            case .notEqual: return !(x == y)
            case .less: return x < y
            case .lessOrEqual: return x <= y
            case .greater: return x > y
            case .greaterOrEqual: return x >= y
            }
        }
        let v = c.memberValue(at: p)
        let constant = constants + Int(ins.b)
        if op == .equal || op == .notEqual, case .string(let s) = v, case .string(let k) = constant.pointee {
            return Node.sameString(s, k) == (op == .equal)
        }
        return Node.compare(op, v, constant.pointee)
    }
}
