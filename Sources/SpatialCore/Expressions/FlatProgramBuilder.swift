// Builds the tables of a FlatProgram from an expression tree, fusing the commonest shapes into
// single instructions (see FlatProgram.swift).

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

    /// A new key-table entry for `key` (one per site, each with its own position hint).
    private mutating func keyIndex(_ key: PropertyKey) -> Int32 {
        keys.append(key)
        return Int32(keys.count - 1)
    }

    /// Whether instruction `i` can only yield a Boolean or an error (never another type), so that
    /// a one-operand `all` / `any` over it may be replaced by it.
    private func isBoolean(_ i: Int32) -> Bool {
        switch code[Int(i)].op {
        case .has, .not, .all, .any, .compare, .compareGet: true
        default: false
        }
    }

    /// A `step` or `interpolate` instruction: `a` the input, `b`/`count` the outputs in
    /// `arguments`, `number` the index of the first stop in `stops` (appended here). O(stops).
    private mutating func compileRamp(_ op: Instruction.Op, input: Node, stops stopValues: [Double], outputs: [Node])
        -> Instruction? {
        guard let inputIndex = compile(input), let (start, count) = compileList(outputs) else { return nil }
        var ins = Instruction(op: op)
        ins.a = inputIndex
        ins.b = start
        ins.count = count
        ins.number = Double(stops.count)
        stops.append(contentsOf: stopValues)
        return ins
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
            ins.a = keyIndex(key)
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
        case .ln2:
            ins = Instruction(op: .number)
            ins.number = 0.6931471805599453
        case .arithmetic(let op, let xs):
            // `max` / `min` of one operand is that operand, which must be a number.
            if (op == .max || op == .min) && xs.count == 1, case .get(let key) = xs[0] {
                ins = Instruction(op: .getNumber)
                ins.a = keyIndex(key)
                break
            }
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
            // `["get", key]` against a constant: one instruction that reads the member in place.
            if case .get(let key) = l, case .literal(let constant) = r {
                ins = Instruction(op: .compareGet)
                ins.comparison = op
                ins.a = keyIndex(key)
                if case .number(let n) = constant {
                    ins.number = n
                    ins.d = 1
                } else {
                    ins.b = Int32(constants.count)
                    constants.append(constant)
                }
                break
            }
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
            // `all` / `any` of one Boolean operand is that operand.
            if count == 1 && isBoolean(arguments[Int(start)]) {
                let only = arguments.removeLast()
                return only
            }
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
            guard let ramp = compileRamp(.step, input: input, stops: stopValues, outputs: outputs) else { return nil }
            ins = ramp
        case .interpolate(let curve, let input, let stopValues, let outputs):
            // Numeric outputs only; arrays of numbers use the tree.
            guard outputs.allSatisfy({ $0.staticType == .number }),
                let ramp = compileRamp(.interpolate, input: input, stops: stopValues, outputs: outputs)
            else { return nil }
            ins = ramp
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
