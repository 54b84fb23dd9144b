import Foundation

// Runs the plain and the reporter service side by side and prints what linking the reporter
// costs: shared libraries loaded, time from spawn to the end of start() and to listening, idle
// memory (RSS, and apart: what is mapped from files, anonymous, private dirty), and (when given)
// the size of --static-swift-stdlib builds. The targets: private dirty at most 0.5 MiB more, RSS
// at most 3 MiB more (issue 34).
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
/// The environment of run `run`: a state directory of its own. Each launch is killed once
/// measured, and a killed run leaves a report of its abnormal end for the next launch to deliver
/// (docs/runs.md): with one directory for all, every launch but the first would be measured
/// while it delivers, not idle.
func environment(run: Int) -> [String] {
    [
        "CRASH_REPORTER_DIR=\(state)/\(run)",
        // A transport is configured, as in production; with nothing pending it is never contacted.
        "CRASH_REPORTER_URL=http://127.0.0.1:9/api/reports",
        "SWIFT_BACKTRACE=enable=no",
        "PATH=/usr/bin:/bin",
        // A service's usual environment has a home; without one the reporter asks the password
        // database where it is (to shorten it to `~` in reports).
        "HOME=\(NSHomeDirectory())",
    ]
}

// The services were most likely just built: until the kernel writes a file's new pages back, smaps
// counts every page of it a process maps as private dirty memory (megabytes of code that is clean
// in fact). Writing everything back first measures the services as a deployed binary runs.
sync()

let plain = Service(name: "plain SwiftNIO service", path: arguments[0])
let reporter = Service(name: "the same with CrashReporter.start", path: arguments[1])
var samples: [String: [Sample]] = [:]
for run in 0..<runs {
    for service in [plain, reporter] {
        samples[service.path, default: []].append(try service.measure(environment: environment(run: run)))
    }
}

let plainSamples = samples[plain.path]!
let reporterSamples = samples[reporter.path]!
print(
    "| \(runs) fresh processes each, interleaved | shared libraries | spawn to main, ms | "
        + "spawn to ready, ms (median / p90) | spawn to listening, ms | idle RSS, MiB | of it mapped from files "
        + "(code), MiB | anonymous, MiB | private dirty, MiB |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for (service, list) in [(plain, plainSamples), (reporter, reporterSamples)] {
    let columns = [
        "\(list[0].libraries.count)",
        Stats.format(Stats.median(list.map(\.mainMilliseconds)), 2),
        Stats.text(list.map(\.readyMilliseconds)),
        Stats.format(Stats.median(list.map(\.listeningMilliseconds)), 2),
        Stats.format(Stats.median(list.map(\.rssMiB)), 1),
        Stats.format(Stats.median(list.map(\.fileMiB)), 1),
        Stats.format(Stats.median(list.map(\.anonymousMiB)), 1),
        Stats.format(Stats.median(list.map(\.privateDirtyMiB)), 2),
    ]
    print("| \(service.name) | " + columns.joined(separator: " | ") + " |")
}

/// The median of `value` with the reporter minus the median without it.
func delta(_ value: (Sample) -> Double) -> Double {
    Stats.median(reporterSamples.map(value)) - Stats.median(plainSamples.map(value))
}
let extraLibraries = Set(reporterSamples[0].libraries).subtracting(plainSamples[0].libraries).sorted()
let startItself = Stats.median(reporterSamples.map { $0.readyMilliseconds - $0.mainMilliseconds })
print("")
print(
    "Reporter's cost (medians): +\(extraLibraries.count) shared libraries, "
        + "+\(Stats.format(delta(\.readyMilliseconds), 2)) ms to start() returning "
        + "(+\(Stats.format(delta(\.mainMilliseconds), 2)) ms loading before main, "
        + "\(Stats.format(startItself, 2)) ms in start() itself), "
        + "+\(Stats.format(delta(\.rssMiB), 2)) MiB idle RSS "
        + "(+\(Stats.format(delta(\.fileMiB), 2)) MiB of it mapped from files, clean code and read-only data; "
        + "+\(Stats.format(delta(\.anonymousMiB), 2)) MiB anonymous), "
        + "+\(Stats.format(delta(\.privateDirtyMiB), 2)) MiB private dirty.")
print("Libraries it adds: \(extraLibraries.map { ($0 as NSString).lastPathComponent }.joined(separator: ", "))")
if arguments.count == 4 {
    let sizes = arguments[2...3].map { path in
        Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1_048_576
    }
    print("")
    print(
        "--static-swift-stdlib, release: plain \(Stats.format(sizes[0], 1)) MiB, "
            + "with the reporter \(Stats.format(sizes[1], 1)) MiB (+\(Stats.format(sizes[1] - sizes[0], 1)) MiB).")
}
