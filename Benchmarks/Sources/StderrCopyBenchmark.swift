import CCrashReporter
import CrashReporterSupport
import Foundation

/// A child's stderr read to its end on a thread of its own, as a log agent reads a container's.
final class StderrDrain: @unchecked Sendable {
    private let fd: Int32
    private let done = DispatchSemaphore(value: 0)
    private var bytes = 0

    init(fd: Int32) {
        self.fd = fd
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let count = try? SystemCall.run("read") { read(fd, &buffer, buffer.count) }
                guard let n = count, n > 0 else { break }
                bytes += n
            }
            done.signal()
        }
    }

    /// Waits for the end of the stream; the bytes read. Closes the descriptor.
    func finish() -> Int {
        done.wait()
        close(fd)
        return bytes
    }
}

/// What the crash's copy on stderr costs (CShims/stderr_copy.c): fault to waitpid with
/// CRASH_REPORTER_STDERR off, summary and report, interleaved run by run, stderr a pipe that a
/// thread drains; for the usual crash and one with 64 other threads (a report of many lines).
enum StderrCopyBenchmark {
    static func run(binary: String, runs: Int) throws -> [String] {
        let base = [
            "PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory(), "CRASH_TEST_LAST_RUN": "1",
            "SWIFT_BACKTRACE": "enable=no",
        ]
        let modes = ["off", "summary", "report"]
        let crashes: [(label: String, arguments: [String]?)] = [
            ("segfault, 100 breadcrumbs", nil), ("64 other threads", ["threads", "64", "segfault"]),
        ]
        var lines = [
            "| fault to waitpid (\(runs) runs each, interleaved), µs | CRASH_REPORTER_STDERR | median | p90 | min "
                + "| handler, entered to chaining (median) | of which the copy, after the run record (median) "
                + "| stderr bytes |",
            "|---|---|---|---|---|---|---|---|",
        ]
        var extra: [String] = []
        for crash in crashes {
            var samples = Array(repeating: [Double](), count: modes.count)
            var bytes = Array(repeating: 0, count: modes.count)
            var handler = Array(repeating: [Double](), count: modes.count)
            var copy = Array(repeating: [Double](), count: modes.count)
            for _ in 0..<runs {
                for (i, mode) in modes.enumerated() {
                    let run = try CrashBenchmark.crashOnce(
                        binary: binary, environment: base.merging(["CRASH_REPORTER_STDERR": mode]) { $1 },
                        arguments: crash.arguments, profile: true, stderrPipe: true)
                    samples[i].append(run.microseconds)
                    if let profile = run.profile {
                        handler[i].append(
                            (profile.mark(SCR_PROFILE_CHAINING) - profile.mark(SCR_PROFILE_ENTERED)) / 1000)
                        copy[i].append((profile.mark(SCR_PROFILE_CHAINING) - profile.mark(SCR_PROFILE_RECORDED)) / 1000)
                    }
                    bytes[i] = max(bytes[i], run.stderrBytes)
                }
            }
            for (i, mode) in modes.enumerated() {
                let s = Stats(samples: samples[i])
                lines.append(
                    "| \(crash.label) | `\(mode)` | \(format(s.median, 0)) | \(format(s.p90, 0)) | \(format(s.min, 0)) "
                        + "| \(format(Stats(samples: handler[i]).median, 0)) | \(format(Stats(samples: copy[i]).median, 0)) "
                        + "| \(bytes[i]) |")
            }
            let cost = Stats(samples: samples[2]).median - Stats(samples: samples[0]).median
            let inHandler = Stats(samples: handler[2]).median - Stats(samples: handler[0]).median
            extra.append(
                "The copy's cost, \(crash.label) (report − off, medians): \(format(cost, 0)) µs fault to waitpid, "
                    + "\(format(inHandler, 0)) µs in the handler.")
        }
        return lines + [""] + extra
    }
}
