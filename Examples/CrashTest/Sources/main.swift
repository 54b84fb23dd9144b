import CCrashTestSupport
import CrashReporter
import Foundation

// crash-test: an example service that starts the crash reporter, records a few
// breadcrumbs and then either exits normally or crashes in the way it is told to.

let usage = """
    USAGE: crash-test run [--note TEXT] [LABEL...]
           crash-test crash KIND [--note TEXT] [LABEL...]
           crash-test consent crash-reporting on|off
           crash-test kinds

    KIND is one of: \(CrashKind.allCases.map(\.rawValue).joined(separator: ", ")).
    --note records TEXT as a breadcrumb value (scrubbed like any other). Trailing LABELs are
    ignored: they only tag the process in `ps`.

    ENVIRONMENT
      CRASH_REPORTER_DIR           the state directory (else the platform's default)
      CRASH_REPORTER_URL           send pending reports to this URL (e.g. the collector's)
      SENTRY_DSN                   send pending reports to Sentry
      CRASH_TEST_BREADCRUMBS       breadcrumbs recorded before the crash (default 5)
      CRASH_TEST_PREVIOUS_HANDLER  1: install a SIGSEGV/SIGABRT handler of our own first
      CRASH_TEST_TIMING            1: print how long start() took and the memory it reserved
      CRASH_TEST_FAULT_TIME_FD     a descriptor to write CLOCK_MONOTONIC (ns) to just before
                                   crashing (the benchmark measures fault to waitpid)
    """

let environment = ProcessInfo.processInfo.environment
var arguments = Array(CommandLine.arguments.dropFirst())
var note: String?
if let i = arguments.firstIndex(of: "--note"), i + 1 < arguments.count {
    note = arguments[i + 1]
    arguments.removeSubrange(i...(i + 1))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("Error: \(message)\n\n\(usage)\n".utf8))
    exit(64)
}

func stateDirectory() -> String {
    StateDirectory.resolve(appName: "crash-test")
}

guard let command = arguments.first else { fail("missing command") }

var kind: CrashKind?
switch command {
case "kinds":
    for kind in CrashKind.allCases { print(kind.rawValue) }
    exit(0)
case "-h", "--help":
    print(usage)
    exit(0)
case "consent":
    guard arguments.count == 3, arguments[1] == "crash-reporting", ["on", "off"].contains(arguments[2]) else {
        fail("expected: consent crash-reporting on|off")
    }
    do {
        try CrashReportingConsent.set(enabled: arguments[2] == "on", stateDirectory: stateDirectory())
        print("crash-test: crash reporting \(arguments[2])")
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
        exit(1)
    }
case "run":
    break
case "crash":
    guard arguments.count >= 2 else { fail("missing crash kind") }
    guard let parsed = CrashKind(rawValue: arguments[1]) else { fail("unknown crash kind '\(arguments[1])'") }
    kind = parsed
default:
    fail("unknown command '\(command)'")
}

if environment["CRASH_TEST_PREVIOUS_HANDLER"] == "1" {
    crash_test_install_previous_handler()
}

do {
    let clock = ContinuousClock()
    let began = clock.now
    let status = try CrashReporter.start(Options(appName: "crash-test", appVersion: "1.0.0", appBuild: "1"))
    let took = clock.now - began
    if case .optedOut = status { print("crash-test: crash reporting is opted out") }
    if environment["CRASH_TEST_TIMING"] == "1" {
        let ns = took.components.seconds * 1_000_000_000 + took.components.attoseconds / 1_000_000_000
        print("start_ns=\(ns) reserved_bytes=\(CrashReporter.reservedBytes)")
    }
} catch {
    FileHandle.standardError.write(Data("crash-test: crash reporting is off: \(error)\n".utf8))
}

let count = Int(environment["CRASH_TEST_BREADCRUMBS"] ?? "") ?? 5
for i in 0..<count {
    Breadcrumbs.record("step.\(i)", category: "crash-test", data: [("index", String(i))])
}
if let note {
    Breadcrumbs.record("note", category: "crash-test", level: .warning, data: [("text", note)])
}

guard let kind else {
    // A real service would go on serving; this one waits for the reports of earlier crashes
    // to be delivered (when a transport is configured) and exits.
    if let summary = CrashReporter.waitForDelivery(timeout: 20) {
        print(
            "crash-test: delivered \(summary.delivered.count), rejected \(summary.rejected.count), "
                + "kept for retry \(summary.retrying.count)")
    }
    print("crash-test: ran normally")
    exit(0)
}
Breadcrumbs.record("crash.\(kind.rawValue)", category: "crash-test", level: .error)
if let fd = environment["CRASH_TEST_FAULT_TIME_FD"].flatMap({ Int32($0) }) {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    var ns = UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    _ = write(fd, &ns, 8)
}
kind.perform()
