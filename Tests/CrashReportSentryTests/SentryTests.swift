import CrashReporterSupport
import Foundation
import TestSupport
import Testing

@testable import CrashReportFormat
@testable import CrashReportSentry

@Suite("Sentry envelope")
struct SentryEnvelopeTests {
    static let sentAt = Timestamp(seconds: 1_795_958_406)

    static func report() throws -> CrashReport {
        try ReportDecoding.decode(json: try ReportFixture.json(ReportFixture.valid()))
    }

    /// Frame 0 with an inlined call and the -O trap's pseudo-function, frame 1 plain.
    static let symbols: [Int: [FrameSymbol]] = [
        0: [
            FrameSymbol(function: "Swift runtime failure: arithmetic overflow", inlined: true),
            FrameSymbol(
                function: "Order.total()", file: "/home/planteduserq4x7/src/app/Order.swift", line: 12, inlined: true),
            FrameSymbol(
                function: "Order.submit()", file: "/home/planteduserq4x7/src/app/Order.swift", line: 40, offset: 12),
        ],
        1: [FrameSymbol(function: "__libc_start_main", offset: 128)],
    ]

    /// `symbols` are the crash's and its thread's (`threads[0]`), unless `reportSymbols` says otherwise.
    static func envelope(
        symbols: [Int: [FrameSymbol]] = symbols, reportSymbols: ReportSymbols? = nil, report: CrashReport? = nil
    ) throws -> (
        data: Data, header: [String: Any], itemHeader: [String: Any], event: [String: Any]
    ) {
        let data = Data(
            try SentryEnvelope.make(
                report: report ?? Self.report(),
                symbols: reportSymbols ?? ReportSymbols(crash: symbols, threads: [0: symbols]), release: "shop@2.1.0",
                environment: "staging",
                sdkName: "swift-crash-reporter", sdkVersion: "0.1.0", sentAt: sentAt))
        // header, item header, payload, and the final newline (the collector's parser reads the
        // general form; these tests only need the one shape the builder writes)
        let lines = data.split(separator: 0x0a, omittingEmptySubsequences: false)
        try #require(lines.count == 4)
        func object(_ line: Data) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
        }
        return (data, try object(lines[0]), try object(lines[1]), try object(lines[2]))
    }

    @Test("make and parse round-trip: one event item whose length is its payload's")
    func roundTrip() throws {
        let (data, header, itemHeader, event) = try Self.envelope()
        #expect(header["event_id"] as? String == "3f1c2a9e7b4d4c1e9a550d2e8b7c6a10")
        #expect(header["sent_at"] as? String == "2026-11-29T13:20:06.000Z")
        #expect(header["dsn"] == nil)
        #expect(itemHeader["type"] as? String == "event")
        let lines = data.split(separator: 0x0a, omittingEmptySubsequences: false)
        #expect(lines.count == 4 && lines[3].isEmpty, "three lines and a final newline")
        #expect(itemHeader["length"] as? Int == lines[2].count)
        #expect(event["event_id"] as? String == header["event_id"] as? String)
    }

    @Test("the event has what Sentry needs for a native crash")
    func requiredMembers() throws {
        let (_, _, _, event) = try Self.envelope()
        #expect(event["platform"] as? String == "native")
        #expect(event["level"] as? String == "fatal")
        #expect(event["timestamp"] as? Double == 1_795_958_405.123)
        #expect(event["release"] as? String == "shop@2.1.0")
        #expect(event["environment"] as? String == "staging")
        #expect(event["dist"] as? String == "7")

        let exception = try #require((event["exception"] as? [String: Any])?["values"] as? [[String: Any]]).first
        let value = try #require(exception)
        #expect(value["type"] as? String == "SIGSEGV")
        #expect(value["value"] as? String == "Fatal error: Index out of range")
        #expect(value["thread_id"] as? Int == 4242)
        let mechanism = try #require(value["mechanism"] as? [String: Any])
        #expect(mechanism["type"] as? String == "signalhandler")
        #expect(mechanism["handled"] as? Bool == false)
        #expect(mechanism["synthetic"] as? Bool == true)
        let signal = try #require((mechanism["meta"] as? [String: Any])?["signal"] as? [String: Any])
        #expect(signal["number"] as? Int == 11)
        #expect(signal["code"] as? Int == 1)
        #expect(signal["name"] as? String == "SIGSEGV")
        #expect(signal["code_name"] as? String == "SEGV_MAPERR")
        let stacktrace = try #require(value["stacktrace"] as? [String: Any])
        let registers = try #require(stacktrace["registers"] as? [String: String])
        #expect(registers["rip"] == "0x55d0c3a01234")
        #expect(registers["r15"] == "0xffffffffffffffff")

        let images = try #require((event["debug_meta"] as? [String: Any])?["images"] as? [[String: Any]])
        try #require(images.count == 1, "only images with a build id")
        #expect(images[0]["type"] as? String == "elf")
        #expect(images[0]["code_id"] as? String == "9a1f0c7e")
        #expect(images[0]["debug_id"] as? String == "7e0c1f9a-0000-0000-0000-000000000000")
        #expect(images[0]["code_file"] as? String == "~/src/app/.build/debug/crash-test")
        #expect(images[0]["image_addr"] as? String == "0x55d0c3800000")
        #expect(images[0]["image_size"] as? Int == 4_194_304)

        let crumbs = try #require((event["breadcrumbs"] as? [String: Any])?["values"] as? [[String: Any]])
        try #require(crumbs.count == 2)
        #expect(crumbs[0]["timestamp"] as? Double == 1_795_958_403.889)
        #expect(crumbs[0]["level"] as? String == "info")
        #expect(crumbs[0]["category"] as? String == "tracking")
        #expect(crumbs[0]["message"] as? String == "Order.Create")
        #expect(crumbs[0]["data"] as? [String: String] == ["items": "3", "coupon": "none"])

        let contexts = try #require(event["contexts"] as? [String: Any])
        #expect(Set(contexts.keys) == ["os", "device"])
        let os = try #require(contexts["os"] as? [String: Any])
        #expect(os["name"] as? String == "Linux")
        #expect(os["kernel_version"] as? String == "6.1.0-28-amd64")
        #expect(os["version"] as? String == "Debian GNU/Linux 12 (bookworm)")
        #expect((contexts["device"] as? [String: Any])?["arch"] as? String == "x86_64")
        #expect(Set(((contexts["device"] as? [String: Any]) ?? [:]).keys) == ["type", "arch"])
    }

    @Test("frames are oldest first, inlined calls after the function they were inlined into")
    func framesOldestFirst() throws {
        let (_, _, _, event) = try Self.envelope()
        let exception = try #require(((event["exception"] as? [String: Any])?["values"] as? [[String: Any]])?.first)
        let frames = try #require((exception["stacktrace"] as? [String: Any])?["frames"] as? [[String: Any]])
        #expect(
            frames.map { $0["instruction_addr"] as? String } == [
                "0xdead0000", "0x7f0a12345678", "0x55d0c3a01234", "0x55d0c3a01234",
            ])
        #expect(
            frames.map { $0["function"] as? String } == [nil, "__libc_start_main", "Order.submit()", "Order.total()"])
        #expect(frames.map { $0["trust"] as? String } == ["cfi", "cfi", "context", "context"])
        #expect(frames[2]["filename"] as? String == "Order.swift")
        #expect(frames[2]["abs_path"] as? String == "~/src/app/Order.swift")
        #expect(frames[2]["lineno"] as? Int == 40)
        #expect(frames[3]["lineno"] as? Int == 12)
        #expect(frames[2]["package"] as? String == "~/src/app/.build/debug/crash-test")
        #expect(frames[2]["in_app"] as? Bool == true)
        #expect(frames[1]["in_app"] as? Bool == false)
        #expect(frames[0]["package"] == nil)
    }

    @Test("without a message the runtime failure, then the signal, says what happened")
    func exceptionValue() throws {
        var report = try Self.report()
        report.crash?.message = nil
        let withFailure = try Self.envelope(report: report).event
        #expect(Self.exceptionValue(withFailure) == "Swift runtime failure: arithmetic overflow")
        let bare = try Self.envelope(symbols: [:], report: report).event
        #expect(Self.exceptionValue(bare) == "Segmentation fault (SEGV_MAPERR) at 0x10")
    }

    static func exceptionValue(_ event: [String: Any]) -> String? {
        (((event["exception"] as? [String: Any])?["values"] as? [[String: Any]])?.first)?["value"] as? String
    }

    @Test("debug ids are derived from build ids the way Sentry does")
    func debugIDs() {
        // getsentry/symbolic's linux/crash fixture and Relay's NativeDebugImage documentation.
        #expect(
            SentryEnvelope.debugID(fromBuildID: "f1c3bcc0279865fe3058404b2831d9e64135386c")
                == "c0bcc3f1-9827-fe65-3058-404b2831d9e6")
        #expect(
            SentryEnvelope.debugID(fromBuildID: "68220ae2c65d65c1b6aaa12fa6765a6ec2f5f434")
                == "e20a2268-5dc6-c165-b6aa-a12fa6765a6e")
        #expect(
            SentryEnvelope.debugID(fromBuildID: "b680cb890f9e3c12a24b172d050dec73")
                == "89cb80b6-9e0f-123c-a24b-172d050dec73")
        #expect(SentryEnvelope.debugID(fromBuildID: "abcd") == "0000cdab-0000-0000-0000-000000000000")
    }

    @Test("nothing that identifies a person or a machine is in the envelope")
    func noPersonalData() throws {
        let (data, _, _, event) = try Self.envelope()
        let text = String(decoding: data, as: UTF8.self)
        #expect(!text.contains("planteduserq4x7"))
        for key in ["user", "server_name", "request", "modules", "extra", "tags"] {
            #expect(event[key] == nil, "\(key)")
        }
        let sdk = try #require(event["sdk"] as? [String: Any])
        #expect((sdk["settings"] as? [String: Any])?["infer_ip"] as? String == "never")
        #expect(!text.contains("{{auto}}"))
        let host = ProcessInfo.processInfo.hostName
        if host.count >= 6 { #expect(!text.contains(host)) }
        if let home = ProcessInfo.processInfo.environment["HOME"], home.count > 1 { #expect(!text.contains(home)) }
    }

    @Test("a report id that is not a UUID is refused")
    func badReportID() throws {
        var report = try Self.report()
        report.reportID = "not-a-uuid"
        #expect(throws: SentryEnvelope.EncodingError.invalidReportID("not-a-uuid")) {
            try SentryEnvelope.make(
                report: report, symbols: ReportSymbols(), release: nil, environment: nil, sdkName: "x", sdkVersion: "1")
        }
    }

    @Test("home directories become ~ in paths")
    func pathPrivacy() {
        #expect(PathPrivacy.shorten("/home/alice/src/a.swift") == "~/src/a.swift")
        #expect(PathPrivacy.shorten("/Users/bob/x") == "~/x")
        #expect(PathPrivacy.shorten("/root/build/y") == "~/build/y")
        #expect(PathPrivacy.shorten("/home/alice") == "~")
        #expect(PathPrivacy.shorten("/homework/a") == "/homework/a")
        #expect(PathPrivacy.shorten("/usr/lib/libc.so.6") == "/usr/lib/libc.so.6")
    }
}

