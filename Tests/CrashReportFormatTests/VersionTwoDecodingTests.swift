import CrashReportFormat
import Foundation
import TestSupport
import Testing

@Suite("Schema version 2: decoding")
struct VersionTwoDecodingTests {
    static func decode(_ object: [String: Any]) throws -> CrashReport {
        try ReportDecoding.decode(json: try ReportFixture.json(object))
    }

    static func violations(_ object: [String: Any]) throws -> [SchemaViolation] {
        try JSONSchemaValidator(schema: ReportSchema.schema).validate(object: object)
    }

    @Test func versionOneReadsAsACrashWithItsThreadAlone() throws {
        let report = try Self.decode(ReportFixture.valid())
        let crash = try #require(report.crash)
        #expect(report.schemaVersion == 1)
        #expect(report.kind == .crash)
        #expect(report.snapshot == nil)
        #expect(report.threads == [CrashReport.CapturedThread(crashing: crash)])
        let thread = report.threads[0]
        #expect(thread.id == 4242 && thread.name == "crash-test" && thread.crashed && thread.main)
        #expect(thread.frames == crash.frames)
        #expect(thread.registers == crash.registers)
        #expect(thread.framesOmitted == 0 && thread.framesOmittedAt == 3)
        #expect(report.threadsTotal == 1 && report.threadsOmitted == 0)
        #expect(crash.framesOmitted == 0 && crash.framesOmittedAt == 3)
    }

    @Test func aVersionTwoCrashHasEveryThread() throws {
        #expect(try Self.violations(ReportFixture.validV2()) == [])
        let report = try Self.decode(ReportFixture.validV2())
        #expect(report.schemaVersion == 2)
        #expect(report.kind == .crash)
        #expect(report.threads.map(\.id) == [4242, 4250, 4251])
        #expect(report.threads.map(\.crashed) == [true, false, false])
        #expect(report.threads[0].frames == report.crash?.frames)
        #expect(report.threadsTotal == 6 && report.threadsOmitted == 3)
        let worker = report.threads[1]
        #expect(worker.frames.count == 7 && worker.framesOmitted == 300 && worker.framesOmittedAt == 5)
        #expect(worker.registers?["rip"] == 0x55d0_c3a0_1300)
        #expect(worker.answered)
        let silent = report.threads[2]
        #expect(!silent.answered)
        #expect(silent.unwindError == "signal_blocked" && silent.registers == nil && silent.frames.isEmpty)
    }

    @Test func snapshotsAndHangsHaveNoCrash() throws {
        #expect(try Self.violations(ReportFixture.snapshot()) == [])
        #expect(try Self.violations(ReportFixture.hang()) == [])
        let snapshot = try Self.decode(ReportFixture.snapshot())
        #expect(snapshot.kind == .snapshot)
        #expect(snapshot.crash == nil)
        #expect(snapshot.snapshot == .init(reason: "Cache.Rebuild slow", heartbeat: nil))
        #expect(snapshot.threads.allSatisfy { !$0.crashed })
        let hang = try Self.decode(ReportFixture.hang())
        #expect(hang.kind == .hang)
        #expect(hang.snapshot?.heartbeat == .init(name: "db-poller", threadID: 4250, lateMs: 2500))
    }

