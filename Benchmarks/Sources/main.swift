import Foundation

// crash-reporter-benchmarks: every comparison side by side in one run. Build and run
// with scripts/bench.sh (release mode), which writes docs/benchmarks.md from what this prints:
// each table under the `## ` heading that Benchmarks/benchmarks.template.md explains, in every mode too.

let arguments = CommandLine.arguments.dropFirst()
let quick = arguments.contains("--quick")
let crashTest = executableDirectory.appendingPathComponent("crash-test").path
guard FileManager.default.isExecutableFile(atPath: crashTest) else {
    FileHandle.standardError.write(Data("Error: \(crashTest) is missing; run scripts/bench.sh\n".utf8))
    exit(1)
}

if let index = arguments.firstIndex(of: "--symbolication-only") {
    // A report given (`next-launch.py` passes one of a large service), else a deep crash-test one.
    print("## Symbolication\n")
    var path = arguments.dropFirst(index - arguments.startIndex + 1).first
    if path == nil {
        let deep = FileManager.default.temporaryDirectory.appendingPathComponent("bench-deep-\(getpid()).crash")
        _ = try CrashBenchmark.crashOnce(
            binary: crashTest, environment: ["SWIFT_BACKTRACE": "enable=no"], kind: "stack-overflow", keep: deep)
        path = deep.path
    }
    SymbolicationBenchmark.run(reportPath: path!).forEach { print($0) }
    exit(0)
}
if arguments.contains("--slow-clients-only") {
    print("## crashreport watch\n")
    SlowClientsBenchmark.run(collector: executableDirectory.appendingPathComponent("crash-collector").path)
        .forEach { print($0) }
    exit(0)
}
if arguments.contains("--tracking-only") {
    print("## Tracking\n")
    TrackingBenchmark.run().forEach { print($0) }
    exit(0)
}
if arguments.contains("--watch-only") {
    print("## crashreport watch\n")
    // crashreport watch: rename to delivered, and what the cap and retention add to a pass.
    let sample = FileManager.default.temporaryDirectory.appendingPathComponent("bench-watch-\(getpid()).crash")
    _ = try CrashBenchmark.crashOnce(binary: crashTest, environment: ["SWIFT_BACKTRACE": "enable=no"], keep: sample)
    defer { try? FileManager.default.removeItem(at: sample) }
    WatchBenchmark.run(
        crashreport: executableDirectory.appendingPathComponent("crashreport").path,
        collector: executableDirectory.appendingPathComponent("crash-collector").path, reportPath: sample.path,
        reports: quick ? 40 : 200
    ).forEach { print($0) }
    exit(0)
}
if arguments.contains("--encoding-only") {
    print("## Request bodies: Sentry envelope and OTLP log record\n")
    // A report's request body per transport: the Sentry envelope against the OTLP log record.
    let sample = FileManager.default.temporaryDirectory.appendingPathComponent("bench-encoding-\(getpid()).crash")
    _ = try CrashBenchmark.crashOnce(binary: crashTest, environment: ["SWIFT_BACKTRACE": "enable=no"], keep: sample)
    defer { try? FileManager.default.removeItem(at: sample) }
    EncodingBenchmark.run(reportPath: sample.path, iterations: quick ? 50 : 500).forEach { print($0) }
    exit(0)
}
if arguments.contains("--runs-only") {
    print("## Run records\n")
    try RunRecordBenchmark.run(binary: crashTest, runs: quick ? 5 : 40).forEach { print($0) }
    exit(0)
}
if arguments.contains("--pool-watch-only") {
    print("## The pool watch, idle\n")
    try PoolWatchBenchmark.run(binary: crashTest, seconds: quick ? 10 : 60, runs: quick ? 2 : 3).forEach { print($0) }
    print("\n## Snapshots and reserved memory\n")
    try ThreadsBenchmark.snapshots(runs: quick ? 10 : 50).forEach { print($0) }
    exit(0)
}
if arguments.contains("--stderr-copy-only") {
    print("## The crash on stderr\n")
    try StderrCopyBenchmark.run(binary: crashTest, runs: quick ? 5 : 20).forEach { print($0) }
    exit(0)
}
if arguments.contains("--crash-only") {
    // Fault to waitpid beside the peer, the crash path's profile, and every thread.
    print("## Crash: fault to waitpid\n")
    try CrashBenchmark.run(binary: crashTest, runs: quick ? 5 : 40).forEach { print($0) }
    print("\n## Every thread\n")
    try ThreadsBenchmark.crashes(binary: crashTest, runs: quick ? 5 : 20).forEach { print($0) }
    exit(0)
}
if arguments.contains("--start-only") {
    print("## start()\n")
    let sample = FileManager.default.temporaryDirectory.appendingPathComponent("bench-start-\(getpid()).crash")
    _ = try CrashBenchmark.crashOnce(binary: crashTest, environment: ["SWIFT_BACKTRACE": "enable=no"], keep: sample)
    defer { try? FileManager.default.removeItem(at: sample) }
    try StartBenchmark.run(binary: crashTest, runs: quick ? 5 : 30, report: sample).forEach { print($0) }
    exit(0)
}
if arguments.contains("--outbox-only") {
    // Issue 32's before/after figures; Benchmarks/outbox-compare.sh runs two builds interleaved.
    print("## Outboxes\n")
    let sample = FileManager.default.temporaryDirectory.appendingPathComponent("bench-outbox-\(getpid()).crash")
    _ = try CrashBenchmark.crashOnce(binary: crashTest, environment: ["SWIFT_BACKTRACE": "enable=no"], keep: sample)
    defer { try? FileManager.default.removeItem(at: sample) }
    OutboxBenchmark.run(
        crashTest: crashTest, crashreport: executableDirectory.appendingPathComponent("crashreport").path,
        collector: executableDirectory.appendingPathComponent("crash-collector").path, reportPath: sample.path,
        runs: quick ? 3 : 7
    ).forEach { print($0) }
    exit(0)
}
if arguments.contains("--async-only") {
    print("## Async frames: the walk at a crash\n")
    try AsyncBenchmark.run(binary: crashTest, runs: quick ? 5 : 30).forEach { print($0) }
    exit(0)
}
if arguments.contains("--logging-only") {
    print("## swift-log lines as breadcrumbs\n")
    LoggingBenchmark.run().forEach { print($0) }
    exit(0)
}
print("## Breadcrumbs\n")
BreadcrumbBenchmark.run().forEach { print($0) }
if arguments.contains("--breadcrumbs-only") { exit(0) }
print("\n## Tracking\n")
TrackingBenchmark.run().forEach { print($0) }
print("\n## swift-log lines as breadcrumbs\n")
LoggingBenchmark.run().forEach { print($0) }
print("\n## Crash: fault to waitpid\n")
try CrashBenchmark.run(binary: crashTest, runs: quick ? 5 : 40).forEach { print($0) }
print("\n## The crash on stderr\n")
try StderrCopyBenchmark.run(binary: crashTest, runs: quick ? 5 : 20).forEach { print($0) }
if arguments.contains("--threads-only") {
    print("\n## Every thread\n")
    try ThreadsBenchmark.crashes(binary: crashTest, runs: quick ? 5 : 20).forEach { print($0) }
    print("\n## Snapshots and reserved memory\n")
    try ThreadsBenchmark.snapshots(runs: quick ? 10 : 50).forEach { print($0) }
    exit(0)
}
guard let report = CrashBenchmark.keptReport else {
    FileHandle.standardError.write(Data("Error: no report was written\n".utf8))
    exit(1)
}
print("\n## start()\n")
try StartBenchmark.run(binary: crashTest, runs: quick ? 5 : 30, report: report).forEach { print($0) }
print("\n## Run records\n")
try RunRecordBenchmark.run(binary: crashTest, runs: quick ? 5 : 40).forEach { print($0) }
print("\n## Symbolication\n")
let deep = FileManager.default.temporaryDirectory.appendingPathComponent("bench-deep-\(getpid()).crash")
_ = try CrashBenchmark.crashOnce(
    binary: crashTest, environment: ["SWIFT_BACKTRACE": "enable=no"], kind: "stack-overflow", keep: deep)
