import Foundation
import Testing

/// What `crashreport list` must title a trap of `crash-test crash KIND`: the app's own function
/// and the fault's reason, in debug and release builds (docs/grouping.md).
struct TrapTitle: Sendable, CustomTestStringConvertible {
    var kind: String
    /// The app's function the title names.
    var function: String
    /// The reason: the fatal error's message, the `Swift runtime failure: …` reason, or what a
    /// `SIGFPE` says.
    var reason: String
    /// The reason in a release build, where it differs (`-O` drops a precondition's message).
    var releaseReason: String? = nil

    var testDescription: String { kind }

    func reason(build: String) -> String { build == "release" ? releaseReason ?? reason : reason }

    func title(build: String) -> String { "\(function) — \(reason(build: build))" }

    static let all: [TrapTitle] = [
        .init(kind: "fatal-error", function: "crashByFatalError()", reason: "crash-test fatal error on purpose"),
        .init(
            kind: "force-unwrap", function: "crashByForceUnwrap()",
            reason: "Unexpectedly found nil while unwrapping an Optional value"),
        .init(kind: "index-out-of-range", function: "crashByIndexOutOfRange()", reason: "Index out of range"),
        .init(kind: "overflow", function: "crashByOverflow()", reason: "arithmetic overflow"),
        .init(kind: "divide-by-zero", function: "crash_test_divide", reason: "Integer division by zero"),
        .init(kind: "unsigned-underflow", function: "crashByUnsignedUnderflow()", reason: "arithmetic overflow"),
        .init(
            kind: "narrowing-conversion", function: "crashByNarrowingConversion()",
            reason: "Not enough bits to represent the passed value"),
        .init(
            kind: "float-conversion", function: "crashByFloatConversion()",
            reason: "Double value cannot be converted to Int because it is either infinite or NaN"),
        .init(kind: "swift-division-by-zero", function: "crashOnSwiftDivisionByZero()", reason: "Division by zero"),
        .init(
            kind: "invalid-range", function: "crashByInvalidRange()",
            reason: "Range requires lowerBound <= upperBound"),
        .init(
            kind: "precondition", function: "crashByPrecondition()",
            reason: "Precondition failed: crash-test precondition on purpose", releaseReason: "precondition failure"),
        .init(
            kind: "unowned-reference", function: "crashByUnownedReference()",
            reason: "Attempted to read an unowned reference but object 0x… was already destroyed"),
    ]
}

@Suite("Trap titles name the fault")
struct TrapTitleTests {
    @Test(arguments: Binaries.crashTestBuilds, TrapTitle.all)
    func titleNamesTheFault(build: String, expected: TrapTitle) async throws {
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: build))
        defer { sandbox.remove() }
        let result = try await sandbox.crash(expected.kind)
        #expect(result.signal != nil, "status \(result.status), stderr: \(result.stderr)")

        // The toolchain on PATH: its llvm-symbolizer gives the inlined calls the runtime leaves out.
        let path = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        let listed = try await sandbox.crashreport(["list", "--json"], path)
        #expect(listed.exitCode == 0, "\(listed.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        let row = try #require(rows.first, "no report: \(listed.stdout)")
        let title = row["title"] as? String ?? ""
        let signature = row["signature"] as? String ?? ""
        #expect(title == expected.title(build: build), "\(build) \(expected.kind): \(title) (\(signature))")
        #expect(signature.hasSuffix("| \(expected.reason(build: build))"), "\(signature)")
        #expect(signature.contains("| \(expected.function) |"), "\(signature)")

        // Every inlined level the debug information has reaches the text.
        let shown = try await sandbox.crashreport(["show", sandbox.reports[0].path], path)
        #expect(shown.stdout.contains(expected.function), "\(shown.stdout)")
        if build == "release", expected.kind == "index-out-of-range" {
            for level in [
                "[inlined] Swift runtime failure: Index out of range", "[inlined] specialized Array._checkSubscript",
                "[inlined] specialized Array.subscript.getter", "crashByIndexOutOfRange() + ",
            ] {
                #expect(shown.stdout.contains(level), "\(level) in \(shown.stdout)")
            }
        }
    }
}