@Suite("Sentry DSN")
struct SentryDSNTests {
    @Test("a DSN gives the envelope URL and the auth header")
    func valid() throws {
        let dsn = try SentryDSN("https://abc123@o42.ingest.sentry.io/4501")
        #expect(dsn.publicKey == "abc123")
        #expect(dsn.projectID == "4501")
        #expect(dsn.envelopeURL == "https://o42.ingest.sentry.io/api/4501/envelope/")
        #expect(
            dsn.authHeader(sdkName: "swift-crash-reporter", sdkVersion: "0.1.0")
                == "Sentry sentry_version=7, sentry_key=abc123, sentry_client=swift-crash-reporter/0.1.0")
        #expect(!dsn.description.contains("abc123"))

        let local = try SentryDSN("http://key:secret@127.0.0.1:9000/sentry/relay/7")
        #expect(local.envelopeURL == "http://127.0.0.1:9000/sentry/relay/api/7/envelope/")
        #expect(local.publicKey == "key")
    }

    @Test("IPv6 hosts, upper-case schemes, whitespace, queries and fragments")
    func lessCommonForms() throws {
        let v6 = try SentryDSN(" HTTP://k@[::1]:8000/3?x=1#f\n")
        #expect(v6.scheme == "http")
        #expect(v6.host == "[::1]")
        #expect(v6.port == 8000)
        #expect(v6.envelopeURL == "http://[::1]:8000/api/3/envelope/")
        #expect(v6.description == "http://[::1]:8000/3")
        let noPort = try SentryDSN("https://k@sentry.example:/42")
        #expect(noPort.port == nil)
        #expect(noPort.envelopeURL == "https://sentry.example/api/42/envelope/")
    }

    @Test(
        "malformed DSNs are refused with the reason",
        arguments: [
            ("https://o42.ingest.sentry.io/4501", SentryDSN.ParseError.missingPublicKey),
            ("https://abc@o42.ingest.sentry.io/", .missingProjectID),
            ("https://abc@o42.ingest.sentry.io", .missingProjectID),
            ("ftp://abc@host/1", .unsupportedScheme("ftp")),
            ("https://abc@host/project", .invalidProjectID("project")),
            ("not a dsn", .notAURL),
            ("https:///1", .missingHost),
            ("https:1", .missingHost),
            ("https://k@@host/1", .notAURL),
            ("https://k@host:99999/1", .notAURL),
            ("https://k@host:8o/1", .notAURL),
            ("https://k@[::1/1", .notAURL),
            ("https://k@hôst/1", .notAURL),
            ("1https://k@host/1", .notAURL),
            ("", .notAURL),
        ])
    func invalid(dsn: String, error: SentryDSN.ParseError) {
        #expect(throws: error) { try SentryDSN(dsn) }
    }
}

@Suite("Sentry rate limits")
struct SentryRateLimitsTests {
    @Test("the longest limit for errors, the default category or every category")
    func eventWait() {
        #expect(SentryRateLimits("60:error:organization").eventWait == 60)
        #expect(SentryRateLimits("60::organization").eventWait == 60, "all categories")
        #expect(SentryRateLimits("60:default:key").eventWait == 60)
        #expect(SentryRateLimits("60:transaction:key").eventWait == nil)
        #expect(SentryRateLimits("60:transaction;error:key").eventWait == 60)
        #expect(SentryRateLimits("30:error:project, 90::organization:quota_exceeded").eventWait == 90)
        #expect(SentryRateLimits("120:transaction:key,\t45:error:project").eventWait == 45)
        #expect(SentryRateLimits("2.5").eventWait == 2.5, "no categories: every category")
    }

    @Test("unreadable entries are left out")
    func unreadable() {
        #expect(SentryRateLimits("").limits == [])
        #expect(SentryRateLimits("soon:error:key, -5:error:key, inf::key, nan::key").eventWait == nil)
        #expect(
            SentryRateLimits("x:error:key, 7:error;default:key").limits == [
                SentryRateLimits.Limit(seconds: 7, categories: ["error", "default"])
            ])
    }
}
