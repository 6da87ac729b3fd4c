// Printing a tree back to expression JSON. Array and object constants are wrapped in
// `["literal", …]`; everything else prints in the form the parser reads, so parse(print(e)) == e.

extension Node {
    /// The JSON form of this node. O(size of the tree).
    var jsonValue: JSONValue {
        switch self {
        case .literal(let v):
            switch v {
            case .array, .object: return ["literal", v]
            default: return v
            }
        case .get(let key): return ["get", .string(key.name)]
        case .has(let key): return ["has", .string(key.name)]
        case .getDynamic(let k): return ["get", k.jsonValue]
        case .hasDynamic(let k): return ["has", k.jsonValue]
        case .getIn(let k, let o): return ["get", k.jsonValue, o.jsonValue]
        case .hasIn(let k, let o): return ["has", k.jsonValue, o.jsonValue]
        case .id: return ["id"]
        case .geometryType: return ["geometry-type"]
        case .properties: return ["properties"]
        case .zoom: return ["zoom"]
        case .accumulated: return ["accumulated"]
        case .e: return ["e"]
        case .pi: return ["pi"]
        case .ln2: return ["ln2"]
        case .at(let i, let t): return ["at", i.jsonValue, t.jsonValue]
        case .contains(let n, let h): return ["in", n.jsonValue, h.jsonValue]
        case .indexOf(let n, let h, let f):
            var items: [JSONValue] = ["index-of", n.jsonValue, h.jsonValue]
            if let f { items.append(f.jsonValue) }
            return .array(items)
        case .length(let t): return ["length", t.jsonValue]
        case .conditional(let conditions, let outputs, let fallback):
            var items: [JSONValue] = ["case"]
            for (c, o) in zip(conditions, outputs) {
                items.append(c.jsonValue)
                items.append(o.jsonValue)
            }
            items.append(fallback.jsonValue)
            return .array(items)
        case .match(let input, let labels, let outputs, let fallback):
            var items: [JSONValue] = ["match", input.jsonValue]
            for (group, o) in zip(labels, outputs) {
                items.append(group.count == 1 ? group[0].jsonValue : .array(group.map(\.jsonValue)))
                items.append(o.jsonValue)
            }
            items.append(fallback.jsonValue)
            return .array(items)
        case .coalesce(let xs): return .array(["coalesce"] + xs.map(\.jsonValue))
        case .compare(let op, let a, let b): return [.string(op.rawValue), a.jsonValue, b.jsonValue]
        case .not(let x): return ["!", x.jsonValue]
        case .all(let xs): return .array(["all"] + xs.map(\.jsonValue))
        case .any(let xs): return .array(["any"] + xs.map(\.jsonValue))
        case .step(let input, let stops, let outputs):
            var items: [JSONValue] = ["step", input.jsonValue, outputs[0].jsonValue]
            for (s, o) in zip(stops, outputs.dropFirst()) {
                items.append(.number(s))
                items.append(o.jsonValue)
            }
            return .array(items)
        case .interpolate(let curve, let input, let stops, let outputs):
            var items: [JSONValue] = ["interpolate", curve.jsonValue, input.jsonValue]
            for (s, o) in zip(stops, outputs) {
                items.append(.number(s))
                items.append(o.jsonValue)
            }
            return .array(items)
        case .arithmetic(let op, let xs): return .array([.string(op.rawValue)] + xs.map(\.jsonValue))
        case .unary(let op, let x): return [.string(op.rawValue), x.jsonValue]
        case .typeOf(let x): return ["typeof", x.jsonValue]
        case .assertType(let t, let xs): return .array([.string(t.description)] + xs.map(\.jsonValue))
        case .assertArray(let item, let length, let xs):
            var items: [JSONValue] = ["array"]
            if item != .value || length != nil || xs.count > 1 { items.append(.string(item.rawValue)) }
            if let length { items.append(.number(Double(length))) } else if xs.count > 1 { items.append(.null) }
            return .array(items + xs.map(\.jsonValue))
        case .toNumber(let xs): return .array(["to-number"] + xs.map(\.jsonValue))
        case .toString(let x): return ["to-string", x.jsonValue]
        case .toBoolean(let x): return ["to-boolean", x.jsonValue]
        case .concat(let xs): return .array(["concat"] + xs.map(\.jsonValue))
        case .upcase(let x): return ["upcase", x.jsonValue]
        case .downcase(let x): return ["downcase", x.jsonValue]
        case .featureState(let x): return ["feature-state", x.jsonValue]
        case .image(let x): return ["image", x.jsonValue]
        case .numberFormat(let o):
            var options = JSONObject()
            if let l = o.locale { options["locale"] = l.jsonValue }
            if let c = o.currency { options["currency"] = c.jsonValue }
            if let m = o.minFractionDigits { options["min-fraction-digits"] = m.jsonValue }
            if let m = o.maxFractionDigits { options["max-fraction-digits"] = m.jsonValue }
            return ["number-format", o.input.jsonValue, .object(options)]
        case .slice(let x, let start, let end):
            return .array(["slice", x.jsonValue, start.jsonValue] + (end.map { [$0.jsonValue] } ?? []))
        case .format(let sections):
            var items: [JSONValue] = ["format"]
            for section in sections {
                items.append(section.content.jsonValue)
                if let scale = section.scale { items.append(.object(["font-scale": scale.jsonValue])) }
            }
            return .array(items)
        }
    }
}

extension Interpolation {
    /// The JSON form: `["linear"]`, `["exponential", base]` or `["cubic-bezier", x1, y1, x2, y2]`.
    /// O(1).
    public var jsonValue: JSONValue {
        switch self {
        case .linear: ["linear"]
        case .exponential(let base): ["exponential", .number(base)]
        case .cubicBezier(let a, let b, let c, let d): ["cubic-bezier", .number(a), .number(b), .number(c), .number(d)]
        }
    }
}
