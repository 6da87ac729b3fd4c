import Foundation

// spatial: the command-line face of SpatialCore. Every subcommand is a thin layer over the
// library; errors print one line on stderr and exit with the code `spatial --help` documents.

/// Buffered stdout: whole lines, flushed at exit.
final class Output {
    private var buffer: [UInt8] = []
    func line(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        buffer.append(0x0A)
        if buffer.count > 1 << 20 { flush() }
    }
    func flush() {
        guard !buffer.isEmpty else { return }
        FileHandle.standardOutput.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }
}

let subcommands: [String: ([String], (String) -> Void) throws(CLIError) -> Void] = [
    "clusters": ClusterCommands.clusters,
    "children": ClusterCommands.children,
    "leaves": ClusterCommands.leaves,
    "expansion-zoom": ClusterCommands.expansionZoom,
    "tile": ClusterCommands.tile,
    "query": SceneCommands.query,
    "render": SceneCommands.render,
]

@MainActor func run(_ argv: [String], _ output: Output) throws(CLIError) {
    guard let name = argv.first else { throw .usage("missing subcommand (try spatial --help)") }
    if name == "--help" || name == "-h" || name == "help" {
        output.line(Help.tool)
        return
    }
    guard let command = subcommands[name] else {
        throw .usage("unknown subcommand '\(name)' (try spatial --help)")
    }
    try command(Array(argv.dropFirst()), output.line)
}

let output = Output()
do {
    try run(Array(CommandLine.arguments.dropFirst()), output)
    output.flush()
} catch {
    output.flush()
    FileHandle.standardError.write(Data("spatial: \(error.message)\n".utf8))
    exit(error.code.rawValue)
}
