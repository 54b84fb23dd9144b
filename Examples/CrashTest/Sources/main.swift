import CCrashTestSupport
import CrashReporter
import Foundation
import Tracking

// crash-test: an example service that starts the crash reporter, tracks its own events
// (CrashTestEvent), records a few breadcrumbs and then either exits normally or crashes in
// the way it is told to. See docs/example.md.

let usage = """
    USAGE: crash-test run [--note TEXT] [LABEL...]
           crash-test crash KIND [--note TEXT] [LABEL...]
           crash-test serve SECONDS
           crash-test threads N [--blocked] [--blanket] [KIND]
           crash-test hang SECONDS
           crash-test pool-block TASKS SECONDS
           crash-test idle SECONDS
           crash-test main-actor-block SECONDS
           crash-test oom
           crash-test dlopen-crash LIBRARY
           crash-test track NAME [KEY=VALUE...]
           crash-test consent crash-reporting on|off
           crash-test consent analytics grant|deny
           crash-test kinds

    KIND is one of: \(CrashKind.allCases.map(\.rawValue).joined(separator: ", ")).
    --note records TEXT as a breadcrumb value and a tracked parameter (scrubbed like any
    other). Trailing LABELs are ignored: they only tag the process in `ps`.
    serve stays up for SECONDS, tracking a heartbeat every tick. track tracks one event made
    on the spot (values that read as integers or true/false are sent as such). threads parks
    N named threads in different waits (--blocked: one more with the capture signal blocked by
    name; --blanket: two more with every signal blocked), then crashes by KIND (segfault). hang
    blocks a heartbeat's thread on a lock held for good and exits after SECONDS. pool-block
    blocks TASKS pool threads (0: one per CPU) with tasks that sleep for good and exits after
    SECONDS. main-actor-block drains the main queue, blocks the main actor for good and exits
    after SECONDS. idle waits SECONDS and prints the CPU time it used meanwhile. dlopen-crash opens
    LIBRARY (Examples/CrashTest/Library) after start and crashes inside it. kill -QUIT asks a running crash-test for a snapshot. oom allocates
    and touches memory until the kernel kills it (run it in a memory cgroup with a limit).

    ENVIRONMENT
      CRASH_REPORTER_DIR           the state directory (else the platform's default)
      CRASH_REPORTER_URL           send pending reports to this URL (e.g. the collector's)
      SENTRY_DSN                   send pending reports to Sentry
      EVENTS_API_URL               the events API's base URL (e.g. http://127.0.0.1:8089/v1)
      EVENTS_WRITE_KEY             its write key; analytics need both, and a grant
      TELEMETRYDECK_APP_ID         send analytics to TelemetryDeck as this app (after a grant)
      TELEMETRYDECK_URL            its ingest server (default https://nom.telemetrydeck.com)
      POSTHOG_API_KEY              send analytics to PostHog with this project key (after a grant)
      POSTHOG_HOST                 its host (default https://us.i.posthog.com)
      CRASH_TEST_ANALYTICS_TIMEOUT seconds a command waits at exit for analytics (default 5)
      CRASH_TEST_FLUSH_SECONDS     how often queued analytics are sent (default 30)
      CRASH_TEST_TICK_MS           serve's heartbeat interval in milliseconds (default 1000)
      CRASH_TEST_BREADCRUMBS       breadcrumbs recorded before the crash (default 5)
      CRASH_TEST_PREVIOUS_HANDLER  1: install a SIGSEGV/SIGABRT handler of our own first
      CRASH_TEST_TIMING            1: print how long start() took (wall clock, and this thread's
                                   CPU time) and the memory it reserved
      CRASH_TEST_LAST_RUN          1: print how the previous run ended (CrashReporter.lastRun)
      CRASH_TEST_PARK_ALL_SLEEPING 1: threads parks every thread in a sleep (the benchmark)
      CRASH_TEST_EXTRA_THREAD_NAME threads starts one more thread with this name (privacy tests)
      CRASH_TEST_SELF_QUIT_MS      serve: send itself SIGQUIT (a snapshot) this long after starting
      CRASH_TEST_SNAPSHOT_REASON   serve: call CrashReporter.snapshot(reason:) with it after 200 ms;
                                   pool-block: once the tasks block
      CRASH_TEST_EARLY_BLANKET     1: a thread `early-blanket` blocks every signal before start()
      CRASH_TEST_IDLE_POOL         idle: 1 runs one task first (the pool in use, as in an async service)
      CRASH_TEST_FAULT_TIME_FD     a descriptor to write CLOCK_MONOTONIC (ns) to just before
                                   crashing, or before run exits (the benchmark measures it
                                   to waitpid)
      CRASH_TEST_PROFILE_FD        a descriptor for the crash handler's phase times (the
                                   benchmark's profile of the crash path)
      CRASH_TEST_BREADCRUMB_THREADS crash: N threads record breadcrumbs without pause meanwhile
      CRASH_TEST_WAIT_UNTIL_GONE   crash: wait until this path is gone first (30 s at most)
      CRASH_TEST_FILL_DESCRIPTORS  crash: 1 fills the descriptor table first
      CRASH_TEST_ASYNC_DEPTH       crash async-deep: how many awaits deep it faults (default 100)
      CRASH_TEST_TASK_NAME         crash async-crash: the task's name (default orders for alice@example.com)
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

/// Makes the tracker on the crash reporter's state directory and installs it for `track`.
func bootstrapAnalytics() -> Analytics {
    Analytics.bootstrap(stateDirectory: stateDirectory(), environment: environment)
}

guard let command = arguments.first else { fail("missing command") }

var kind: CrashKind?
var serveSeconds: Double?
var trackedSignal: NamedEvent?
var threadsCommand: (count: Int, blocked: Bool, blanket: Bool, kind: CrashKind)?
var hangSeconds: Double?
var poolBlock: (tasks: Int, seconds: Double)?
var idleSeconds: Double?
var mainActorBlockSeconds: Double?
var libraryPath: String?
var allocateUntilKilled = false
switch command {
case "kinds":
    for kind in CrashKind.allCases { print(kind.rawValue) }
    exit(0)
case "-h", "--help":
    print(usage)
    exit(0)
case "consent":
    switch arguments.count == 3 ? (arguments[1], arguments[2]) : ("", "") {
    case ("crash-reporting", "on"), ("crash-reporting", "off"):
        setCrashReporting(enabled: arguments[2] == "on")
    case ("analytics", "grant"), ("analytics", "deny"):
        setAnalytics(granted: arguments[2] == "grant")
    default:
        fail("expected: consent crash-reporting on|off, or consent analytics grant|deny")
    }
case "run":
    break
case "serve":
    guard arguments.count == 2, let seconds = Double(arguments[1]), seconds >= 0 else {
        fail("expected: serve SECONDS")
    }
    serveSeconds = seconds
case "threads":
    var rest = Array(arguments.dropFirst())
    let blocked = rest.contains("--blocked")
    let blanket = rest.contains("--blanket")
    rest.removeAll { $0 == "--blocked" || $0 == "--blanket" }
    guard let first = rest.first, let count = Int(first), (0...1000).contains(count), rest.count <= 2 else {
        fail("expected: threads N [--blocked] [--blanket] [KIND]")
    }
    guard let crashKind = CrashKind(rawValue: rest.count == 2 ? rest[1] : "segfault") else {
        fail("unknown crash kind '\(rest[1])'")
    }
    threadsCommand = (count, blocked, blanket, crashKind)
case "hang":
    guard arguments.count == 2, let seconds = Double(arguments[1]), seconds >= 0 else { fail("expected: hang SECONDS") }
    hangSeconds = seconds
case "pool-block":
    guard arguments.count == 3, let tasks = Int(arguments[1]), (0...256).contains(tasks),
        let seconds = Double(arguments[2]), seconds >= 0
    else { fail("expected: pool-block TASKS SECONDS") }
    poolBlock = (tasks, seconds)
case "main-actor-block":
    guard arguments.count == 2, let seconds = Double(arguments[1]), seconds >= 0 else {
        fail("expected: main-actor-block SECONDS")
    }
    mainActorBlockSeconds = seconds
case "idle":
    guard arguments.count == 2, let seconds = Double(arguments[1]), seconds >= 0 else { fail("expected: idle SECONDS") }
    idleSeconds = seconds
case "oom":
    allocateUntilKilled = true
case "dlopen-crash":
    guard arguments.count == 2 else { fail("expected: dlopen-crash LIBRARY") }
    libraryPath = arguments[1]
case "track":
    guard arguments.count >= 2 else { fail("expected: track NAME [KEY=VALUE...]") }
    trackedSignal = NamedEvent(arguments[1], parameters: parseParameters(arguments.dropFirst(2)))
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
if kind == .earlyThreadStackOverflow {
    startEarlyThread()  // before start(), as an event loop a service starts first
}
if environment["CRASH_TEST_EARLY_BLANKET"] == "1" {
    startEarlyBlanketThread()  // before start(), as a Dispatch worker an async main runs on
}

// A crash command tracks its events before the crash reporter starts: the breadcrumb ring
// records nothing before start(), so they reach analytics only and the report's breadcrumbs
// stay the ones below (docs/example.md says why). Every other command starts the crash
// reporter first, as a service should.
var analytics: Analytics?
if let kind {
    analytics = bootstrapAnalytics()
    track(CrashTestEvent.appLaunched(command: .crash))
    track(CrashTestEvent.crashRequested(kind: kind))
}

do {
    let clock = ContinuousClock()
    let cpuBefore = threadCPUNanoseconds()
    let began = clock.now
    let status = try CrashReporter.start(Options(appName: "crash-test", appVersion: crashTestVersion, appBuild: "1"))
    let took = clock.now - began
    let cpu = threadCPUNanoseconds() - cpuBefore
    if case .optedOut = status { print("crash-test: crash reporting is opted out") }
    if environment["CRASH_TEST_TIMING"] == "1" {
        let ns = took.components.seconds * 1_000_000_000 + took.components.attoseconds / 1_000_000_000
        print("start_ns=\(ns) start_cpu_ns=\(cpu) reserved_bytes=\(CrashReporter.reservedBytes)")
    }
} catch {
    FileHandle.standardError.write(Data("crash-test: crash reporting is off: \(error)\n".utf8))
}

reporterStarted.store(true, ordering: .sequentiallyConsistent)
if environment["CRASH_TEST_LAST_RUN"] == "1" {
    printLastRun()
}
if allocateUntilKilled {
    allocateMemoryUntilKilled()
}
if let serveSeconds {
    serve(seconds: serveSeconds)
}
if let threadsCommand {
    crashWithParkedThreads(
        count: threadsCommand.count, blocked: threadsCommand.blocked, blanket: threadsCommand.blanket,
        kind: threadsCommand.kind)
}
if let poolBlock {
    blockPool(tasks: poolBlock.tasks, seconds: poolBlock.seconds)
}
if let idleSeconds {
    idle(seconds: idleSeconds)
}
if let mainActorBlockSeconds {
    blockMainActor(seconds: mainActorBlockSeconds)
}
if let hangSeconds {
    hang(seconds: hangSeconds)
}
if let libraryPath {
    crashInOpenedLibrary(path: libraryPath)
}
if let trackedSignal {
    let analytics = bootstrapAnalytics()
    track(trackedSignal)
    analytics.shutdown()
    exit(0)
}

if analytics == nil {
    analytics = bootstrapAnalytics()
    track(CrashTestEvent.appLaunched(command: .run))
}
let count = Int(environment["CRASH_TEST_BREADCRUMBS"] ?? "") ?? 5
for i in 0..<count {
    Breadcrumbs.record("step.\(i)", category: "crash-test", data: [("index", String(i))])
    if kind == nil { track(CrashTestEvent.stepCompleted(index: i)) }
}
if let note {
    Breadcrumbs.record("note", category: "crash-test", level: .warning, data: [("text", note)])
    if kind == nil { track(CrashTestEvent.noteAdded(text: note)) }
}

guard let kind else {
    // A real service would go on serving; this one waits for the reports of earlier crashes
    // to be delivered (when a transport is configured) and exits. The wait ends when the pass
    // does; 45 s bounds a pass that symbolicates under a sanitizer on a loaded machine.
    let summary = CrashReporter.waitForDelivery(timeout: .seconds(45))
    if let summary {
        print(
            "crash-test: delivered \(summary.delivered.count), rejected \(summary.rejected.count), "
                + "kept for retry \(summary.retrying.count)")
    }
    track(CrashTestEvent.runFinished(steps: max(0, count), reportsDelivered: summary?.delivered.count ?? 0))
    analytics?.shutdown()
    print("crash-test: ran normally")
    markFaultTime()  // the benchmark times a clean exit as it times a crash
    exit(0)
}
Breadcrumbs.record("crash.\(kind.rawValue)", category: "crash-test", level: .error)
prepareFaultConditions()
if !kind.marksItsFaultTime { markFaultTime() }
kind.perform()