    @Test func versionTwoMustSayItsKindAndThreads() throws {
        #expect(throws: ReportError.missingMember("/kind")) {
            try Self.decode(ReportFixture.validV2(setting: "/kind", to: nil))
        }
        #expect(throws: ReportError.missingMember("/threads")) {
            try Self.decode(ReportFixture.validV2(setting: "/threads", to: nil))
        }
        // Version 1 with the version number bumped is not a version 2 report.
        #expect(throws: ReportError.missingMember("/kind")) {
            try Self.decode(ReportFixture.valid(setting: "/schema_version", to: 2))
        }
        // The counts and the snapshot may be left out: they default to what the rest says.
        var lean = ReportFixture.validV2()
        lean["threads_total"] = nil
        lean["threads_omitted"] = nil
        lean["snapshot"] = nil
        let report = try Self.decode(lean)
        #expect(report.threadsTotal == 3 && report.threadsOmitted == 0)
    }

    @Test("the members agree with the kind")
    func kindMismatch() throws {
        let cases: [([String: Any], String, Any)] = [
            (ReportFixture.snapshot(), "/crash", ReportFixture.validV2()["crash"]!),
            (ReportFixture.validV2(), "/crash", NSNull()),
            (ReportFixture.validV2(), "/snapshot", ["reason": "x", "heartbeat": NSNull()] as [String: Any]),
            (ReportFixture.snapshot(), "/snapshot", NSNull()),
            (ReportFixture.validV2(), "/threads/0/crashed", false),
            (ReportFixture.validV2(), "/threads/1/crashed", true),
            (ReportFixture.validV2(), "/threads", [Any]()),
            (ReportFixture.hang(), "/threads/1/crashed", true),
        ]
        for (report, pointer, value) in cases {
            let damaged = ReportFixture.replacing(report, pointer, with: value)
            #expect(try Self.violations(damaged) == [], "the schema alone allows \(pointer) = \(value)")
            do {
                _ = try Self.decode(damaged)
                Issue.record("decoded \(pointer) = \(value)")
            } catch let error as ReportError {
                guard case .invalidReport(let violations) = error else {
                    Issue.record("unexpected \(error)")
                    continue
                }
                let expected = pointer.hasPrefix("/threads") ? "/threads" : pointer
                #expect(violations.map(\.path) == [expected], "\(violations)")
            }
        }
    }

    @Test func theSchemaBoundsThreadsAndSnapshots() throws {
        func keywords(_ object: [String: Any]) throws -> [String] { try Self.violations(object).map(\.keyword) }
        let v2 = ReportFixture.validV2()
        #expect(try keywords(ReportFixture.replacing(v2, "/threads/1/name", with: "a-name-of-16-byt")) == ["maxLength"])
        #expect(try keywords(ReportFixture.replacing(v2, "/threads/1/frames_omitted", with: -1)) == ["minimum"])
        #expect(try keywords(ReportFixture.replacing(v2, "/threads/1/unwind_error", with: "No Answer")) == ["pattern"])
        #expect(
            try keywords(ReportFixture.replacing(v2, "/threads/2/registers", with: [String: Any]())) == [
                "minProperties"
            ])
        #expect(try keywords(ReportFixture.replacing(v2, "/threads/1/colour", with: "red")) == ["additionalProperties"])
        #expect(try keywords(ReportFixture.replacing(v2, "/threads/1/main", with: nil)) == ["required"])
        #expect(try keywords(ReportFixture.replacing(v2, "/kind", with: "freeze")) == ["enum"])
        #expect(try keywords(ReportFixture.replacing(v2, "/crash/frames_omitted_at", with: "3")) == ["type"])
        let hang = ReportFixture.hang()
        let longReason = String(repeating: "r", count: 256)
        #expect(try keywords(ReportFixture.replacing(hang, "/snapshot/reason", with: longReason)) == ["maxLength"])
        #expect(try keywords(ReportFixture.replacing(hang, "/snapshot/heartbeat/late_ms", with: nil)) == ["required"])
        let longName = String(repeating: "n", count: 64)
        #expect(
            try keywords(ReportFixture.replacing(hang, "/snapshot/heartbeat/name", with: longName)) == ["maxLength"])
    }

    @Test("the JSON renderer writes the version the file had, and it reads back the same")
    func roundTrip() throws {
        for object in [ReportFixture.valid(), ReportFixture.validV2(), ReportFixture.snapshot(), ReportFixture.hang()] {
            let report = try Self.decode(object)
            let rendered = try JSONRenderer().data(for: report)
            #expect(JSONSchemaValidator(schema: ReportSchema.schema).validate(json: rendered) == [])
            #expect(try ReportDecoding.decode(json: rendered) == report)
            let written = try #require(try JSONSerialization.jsonObject(with: Data(rendered)) as? [String: Any])
            #expect(Set(written.keys) == Set(object.keys), "version \(report.schemaVersion)")
            if let crash = object["crash"] as? [String: Any] {
                #expect(Set((written["crash"] as? [String: Any] ?? [:]).keys) == Set(crash.keys))
            }
        }
    }

    @Test func rendererTextIsWhatJSONEncoderWritesForVersionTwo() throws {
        let report = try Self.decode(ReportFixture.hang())
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var expected = try encoder.encode(report)
        expected.append(0x0a)
        #expect(try JSONRenderer().data(for: report) == Array(expected))
    }
}
