/// The parsed command line of one subcommand: positional arguments and `--name value` options.
///
/// Options take exactly one value, given as `--name value` or `--name=value`; a value may start
/// with `-` (a negative longitude). `--help`/`-h` is the only flag. Unknown and repeated options
/// are usage errors.
struct Arguments {
    var positional: [String] = []
    var options: [String: String] = [:]
    var wantsHelp = false

    init(_ args: [String], known: Set<String>) throws(CLIError) {
        var k = 0
        while k < args.count {
            let a = args[k]
            k += 1
            if a == "--help" || a == "-h" { wantsHelp = true; continue }
            if a == "-" || !a.hasPrefix("-") { positional.append(a); continue }
            guard a.hasPrefix("--") else { throw .usage("unknown option \(a)") }
            var name = String(a.dropFirst(2))
            var value: String? = nil
            if let eq = name.firstIndex(of: "=") {
                value = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard known.contains(name) else { throw .usage("unknown option --\(name)") }
            if value == nil {
                guard k < args.count else { throw .usage("--\(name) needs a value") }
                value = args[k]
                k += 1
            }
            guard options[name] == nil else { throw .usage("--\(name) given twice") }
            options[name] = value
        }
    }

    func string(_ name: String) -> String? { options[name] }

    func int(_ name: String) throws(CLIError) -> Int? {
        guard let s = options[name] else { return nil }
        guard let v = Int(s) else { throw .usage("--\(name) takes a whole number, not '\(s)'") }
        return v
    }

    func double(_ name: String) throws(CLIError) -> Double? {
        guard let s = options[name] else { return nil }
        guard let v = Double(s), v.isFinite else { throw .usage("--\(name) takes a number, not '\(s)'") }
        return v
    }

    /// A comma-separated list of exactly `count` numbers.
    func numbers(_ name: String, count: Int, form: String) throws(CLIError) -> [Double]? {
        guard let s = options[name] else { return nil }
        let parts = s.split(separator: ",", omittingEmptySubsequences: false)
        var out: [Double] = []
        for p in parts {
            guard let v = Double(p.trimmingCharacters(in: " ")), v.isFinite else {
                throw .usage("--\(name) takes \(form), not '\(s)'")
            }
            out.append(v)
        }
        guard out.count == count else { throw .usage("--\(name) takes \(form), not '\(s)'") }
        return out
    }

    func required(_ name: String, _ what: String) throws(CLIError) -> String {
        guard let s = options[name] else { throw .usage("missing --\(name) \(what)") }
        return s
    }

    /// The single input file argument.
    func file(_ command: String) throws(CLIError) -> String {
        guard let f = positional.first else { throw .usage("\(command): missing FILE (a path, or - for stdin)") }
        return f
    }

    /// Fails when there are more positional arguments than `count`.
    func expectPositional(_ count: Int, _ command: String) throws(CLIError) {
        if positional.count > count {
            throw .usage("\(command): unexpected argument '\(positional[count])'")
        }
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s = s.dropFirst() }
        while s.last == set { s = s.dropLast() }
        return String(s)
    }
}
