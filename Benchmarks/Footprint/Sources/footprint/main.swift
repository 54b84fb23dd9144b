import Foundation

// Runs the plain and the reporter service side by side and prints what linking the reporter
// costs: shared libraries loaded, time from spawn to the end of start() and to listening, idle
// RSS, and (when given) the size of --static-swift-stdlib builds. The targets: at most 3
// more libraries, 2 ms more to start() returning, 3 MiB more RSS.
//
// Usage: footprint PLAIN REPORTER [STATIC-PLAIN STATIC-REPORTER] [--runs N]

var arguments = Array(CommandLine.arguments.dropFirst())
var runs = 30
if let index = arguments.firstIndex(of: "--runs"), index + 1 < arguments.count {
    runs = Int(arguments[index + 1]) ?? runs
    arguments.removeSubrange(index...index + 1)
}
guard arguments.count == 2 || arguments.count == 4 else {
    FileHandle.standardError.write(
        Data("usage: footprint PLAIN REPORTER [STATIC-PLAIN STATIC-REPORTER] [--runs N]\n".utf8))
    exit(64)
}

let state = FileManager.default.temporaryDirectory.appendingPathComponent("footprint-\(getpid())").path
defer { try? FileManager.default.removeItem(atPath: state) }
let environment = [
    "CRASH_REPORTER_DIR=\(state)",
    // A transport is configured, as in production; with nothing pending it is never contacted.
    "CRASH_REPORTER_URL=http://127.0.0.1:9/api/reports",
    "SWIFT_BACKTRACE=enable=no",
    "PATH=/usr/bin:/bin",
]

let plain = Service(name: "plain SwiftNIO service", path: arguments[0])
let reporter = Service(name: "the same with CrashReporter.start", path: arguments[1])
var samples: [String: [Sample]] = [:]
for _ in 0..<runs {
    for service in [plain, reporter] {
        samples[service.path, default: []].append(try service.measure(environment: environment))
    }
}

let plainSamples = samples[plain.path]!
let reporterSamples = samples[reporter.path]!
print(
    "| \(runs) fresh processes each, interleaved | shared libraries | spawn to ready, ms (median / p90) | spawn to listening, ms (median / p90) | idle RSS, MiB (median) |"
)
print("|---|---:|---:|---:|---:|")
for (service, list) in [(plain, plainSamples), (reporter, reporterSamples)] {
    let ready = list.map(\.readyMilliseconds)
    let listening = list.map(\.listeningMilliseconds)
    print(
        "| \(service.name) | \(list[0].libraries.count) | \(Stats.text(ready)) | \(Stats.text(listening)) | "
            + "\(Stats.format(Stats.median(list.map(\.rssMiB)), 1)) |")
}
let extraLibraries = Set(reporterSamples[0].libraries).subtracting(plainSamples[0].libraries).sorted()
let readyDelta =
    Stats.median(reporterSamples.map(\.readyMilliseconds)) - Stats.median(plainSamples.map(\.readyMilliseconds))
let rssDelta = Stats.median(reporterSamples.map(\.rssMiB)) - Stats.median(plainSamples.map(\.rssMiB))
print("")
print(
    "Reporter's cost (medians): +\(extraLibraries.count) shared libraries, +\(Stats.format(readyDelta, 2)) ms to start() returning, +\(Stats.format(rssDelta, 2)) MiB idle RSS."
)
print("Libraries it adds: \(extraLibraries.map { ($0 as NSString).lastPathComponent }.joined(separator: ", "))")
if arguments.count == 4 {
    let sizes = arguments[2...3].map { path in
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
    }
    print("")
    print(
        "--static-swift-stdlib, release: plain \(Stats.format(Double(sizes[0]) / 1_048_576, 1)) MiB, with the reporter \(Stats.format(Double(sizes[1]) / 1_048_576, 1)) MiB (+\(Stats.format(Double(sizes[1] - sizes[0]) / 1_048_576, 1)) MiB)."
    )
}
