import Foundation
import SpatialCore

/// Runs the built `spatial` executable as a subprocess (the test target depends on it, so it is
/// built next to the test bundle).
enum CLIRunner {
    struct Result {
        var status: Int32
        var stdout: [UInt8]
        var stderr: String
        var text: String { String(decoding: stdout, as: UTF8.self) }
        /// The stdout lines, without the final empty one.
        var lines: [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0).map { $0 } }
    }

    /// The executable: beside the test bundle (Linux: the `.xctest` file; macOS: inside the
    /// bundle), else in `.build/debug`; `nil` with a note when it is missing.
    static let executable: URL? = {
        var candidates: [URL] = []
        let argv0 = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).standardizedFileURL
        var dir = argv0.deletingLastPathComponent()
        for _ in 0 ..< 4 {
            candidates.append(dir.appendingPathComponent("spatial"))
            dir = dir.deletingLastPathComponent()
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("spatial"))
        }
        candidates.append(TestData.packageRoot.appendingPathComponent(".build/debug/spatial"))
        for c in candidates where FileManager.default.isExecutableFile(atPath: c.path) {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: c.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return c
            }
        }
        FileHandle.standardError.write(Data("note: the spatial executable was not found beside the tests (swift build --product spatial); the CLI tests are skipped\n".utf8))
        return nil
    }()

    /// Runs `spatial arguments…` with `stdin` bytes (when given); output goes through temporary
    /// files so that large outputs cannot block the pipe.
    static func run(_ arguments: [String], stdin: [UInt8]? = nil) throws -> Result? {
        guard let executable else { return nil }
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("spatial-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let outURL = tmp.appendingPathComponent("out")
        let errURL = tmp.appendingPathComponent("err")
        let inURL = tmp.appendingPathComponent("in")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: inURL.path, contents: Data(stdin ?? []))
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let input = try FileHandle(forReadingFrom: inURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        try input.close()
        let stdout = [UInt8](try Data(contentsOf: outURL))
        let stderr = String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
        return Result(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }

    /// The path of a real dataset, or `nil` (with a note) when it is absent.
    static func datasetPath(_ file: String) -> String? {
        let url = TestData.datasetsDirectory.appendingPathComponent(file)
        guard FileManager.default.fileExists(atPath: url.path) else {
            _ = TestData.dataset(file)  // prints the note
            return nil
        }
        return url.path
    }

    /// A parsed JSON document of the output (exact doubles).
    static func json(_ bytes: some Collection<UInt8>) -> [String: Any]? {
        ClusterTestSupport.parse(Array(bytes)) as? [String: Any]
    }
}
