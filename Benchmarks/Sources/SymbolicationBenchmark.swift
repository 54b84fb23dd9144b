import CrashReportFormat
import CrashSymbolication
import Foundation

/// Symbolicating a report: `Symbolicator` (the module's own reader, in process) against
/// `llvm-symbolizer` piped into `swift-demangle` from the toolchain, for the same frames of the
/// same images. The report is cut to its 30 innermost frames (a deep stack: `crash-test crash
/// stack-overflow`). The first run opens the files; the others are a second report of the same
/// build in the same process, as in the collector.
enum SymbolicationBenchmark {
    static let frameCount = 30
    static let runs = 10

    static func run(reportPath: String) -> [String] {
        let report: CrashReport
        do {
            report = try ReportDecoding.decode(file: reportPath)
        } catch {
            return ["Cannot read \(reportPath): \(error)"]
        }
        guard var crash = report.crash else {
            return ["\(reportPath) is a \(report.kind.rawValue) report, not a crash"]
        }
        // The crash's frames and its thread's (the same) are looked up once each.
        crash.frames = Array(crash.frames.prefix(frameCount))
        var trimmed = report
        trimmed.crash = crash
        trimmed.threads = [CrashReport.CapturedThread(crashing: crash)]
        let frames = crash.frames
        let symbolicator = Symbolicator()
        let clock = ContinuousClock()

        var ours: [Double] = []
        var resolved = 0
        for _ in 0..<runs {
            var symbols = ReportSymbols()
            let elapsed = clock.measure { symbols = symbolicator.symbolicate(trimmed) }
            ours.append(nanoseconds(elapsed) / 1e6)
            resolved = symbols.crash.count
        }

        // The same lookups for the command-line tools: `CODE <file> <address in the file>`.
        let input =
            frames.compactMap { frame -> String? in
                guard let image = trimmed.image(of: frame), let path = symbolicator.localPath(of: image),
                    let offset = image.offset(of: frame.lookupAddress)
                else { return nil }
                return "CODE \(path) 0x\(String(offset, radix: 16))"
            }.joined(separator: "\n") + "\n"
        let tools = "/opt/swift/usr/bin"
        var theirs: [Double] = []
        var toolLines = 0
        for _ in 0..<runs {
            var output = ""
            let elapsed = clock.measure {
                output = shell("\(tools)/llvm-symbolizer --inlining | \(tools)/swift-demangle", input: input)
            }
            theirs.append(nanoseconds(elapsed) / 1e6)
            toolLines = output.split(separator: "\n").count
        }
        let (a, b) = (Stats(samples: ours), Stats(samples: theirs))
        let distinct = Set(frames.map { "\($0.ip.hex) \($0.trust)" }).count
        return [
            "\(frames.count) frames, \(distinct) distinct; both look up all \(frames.count)"
                + " (the symbolicator looks each distinct frame up once).",
            "",
            "| \(frames.count)-frame report | first run | median of \(runs) | frames with a symbol |",
            "|---|---:|---:|---:|",
            "| `Symbolicator` (in process) | \(format(ours[0])) ms | \(format(a.median)) ms | \(resolved) |",
            "| `llvm-symbolizer` + `swift-demangle` | \(format(theirs[0])) ms | \(format(b.median)) ms | (\(toolLines) output lines) |",
        ]
    }

    /// Runs `command` with `sh -c`, feeding `input`, and returns its standard output.
    private static func shell(_ command: String, input: String) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return "" }
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
