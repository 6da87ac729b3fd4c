import Foundation

// The evaluator: a recursive walk over the typed tree, generic over the context so that each
// context gets specialised code. `nil` is an evaluation error; `.null` is the JSON null value.

extension Node {
    /// Evaluates this node. O(size of the tree) plus the operators' own costs.
    @inlinable func evaluate<C: ExpressionContext>(_ c: C) -> JSONValue? {
        switch self {
        case .literal(let v):
            return v
        case .get(let key):
            return c.value(forProperty: key) ?? .null
        case .has(let key):
            return .bool(c.hasProperty(key))
        case .getDynamic(let k), .hasDynamic(let k):
            guard case .string(let name)? = k.evaluate(c) else { return nil }
            let v = c.value(forProperty: PropertyKey(name))
            if case .getDynamic = self { return v ?? .null }
            return .bool(v != nil)
        case .getIn(let k, let o), .hasIn(let k, let o):
            guard case .string(let name)? = k.evaluate(c), case .object(let object)? = o.evaluate(c) else { return nil }
            let v = object[name]
            if case .getIn = self { return v ?? .null }
            return .bool(v != nil)
        case .id:
            return c.featureID?.jsonValue ?? .null
        case .geometryType:
            guard let t = c.geometryType else { return .null }
            return .string(t)
        case .properties:
            return .object(c.properties)
        case .zoom:
            return .number(c.zoom)
        case .accumulated:
            return c.accumulated ?? .null
        case .e:
            return .number(M_E)
        case .pi:
            return .number(Double.pi)
        case .ln2:
            return .number(M_LN2)
        case .arithmetic, .unary:
            guard let n = number(c) else { return nil }
            return .number(n)
        case .compare(let op, let l, let r):
            guard let a = l.evaluate(c), let b = r.evaluate(c) else { return nil }
            return Node.compare(op, a, b).map(JSONValue.bool)
        case .not, .all, .any:
            return boolean(c).map(JSONValue.bool)
        case .conditional(let conditions, let outputs, let fallback):
            for i in conditions.indices {
                guard case .bool(let b)? = conditions[i].evaluate(c) else { return nil }
                if b { return outputs[i].evaluate(c) }
            }
            return fallback.evaluate(c)
        case .match(let input, let labels, let outputs, let fallback):
            guard let v = input.evaluate(c) else { return nil }
            if let branch = Node.matchBranch(v, labels) { return outputs[branch].evaluate(c) }
            return fallback.evaluate(c)
        case .coalesce(let args):
            for arg in args {
                guard let v = arg.evaluate(c) else { return nil }
                if !v.isNull { return v }
            }
            return .null
        case .step(let input, let stops, let outputs):
            guard let x = input.number(c) else { return nil }
            return outputs[Node.stepIndex(x, stops)].evaluate(c)
        case .interpolate(let curve, let input, let stops, let outputs):
            guard let x = input.number(c) else { return nil }
            return Node.interpolate(curve, x, stops, outputs, c)
        default:
            return evaluateOther(c)
        }
    }

    /// The fast numeric path: the number this node yields, or `nil` for an error or a non-number.
    /// Arithmetic on numbers never allocates. O(size of the tree).
    @inlinable func number<C: ExpressionContext>(_ c: C) -> Double? {
        switch self {
        case .literal(let v):
            if case .number(let n) = v { return n }
            return nil
        case .get(let key):
            return c.number(forProperty: key)
        case .accumulated:
            if case .number(let n)? = c.accumulated { return n }
            return nil
        case .zoom:
            return c.zoom
        case .arithmetic(let op, let args):
            return Node.arithmetic(op, args, c)
        case .unary(let op, let x):
            guard let v = x.number(c) else { return nil }
            return Node.unary(op, v)
        case .e:
            return M_E
        case .pi:
            return Double.pi
        case .ln2:
            return M_LN2
        case .step(let input, let stops, let outputs):
            guard let x = input.number(c) else { return nil }
            return outputs[Node.stepIndex(x, stops)].number(c)
        case .interpolate(let curve, let input, let stops, let outputs):
            guard let x = input.number(c) else { return nil }
            let n = stops.count
            if n == 1 || x <= stops[0] { return outputs[0].number(c) }
            if x >= stops[n - 1] { return outputs[n - 1].number(c) }
            let i = x.isNaN ? 0 : Node.stepIndex(x, stops) - 1
            guard let a = outputs[i].number(c), let b = outputs[i + 1].number(c) else {
                if case .number(let v)? = Node.interpolate(curve, x, stops, outputs, c) { return v }
                return nil
            }
            let t = curve.factor(x, stops[i], stops[i + 1])
            return a * (1 - t) + b * t
        default:
            if case .number(let n)? = evaluate(c) { return n }
            return nil
        }
    }

