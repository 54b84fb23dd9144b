import CrashReportFormat
import Foundation
import Testing

/// What each `crash-test crash KIND` must leave behind.
struct CrashExpectation: Sendable, CustomTestStringConvertible {
    var kind: String
    var signal: Int32
    var codeName: String
    /// A name that must appear in the symbol of at least one frame in the executable.
    var function: String
    var message: String? = nil
    /// -O code traps without calling the runtime for precondition failures (the reason is then
    /// only in the debug info, for the symbolicator); fatalError always records its message.
    var messageInRelease = true
    var mainThread = true
    var threadName: String? = nil

    var testDescription: String { kind }

    #if arch(x86_64)
        static let trapSignal = SIGILL
        static let trapCode = "ILL_ILLOPN"
    #else
        static let trapSignal = SIGTRAP
        static let trapCode = "TRAP_BRKPT"
    #endif

    static let all: [CrashExpectation] = [
        .init(kind: "segfault", signal: SIGSEGV, codeName: "SEGV_MAPERR", function: "crashBySegfault"),
        .init(kind: "bus-error", signal: SIGBUS, codeName: "BUS_ADRERR", function: "crashByBusError"),
        .init(kind: "abort", signal: SIGABRT, codeName: "SI_TKILL", function: "crashByAbort"),
        .init(
            kind: "fatal-error", signal: trapSignal, codeName: trapCode, function: "crashByFatalError",
            message: "Fatal error: crash-test fatal error on purpose"),
        .init(
            kind: "force-unwrap", signal: trapSignal, codeName: trapCode, function: "crashByForceUnwrap"),
        .init(
            kind: "index-out-of-range", signal: trapSignal, codeName: trapCode, function: "crashByIndexOutOfRange",
            message: "Index out of range", messageInRelease: false),
        .init(kind: "overflow", signal: trapSignal, codeName: trapCode, function: "crashByOverflow"),
        .init(kind: "divide-by-zero", signal: SIGFPE, codeName: "FPE_INTDIV", function: "crash_test_divide"),
        .init(
            kind: "unsigned-underflow", signal: trapSignal, codeName: trapCode, function: "crashByUnsignedUnderflow"),
        .init(
            kind: "narrowing-conversion", signal: trapSignal, codeName: trapCode,
            function: "crashByNarrowingConversion"),
        .init(kind: "float-conversion", signal: trapSignal, codeName: trapCode, function: "crashByFloatConversion"),
        .init(
            kind: "swift-division-by-zero", signal: trapSignal, codeName: trapCode,
            function: "crashOnSwiftDivisionByZero"),
        .init(kind: "invalid-range", signal: trapSignal, codeName: trapCode, function: "crashByInvalidRange"),
        .init(
            kind: "precondition", signal: trapSignal, codeName: trapCode, function: "crashByPrecondition",
            message: "Precondition failed: crash-test precondition on purpose", messageInRelease: false),
        .init(
            kind: "unowned-reference", signal: SIGABRT, codeName: "SI_TKILL", function: "crashByUnownedReference",
            message: "Attempted to read an unowned reference"),
        .init(kind: "stack-overflow", signal: SIGSEGV, codeName: "SEGV_", function: "recurseUntilOverflow"),
        .init(
            kind: "thread-stack-overflow", signal: SIGSEGV, codeName: "SEGV_", function: "recurseUntilOverflow",
            mainThread: false, threadName: "deep-worker"),
        .init(
            kind: "background-thread", signal: SIGSEGV, codeName: "SEGV_MAPERR", function: "crashBySegfault",
            mainThread: false, threadName: "worker"),
        .init(
            kind: "two-threads", signal: SIGSEGV, codeName: "SEGV_MAPERR", function: "crashBySegfault",
            mainThread: false, threadName: "racer-"),
        .init(
            kind: "task", signal: SIGSEGV, codeName: "SEGV_MAPERR", function: "crashInTaskBody", mainThread: false),
        .init(
            kind: "async-crash", signal: trapSignal, codeName: trapCode, function: "asyncLevel3",
            message: "Index out of range", messageInRelease: false, mainThread: false),
        .init(
            kind: "async-deep", signal: SIGSEGV, codeName: "SEGV_MAPERR", function: "asyncDescend", mainThread: false),
        .init(kind: "async-other-thread", signal: SIGSEGV, codeName: "SEGV_MAPERR", function: "crashBySegfault"),
    ]
}

@Suite("Every crash kind leaves one complete report")
struct CrashKindTests {
    @Test(arguments: Binaries.crashTestBuilds, CrashExpectation.all)
    func crashLeavesReport(build: String, expected: CrashExpectation) async throws {
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: build))
        defer { sandbox.remove() }
        let result = try await sandbox.crash(expected.kind)

        #expect(result.signal == expected.signal, "status \(result.status), stderr: \(result.stderr)")
        #expect(sandbox.files(withSuffix: ".tmp").isEmpty)
        let reports = sandbox.reports
        try #require(reports.count == 1, "expected exactly one report, found \(reports.count)")

        // It decodes and validates against docs/report.schema.json.
        let model = try ReportDecoding.decode(file: reports[0].path)
        let report = try ReportFile(reports[0])
        #expect(reports[0].lastPathComponent == "\(model.reportID).crash")

        #expect(report.signal["number"] as? Int == Int(expected.signal))
        let codeName = report.signal["code_name"] as? String ?? ""
        #expect(codeName.hasPrefix(expected.codeName), "code \(codeName)")

        let symbols = try ELFSymbols(file: sandbox.binary)
        let names = report.mainImageSymbols(symbols)
        #expect(
            names.contains { $0.contains(expected.function) },
            "no frame in \(expected.function); frames in the executable: \(names)")

        if let message = expected.message, build == "debug" || expected.messageInRelease {
            let text = report.crash["message"] as? String ?? ""
            #expect(text.contains(message), "message: \(text)")
        }
        #expect(report.thread["main"] as? Bool == expected.mainThread)
        if let threadName = expected.threadName {
            #expect((report.thread["name"] as? String ?? "").hasPrefix(threadName))
        }

        let messages = report.breadcrumbs.map { $0["message"] as? String ?? "" }
        #expect(messages == ["step.0", "step.1", "step.2", "step.3", "step.4", "note", "crash.\(expected.kind)"])

        let main = try #require(report.images.first { $0["main"] as? Bool == true })
        #expect(main["path"] as? String == "~/bin/crash-test")
        let buildID = main["build_id"] as? String ?? ""
        #expect(!buildID.isEmpty)

        for secret in CrashSandbox.secrets {
            #expect(!report.text.contains(secret), "the report holds the planted \(secret)")
        }
    }
}