SymbolicationBenchmark.run(reportPath: deep.path).forEach { print($0) }
print("\n## Request bodies: Sentry envelope and OTLP log record\n")
EncodingBenchmark.run(reportPath: report.path, iterations: quick ? 50 : 500).forEach { print($0) }
print("\n## Collector\n")
CollectorBenchmark.run(
    collector: executableDirectory.appendingPathComponent("crash-collector").path, reportPath: report.path
).forEach { print($0) }
print("\n## crashreport watch\n")
WatchBenchmark.run(
    crashreport: executableDirectory.appendingPathComponent("crashreport").path,
    collector: executableDirectory.appendingPathComponent("crash-collector").path, reportPath: report.path,
    reports: quick ? 40 : 200
).forEach { print($0) }
print("")
SlowClientsBenchmark.run(collector: executableDirectory.appendingPathComponent("crash-collector").path)
    .forEach { print($0) }
print("\n## Async frames: the walk at a crash\n")
try AsyncBenchmark.run(binary: crashTest, runs: quick ? 5 : 30).forEach { print($0) }
print("\n## Every thread\n")
try ThreadsBenchmark.crashes(binary: crashTest, runs: quick ? 5 : 20).forEach { print($0) }
print("\n## The pool watch, idle\n")
try PoolWatchBenchmark.run(binary: crashTest, seconds: quick ? 10 : 60, runs: quick ? 2 : 3).forEach { print($0) }
print("\n## Snapshots and reserved memory\n")
// Last: it starts the reporter in this process.
try ThreadsBenchmark.snapshots(runs: quick ? 10 : 50).forEach { print($0) }
