/// Whole values: building a ``JSONValue`` and skipping one, both iterative (an explicit stack, so
/// deep nesting is the typed `.tooDeep` error at the limit, never a stack overflow).
extension JSONScanner {
    /// Reads the value that starts at the next non-space byte; `pos` ends after it.
    mutating func parseValue() throws(ReadFailure) -> JSONValue {
        let b = skipWhitespace()
        switch b {
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case UInt8(ascii: "{"), UInt8(ascii: "["): return try parseContainer()
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): return try parseLiteral()
        default: throw notANumber(at: pos)
        }
    }

    /// Reads the array or object at `pos`, and everything nested in it, with the work stacks.
    /// Each object's names are compared in place with the shape of the previous object at the
    /// same depth; only names that depart from it are looked up.
    private mutating func parseContainer() throws(ReadFailure) -> JSONValue {
        let bottom = frames.count
        try openFrame()
        var justOpened = true
        while true {
            // Read the next element of the innermost container, or open a nested one.
            let top = frames.count - 1
            let isObject = frames[top].isObject
            var b = skipWhitespace()
            var value: JSONValue
            if justOpened && b == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                pos += 1
                value = closeFrame()
                if frames.count == bottom { return value }
            } else {
                if isObject {
                    guard b == UInt8(ascii: "\"") else { throw failure(.expectedKey, at: pos) }
                    try readMemberName(frame: top)
                    b = skipWhitespace()
                    guard b == UInt8(ascii: ":") else { throw failure(.expectedColon, at: pos) }
                    pos += 1
                    b = skipWhitespace()
                }
                switch b {
                case UInt8(ascii: "\""): value = .string(try parseString())
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = .number(try parseNumber())
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    try openFrame()
                    justOpened = true
                    continue
                case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): value = try parseLiteral()
                default: throw notANumber(at: pos)
                }
            }
            // Attach the value; then a comma (next element) or the end of one or more containers.
            while true {
                valueStack.push(value)
                b = skipWhitespace()
                if b == UInt8(ascii: ",") {
                    pos += 1
                    justOpened = false
                    break
                }
                guard b == (frames[frames.count - 1].isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    throw failure(.expectedCommaOrEnd, at: pos)
                }
                pos += 1
                value = closeFrame()
                if frames.count == bottom { return value }
            }
        }
    }

    private mutating func openFrame() throws(ReadFailure) {
        let isObject = base[pos] == UInt8(ascii: "{")
        try enterContainer()
        var frame = ContainerFrame(isObject: isObject, valueStart: valueStack.count, keyStart: keyStack.count, shape: shapes.empty)
        if isObject {
            // Predict the shape from the last object under the same member name, or at this
            // depth for array elements.
            if let parent = frames.last, parent.isObject {
                let name = parent.diverged ? keyStack[keyStack.count - 1] : parent.shape.keyIDs[parent.matched - 1]
                while shapeUnderName.count <= Int(name) { shapeUnderName.append(shapes.empty) }
                frame.shape = shapeUnderName[Int(name)]
                frame.context = name
            } else {
                while shapeAtDepth.count < depth { shapeAtDepth.append(shapes.empty) }
                frame.shape = shapeAtDepth[depth - 1]
                frame.context = Int32(-depth)
            }
        }
        frames.append(frame)
    }

    /// Reads the member name at `pos` (on its opening quote) for the object of `frame`.
    @inline(__always) private mutating func readMemberName(frame: Int) throws(ReadFailure) {
        if !frames[frame].diverged {
            let matched = frames[frame].matched
            let shape = frames[frame].shape
            if matched < shape.count, let next = shape.match(matched, base: base, at: pos, end: end) {
                pos = next
                frames[frame].matched = matched + 1
                return
            }
            frames[frame].diverged = true
            keyStack.append(contentsOf: shape.keyIDs[..<matched])
        }
        keyStack.append(try internKey())
    }

    /// Pops the innermost container and builds its value from the work stacks.
    private mutating func closeFrame() -> JSONValue {
        let frame = frames.removeLast()
        depth -= 1
        var values = valueStack.popArray(from: frame.valueStart)
        guard frame.isObject else { return .array(values) }
        if !frame.diverged && frame.matched == frame.shape.count {
            return .object(JSONObject(uniqueKeys: frame.shape.names, values: values))
        }
        var ids = frame.diverged ? Array(keyStack[frame.keyStart...]) : Array(frame.shape.keyIDs[..<frame.matched])
        keyStack.removeSubrange(frame.keyStart...)
        foldRepeatedNames(&ids, values: &values, from: 0)
        let shape = shapes.shape(ids, names: keys)
        if frame.context >= 0 {
            shapeUnderName[Int(frame.context)] = shape
        } else {
            shapeAtDepth[Int(-frame.context) - 1] = shape
        }
        return .object(JSONObject(uniqueKeys: shape.names, values: values))
    }

    /// Reads the member name at `pos` (on its opening quote) and returns its interned number.
    @inline(__always) mutating func internKey() throws(ReadFailure) -> Int32 {
        let raw = try scanString()
        return withUnescapedBytes(raw) { keys.id(of: $0) }
    }

    /// Steps over the value that starts at the next non-space byte, checking its syntax (numbers
    /// by grammar only); `pos` ends after it.
    mutating func skipValue(nonFinite: Bool = false) throws(ReadFailure) {
        var b = skipWhitespace()
        if nonFinite && skipNonFiniteWord() { return }
        switch b {
        case UInt8(ascii: "\""):
            _ = try scanString()
            return
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try skipNumber()
            return
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            _ = try parseLiteral()
            return
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            break
        default:
            throw notANumber(at: pos)
        }
        let bottom = skipStack.count
        skipStack.append(b == UInt8(ascii: "{"))
        try enterContainer()
        var justOpened = true
        while true {
            // Step over the next element of the innermost container, or open a nested one.
            let isObject = skipStack[skipStack.count - 1]
            b = skipWhitespace()
            if justOpened && b == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                pos += 1
                skipStack.removeLast()
                depth -= 1
                if skipStack.count == bottom { return }
            } else {
                if isObject {
                    guard b == UInt8(ascii: "\"") else { throw failure(.expectedKey, at: pos) }
                    _ = try scanString()
                    b = skipWhitespace()
                    guard b == UInt8(ascii: ":") else { throw failure(.expectedColon, at: pos) }
                    pos += 1
                    b = skipWhitespace()
                }
                switch b {
                case _ where nonFinite && skipNonFiniteWord(): break
                case UInt8(ascii: "\""): _ = try scanString()
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try skipNumber()
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    skipStack.append(b == UInt8(ascii: "{"))
                    try enterContainer()
                    justOpened = true
                    continue
                case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): _ = try parseLiteral()
                default: throw notANumber(at: pos)
                }
            }
            // A comma (next element), or the end of one or more containers.
            while true {
                b = skipWhitespace()
                if b == UInt8(ascii: ",") {
                    pos += 1
                    justOpened = false
                    break
                }
                guard b == (skipStack[skipStack.count - 1] ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    throw failure(.expectedCommaOrEnd, at: pos)
                }
                pos += 1
                skipStack.removeLast()
                depth -= 1
                if skipStack.count == bottom { return }
            }
        }
    }

    /// Steps over a `NaN`, `Infinity` or `-Infinity` word at `pos` (see
    /// ``nonFiniteWordLength(at:)``), returning whether there was one. O(1).
    mutating func skipNonFiniteWord() -> Bool {
        guard let n = nonFiniteWordLength(at: pos) else { return false }
        pos += n
        return true
    }

    /// Forgets the work of a value that failed half-way, so that reading can go on at `offset`
    /// with `depth` containers open (used when a reader skips an invalid feature).
    mutating func recover(at offset: Int, depth: Int) {
        pos = offset
        self.depth = depth
        frames.removeAll(keepingCapacity: true)
        valueStack.removeAll()
        keyStack.removeAll(keepingCapacity: true)
        skipStack.removeAll(keepingCapacity: true)
    }
}