    /// The fast Boolean path: the Boolean this node yields, or `nil` for an error or a non-Boolean.
    @inlinable func boolean<C: ExpressionContext>(_ c: C) -> Bool? {
        switch self {
        case .literal(let v):
            if case .bool(let b) = v { return b }
            return nil
        case .not(let x):
            guard let b = x.boolean(c) else { return nil }
            return !b
        case .all(let args):
            for arg in args {
                guard let b = arg.boolean(c) else { return nil }
                if !b { return false }
            }
            return true
        case .any(let args):
            for arg in args {
                guard let b = arg.boolean(c) else { return nil }
                if b { return true }
            }
            return false
        case .has(let key):
            return c.hasProperty(key)
        case .compare(let op, let l, let r):
            // Literal right-hand sides are compared without copying them.
            if case .get(let key) = l, case .literal(let b) = r {
                return Node.compare(op, c.value(forProperty: key) ?? .null, b)
            }
            guard let a = l.evaluate(c), let b = r.evaluate(c) else { return nil }
            return Node.compare(op, a, b)
        default:
            if case .bool(let b)? = evaluate(c) { return b }
            return nil
        }
    }

    /// `+ - * / % ^ min max` over the operands' numbers; `nil` when one is not a number.
    @inlinable static func arithmetic<C: ExpressionContext>(_ op: ArithmeticOperator, _ args: [Node], _ c: C) -> Double? {
        switch op {
        case .add:
            var sum = 0.0
            for arg in args {
                guard let v = arg.number(c) else { return nil }
                sum += v
            }
            return sum
        case .multiply:
            var product = 1.0
            for arg in args {
                guard let v = arg.number(c) else { return nil }
                product *= v
            }
            return product
        case .min, .max:
            guard var result = args[0].number(c) else { return nil }
            for arg in args.dropFirst() {
                guard let v = arg.number(c) else { return nil }
                result = op == .max ? Node.jsMax(result, v) : Node.jsMin(result, v)
            }
            return result
        case .subtract:
            guard let a = args[0].number(c) else { return nil }
            if args.count == 1 { return -a }
            guard let b = args[1].number(c) else { return nil }
            return a - b
        case .divide, .remainder, .power:
            guard let a = args[0].number(c), let b = args[1].number(c) else { return nil }
            switch op {
            case .divide: return a / b
            case .remainder: return a.truncatingRemainder(dividingBy: b)
            default: return Node.jsPow(a, b)
            }
        }
    }

    /// `Math.max` of two numbers (NaN wins; +0 beats −0). O(1).
    @inlinable static func jsMax(_ a: Double, _ b: Double) -> Double {
        if a.isNaN || b.isNaN { return .nan }
        if a == b { return a.sign == .minus ? b : a }
        return a > b ? a : b
    }

    /// `Math.min` of two numbers (NaN wins; −0 beats +0). O(1).
    @inlinable static func jsMin(_ a: Double, _ b: Double) -> Double {
        if a.isNaN || b.isNaN { return .nan }
        if a == b { return a.sign == .minus ? a : b }
        return a < b ? a : b
    }

