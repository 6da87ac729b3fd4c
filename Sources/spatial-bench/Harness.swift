import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One measured figure, named as `../shared/spec/performance.md` fixes it.
struct BenchResult: Codable {
    var name: String
    var dataset: String
    var n: Int
    var unit: String
    var median: Double
    var min: Double
    var max: Double
    var runs: Int
    var peak_rss_bytes: Int?
}

/// A figure's body and number of runs, so that it can be timed again beside a reference.
struct Retimer {
    let runs: Int
    let body: () -> Void

    /// Times the body again (one warm-up, then ``runs`` runs) and returns the median in ms.
    func median() -> Double {
        body()
        var samples: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        samples.sort()
        return samples[samples.count / 2]
    }
}

/// A real dataset found on disk: its base name and raw bytes.
struct BenchDataset {
    let name: String
    let url: URL
    let bytes: [UInt8]
}

/// The benchmark run: options, datasets, and the results collected so far.
final class Bench {
    let runs: Int
    let only: String?
    let full: Bool
    let json: Bool
    let datasets: [BenchDataset]
    let dataDirectory: URL?
    private(set) var results: [BenchResult] = []
    /// Called by ``pair(_:dataset:runs:_:)`` with a figure's name, dataset and a way to time its
    /// body again: a reference is timed there, beside the figure, in the process state the figure
    /// itself was measured in. Nil when no reference is paired with figures.
    var pairing: ((_ name: String, _ dataset: String, _ again: Retimer) -> Void)? = nil

    init(runs: Int, only: String?, full: Bool, json: Bool, datasets: [BenchDataset], dataDirectory: URL?) {
        self.runs = runs
        self.only = only
        self.full = full
        self.json = json
        self.datasets = datasets
        self.dataDirectory = dataDirectory
    }

    /// Hands `body` (what the figure `name/dataset` times, `runs` runs) to ``pairing`` when it is
    /// set and the figure is selected. The body is not stored: its captures, such as a 1M-point
    /// input, are let go when the call returns.
    func pair(_ name: String, dataset: String, runs: Int? = nil, _ body: @escaping () -> Void) {
        guard let pairing, wants("\(name)/\(dataset)") || wants(name) else { return }
        pairing(name, dataset, Retimer(runs: Swift.max(1, runs ?? self.runs), body: body))
    }

    /// Whether a figure with this name is selected by `--only`.
    func wants(_ name: String) -> Bool {
        guard let only else { return true }
        return name.contains(only)
    }

    /// The real dataset with this base name, when present.
    func dataset(_ name: String) -> BenchDataset? { datasets.first { $0.name == name } }

    /// Times `body` (one warm-up, then `runs` runs) and records the median, min and max of the
    /// figure that `value` derives from each run's seconds (time in ms by default).
    /// `setup` runs before each run, untimed, and hands its result to `body`.
    @discardableResult
    func measure<T>(
        _ name: String, dataset: String, n: Int, unit: String = "ms",
        runs: Int? = nil, value: ((Double) -> Double)? = nil,
        setup: () -> T, _ body: (T) -> Void
    ) -> BenchResult? {
        let figure = "\(name)/\(dataset)"
        guard wants(figure) || wants(name) else { return nil }
        let count = Swift.max(1, runs ?? self.runs)
        body(setup())  // warm-up
        PeakMemory.reset()
        var samples: [Double] = []
        for _ in 0..<count {
            let input = setup()
            let start = DispatchTime.now().uptimeNanoseconds
            body(input)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            samples.append(value?(seconds) ?? seconds * 1000)
        }
        samples.sort()
        let result = BenchResult(
            name: name, dataset: dataset, n: n, unit: unit,
            median: samples[samples.count / 2], min: samples.first!, max: samples.last!,
            runs: count, peak_rss_bytes: PeakMemory.current())
        record(result)
        return result
    }

    /// Times `body` with no per-run setup.
    @discardableResult
    func measure(
        _ name: String, dataset: String, n: Int, unit: String = "ms",
        runs: Int? = nil, value: ((Double) -> Double)? = nil, _ body: () -> Void
    ) -> BenchResult? {
        measure(name, dataset: dataset, n: n, unit: unit, runs: runs, value: value, setup: { () }, { _ in body() })
    }

    /// Records a figure computed by the caller (for example percentiles of many single queries).
    func record(_ result: BenchResult) {
        results.append(result)
        if !json {
            let rss = result.peak_rss_bytes.map { String(format: "%.1f MB", Double($0) / 1_048_576) } ?? "-"
            let line = tableRow(
                result.name, result.dataset, String(result.n), fmt(result.median), fmt(result.min),
                fmt(result.max), result.unit, rss)
            print(line)
        }
    }

    /// Prints a note for people (not in `--json` mode).
    func note(_ text: String) {
        if json {
            FileHandle.standardError.write(Data((text + "\n").utf8))
        } else {
            print(text)
        }
    }
}

/// Peak resident memory from the OS.
enum PeakMemory {
    /// Resets the peak (Linux: `/proc/self/clear_refs`), so the next reading covers what follows.
    static func reset() {
        #if os(Linux)
        if let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") {
            handle.write(Data("5".utf8))
            try? handle.close()
        }
        #endif
    }

    /// The peak resident set size in bytes since the last reset (Linux: `VmHWM`), or the process
    /// maximum from `getrusage` elsewhere.
    static func current() -> Int? {
        #if os(Linux)
        if let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        {
            let digits = line.split(separator: " ").compactMap { Int($0) }
            if let kb = digits.first { return kb * 1024 }
        }
        return nil
        #else
        var usage = rusage()
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return nil }
        return Int(usage.ru_maxrss)  // bytes on Darwin
        #endif
    }
}

/// The machine, for `--json`.
struct MachineInfo: Codable {
    var cores: Int
    var memory_bytes: UInt64
    var os: String
    var swift: String

    static var current: MachineInfo {
        #if swift(>=6.3)
        let swift = "6.3+"
        #elseif swift(>=6.2)
        let swift = "6.2"
        #elseif swift(>=6.1)
        let swift = "6.1"
        #else
        let swift = "6.0"
        #endif
        let info = ProcessInfo.processInfo
        return MachineInfo(
            cores: info.activeProcessorCount, memory_bytes: info.physicalMemory,
            os: info.operatingSystemVersionString, swift: swift)
    }
}

/// Keeps a value alive and opaque to the optimizer.
@inline(never) func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// One row of the people's table, in fixed-width columns.
func tableRow(_ cells: String...) -> String {
    let widths = [34, 22, 10, 12, 12, 12, 6, 10]
    return zip(cells, widths).enumerated().map { i, pair in
        let (cell, width) = pair
        let pad = String(repeating: " ", count: Swift.max(0, width - cell.count))
        return i >= 2 && i <= 5 ? pad + cell : cell + pad
    }.joined(separator: " ")
}

/// A figure with three decimals.
func fmt(_ value: Double) -> String { String(format: "%.3f", value) }
