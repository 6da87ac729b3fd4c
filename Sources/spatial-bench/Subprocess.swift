import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Child processes for the bench (memory probes, the C++ port, the JavaScript references),
/// started with `posix_spawn` rather than Foundation's `Process`.
///
/// Why not `Process`: on Linux, a process that has started children through `Process` often
/// loses the overlap of its later multi-threaded work (the mechanism was not found). The DC build timed after each child
/// (rounds 2–6 of bench runs of six rounds, the child a shell script that only prints): with
/// `Process`, 7 runs, median 2.06 ms, 4 of 35 rounds below 1.8 ms; with `posix_spawn`, 5 runs
/// alternating with those, median 1.57 ms, 18 of 25 below 1.8 ms. The build with its query trees
/// sorted on its own thread takes 2.1 ms, so the children cost the overlap with the build's
/// background thread. Figures timed after a memory probe or the C++ port could carry that cost
/// until this helper replaced `Process` (twenty-sixth section of PERFORMANCE.md).
enum Subprocess {
    /// Runs `executable` (a path) with `arguments`, this process's environment plus `environment`,
    /// and returns what it wrote to standard output, or nil when it cannot start or does not exit
    /// with status 0. Its standard error goes to this process's, or nowhere with
    /// `quiet`. Blocks until the child exits.
    static func output(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], quiet: Bool = false
    ) -> Data? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        let (readEnd, writeEnd) = (fds[0], fds[1])

        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        posix_spawn_file_actions_addclose(&actions, writeEnd)
        if quiet { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }

        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { _, new in new }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        var pid = pid_t()
        let started = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(writeEnd)
        guard started == 0 else {
            close(readEnd)
            return nil
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if n > 0 {
                data.append(contentsOf: buffer[..<n])
            } else if n == 0 || errno != EINTR {
                break
            }
        }
        close(readEnd)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { return nil }
        }
        // Exited normally (no signal: low 7 bits 0) with exit status 0 (bits 8–15).
        return status & 0x7f == 0 && (status >> 8) & 0xff == 0 ? data : nil
    }
}