    /// `Math.pow`: as C `pow`, except that a NaN exponent, or ±1 to an infinite power, is NaN. O(1).
    @inlinable static func jsPow(_ a: Double, _ b: Double) -> Double {
        if b.isNaN { return .nan }
        if b.isInfinite && Swift.abs(a) == 1 { return .nan }
        return Foundation.pow(a, b)
    }

    /// One-operand math functions. `round` rounds halves away from zero. O(1).
    @usableFromInline static func unary(_ op: UnaryMathOperator, _ x: Double) -> Double {
        switch op {
        case .abs: Swift.abs(x)
        case .ceil: x.rounded(.up)
        case .floor: x.rounded(.down)
        case .round: x.rounded(.toNearestOrAwayFromZero)
        case .sqrt: x.squareRoot()
        case .ln: Foundation.log(x)
        case .log10: Foundation.log10(x)
        case .log2: Foundation.log2(x)
        case .sin: Foundation.sin(x)
        case .cos: Foundation.cos(x)
        case .tan: Foundation.tan(x)
        case .asin: Foundation.asin(x)
        case .acos: Foundation.acos(x)
        case .atan: Foundation.atan(x)
        }
    }

    /// Strict comparison: `==`/`!=` never fail; ordering needs two numbers or two strings
    /// (strings compare by UTF-16 code units, as JavaScript does). `nil` on a type mismatch.
    @inlinable static func compare(_ op: ComparisonOperator, _ a: JSONValue, _ b: JSONValue) -> Bool? {
        switch op {
        case .equal: return strictlyEqual(a, b)
        case .notEqual: return !strictlyEqual(a, b)
        default:
            let order: Int
            switch (a, b) {
            case (.number(let x), .number(let y)):
                switch op {
                case .less: return x < y
                case .lessOrEqual: return x <= y
                case .greater: return x > y
                default: return x >= y
                }
            case (.string(let x), .string(let y)):
                order = x.utf8.elementsEqual(y.utf8) ? 0 : (x.utf16.lexicographicallyPrecedes(y.utf16) ? -1 : 1)
            default:
                return nil
            }
            switch op {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        }
    }

    /// JavaScript `===` on JSON values (arrays and objects compare by content). O(size).
    @inlinable static func strictlyEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return sameString(x, y)
        case (.bool(let x), .bool(let y)): return x == y
        case (.null, .null): return true
        case (.array, .array), (.object, .object): return a == b
        default: return false
        }
    }

    /// Code-unit equality (Swift's `==` also equates canonically equivalent strings). O(length).
    /// Equal UTF-8 bytes are equal code units (both encode the same scalars).
    @inlinable static func sameString(_ x: String, _ y: String) -> Bool {
        // The same representation (see PropertyKey+Lookup.swift) is the same string; then
        // lengths; then one pass over the bytes.
        if MemoryLayout<String>.size == MemoryLayout<SIMD2<UInt64>>.size
            && PropertyKey.words(of: x) == PropertyKey.words(of: y) { return true }
        guard x.utf8.count == y.utf8.count else { return false }
        // Equal bytes are canonically equivalent, so Swift's `==` (fast on small ASCII strings)
        // rejects every unequal pair but some equivalent ones with other bytes, checked last.
        guard x == y else { return false }
        return x.utf8.elementsEqual(y.utf8)
    }

    /// The output index of a step: 0 below the first stop, else 1 + the greatest stop ≤ x.
    /// O(log stops).
    @inlinable static func stepIndex(_ x: Double, _ stops: [Double]) -> Int {
        var lo = 0
        var hi = stops.count
        // Count the stops ≤ x (NaN counts none).
        while lo < hi {
            let mid = (lo + hi) >> 1
            if stops[mid] <= x { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The branch whose label equals `v`, if any (a value of another type matches none).
    @inlinable static func matchBranch(_ v: JSONValue, _ labels: [[MatchLabel]]) -> Int? {
        switch v {
        case .string(let s):
            for (i, group) in labels.enumerated() {
                for label in group {
                    if case .string(let l) = label, sameString(l, s) { return i }
                }
            }
        case .number(let n):
            for (i, group) in labels.enumerated() {
                for label in group {
                    if case .number(let l) = label, l == n { return i }
                }
            }
        default:
            break
        }
        return nil
    }

    /// `interpolate` over evaluated outputs: numbers, or arrays of numbers component-wise.
    @inlinable static func interpolate<C: ExpressionContext>(
        _ curve: Interpolation, _ x: Double, _ stops: [Double], _ outputs: [Node], _ c: C
    ) -> JSONValue? {
        let n = stops.count
        if n == 1 || x <= stops[0] { return numeric(outputs[0].evaluate(c)) }
        if x >= stops[n - 1] { return numeric(outputs[n - 1].evaluate(c)) }
        let i = x.isNaN ? 0 : stepIndex(x, stops) - 1
        let t = curve.factor(x, stops[i], stops[i + 1])
        guard let a = outputs[i].evaluate(c), let b = outputs[i + 1].evaluate(c) else { return nil }
        switch (a, b) {
        case (.number(let p), .number(let q)):
            return .number(p * (1 - t) + q * t)
        case (.array(let p), .array(let q)) where p.count == q.count:
            var result: [JSONValue] = []
            result.reserveCapacity(p.count)
            for k in p.indices {
                guard case .number(let u) = p[k], case .number(let v) = q[k] else { return nil }
                result.append(.number(u * (1 - t) + v * t))
            }
            return .array(result)
        default:
            return nil
        }
    }

    /// An output that must be a number or an array of numbers.
    @inlinable static func numeric(_ v: JSONValue?) -> JSONValue? {
        switch v {
        case .number?: return v
        case .array(let items)?: return items.allSatisfy({ $0.numberValue != nil }) ? v : nil
        default: return nil
        }
    }
}

extension Interpolation {
    /// The interpolation factor in [0, 1] of `x` between the stops `lo` and `hi`. O(1) (bezier:
    /// a few Newton steps).
    @inlinable func factor(_ x: Double, _ lo: Double, _ hi: Double) -> Double {
        switch self {
        case .linear:
            return Self.exponentialFactor(x, 1, lo, hi)
        case .exponential(let base):
            return Self.exponentialFactor(x, base, lo, hi)
        case .cubicBezier(let x1, let y1, let x2, let y2):
            let t = Self.exponentialFactor(x, 1, lo, hi)
            return UnitBezier(x1, y1, x2, y2).solve(t)
        }
    }

    @inlinable static func exponentialFactor(_ x: Double, _ base: Double, _ lo: Double, _ hi: Double) -> Double {
        let difference = hi - lo
        let progress = x - lo
        if difference == 0 { return 0 }
        if base == 1 { return progress / difference }
        return (Foundation.pow(base, progress) - 1) / (Foundation.pow(base, difference) - 1)
    }
}

/// The unit cubic Bézier through (0,0), (x1,y1), (x2,y2), (1,1), solved for y given x.
@usableFromInline struct UnitBezier {
    @usableFromInline let ax, bx, cx, ay, by, cy: Double

    @inlinable init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
    }

    @inlinable func x(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    @inlinable func y(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    @inlinable func dx(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// The curve parameter whose x is `target` (Newton's method, then bisection). O(1).
    @inlinable func parameter(forX target: Double, epsilon: Double = 1e-6) -> Double {
        var t = target
        for _ in 0..<8 {
            let error = x(t) - target
            if Swift.abs(error) < epsilon { return t }
            let slope = dx(t)
            if Swift.abs(slope) < 1e-6 { break }
            t -= error / slope
        }
        var lo = 0.0
        var hi = 1.0
        t = target
        if t < lo { return lo }
        if t > hi { return hi }
        for _ in 0..<64 where lo < hi {
            let value = x(t)
            if Swift.abs(value - target) < epsilon { return t }
            if target > value { lo = t } else { hi = t }
            t = (hi - lo) * 0.5 + lo
        }
        return t
    }

    /// y at the x = `progress` point of the curve. O(1).
    @inlinable func solve(_ progress: Double) -> Double { y(parameter(forX: progress)) }
}
