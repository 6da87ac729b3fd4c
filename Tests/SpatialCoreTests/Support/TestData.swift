import Foundation

/// Where the tests find the real datasets and the oracle outputs.
///
/// Datasets: `$SPATIAL_DATASETS`, else `../shared/datasets` beside the package root.
/// Oracle: `$SPATIAL_ORACLE`, else `../shared/oracle`. Neither is ever committed into the project.
enum TestData {
    /// The package root, found from this file's path.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // SpatialCoreTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    static var datasetsDirectory: URL {
        if let path = ProcessInfo.processInfo.environment["SPATIAL_DATASETS"], !path.isEmpty {
            return URL(fileURLWithPath: path, relativeTo: packageRoot).standardizedFileURL
        }
        return packageRoot.appendingPathComponent("../shared/datasets").standardizedFileURL
    }

    static var oracleDirectory: URL {
        if let path = ProcessInfo.processInfo.environment["SPATIAL_ORACLE"], !path.isEmpty {
            return URL(fileURLWithPath: path, relativeTo: packageRoot).standardizedFileURL
        }
        return packageRoot.appendingPathComponent("../shared/oracle").standardizedFileURL
    }

    /// The bytes of a real dataset, or `nil` (with a note on stderr) when it is absent.
    static func dataset(_ file: String) -> [UInt8]? {
        load(datasetsDirectory.appendingPathComponent(file), what: "dataset")
    }

    /// The bytes of an oracle file, or `nil` (with a note on stderr) when it is absent.
    static func oracle(_ file: String) -> [UInt8]? {
        load(oracleDirectory.appendingPathComponent(file), what: "oracle file")
    }

    /// An oracle file parsed with Foundation (tests only; the library has its own reader).
    static func oracleJSON(_ file: String) -> Any? {
        guard let bytes = oracle(file) else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }

    private static func load(_ url: URL, what: String) -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            FileHandle.standardError.write(Data(
                "note: \(what) \(url.lastPathComponent) is absent at \(url.deletingLastPathComponent().path) (set SPATIAL_DATASETS / SPATIAL_ORACLE); the tests that need it are skipped\n".utf8))
            return nil
        }
        return [UInt8](data)
    }
}
