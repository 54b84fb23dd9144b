import CrashReportFormat
import Foundation
import TestSupport
import Testing

@Suite("Report decoding")
struct ReportDecodingTests {
    @Test func decodesEveryMember() throws {
        let report = try ReportDecoding.decode(gzipData: try ReportFixture.gzip(ReportFixture.valid()))
        #expect(report.schemaVersion == 1)
        #expect(report.reportID == ReportFixture.reportID)
        #expect(report.timestamp == "2026-11-29T13:20:05.123Z")
        #expect(report.timestampMs == ReportFixture.crashTime)
        #expect(report.uptimeMs == 42)
        #expect(report.app == .init(name: "crash-test", version: "1.0.0", build: "7", environment: "production"))
        #expect(report.os.machine == "x86_64")
        #expect(report.os.distribution == "Debian GNU/Linux 12 (bookworm)")

        #expect(report.kind == .crash)
        let crash = try #require(report.crash)
        #expect(crash.signal == .init(number: 11, name: "SIGSEGV", code: 1, codeName: "SEGV_MAPERR", address: 0x10))
        #expect(crash.message == "Fatal error: Index out of range")
        #expect(crash.thread == .init(id: 4242, name: "crash-test", main: true))
        #expect(crash.registers["r15"]?.rawValue == UInt64.max)
        #expect(crash.registers.ordered.map(\.name) == ["rax", "rsp", "r15", "rip", "eflags"])
        #expect(crash.frames.count == 3)
        #expect(crash.frames[0] == .init(ip: 0x55d0_c3a0_1234, sp: 0x7ffd_5e1c_8a30, trust: .context, image: 0))
        #expect(crash.frames[1].trust == .cfi)
        #expect(crash.frames[1].lookupAddress == 0x7f0a_1234_5677)
        #expect(crash.frames[0].lookupAddress == crash.frames[0].ip)
        #expect(crash.frames[2].imageIndex == nil)
        #expect(report.image(of: crash.frames[2]) == nil)
        #expect(report.image(of: crash.frames[1])?.name == "libc.so.6")
        #expect(crash.framesTruncated == false)
        #expect(crash.unwindError == nil)

        #expect(report.images.count == 2)
        #expect(report.images[0].base == 0x55d0_c380_0000)
        #expect(report.images[0].size == 4_194_304)
        #expect(report.images[0].buildID == "9a1f0c7e")
        #expect(report.images[0].offset(of: crash.frames[0].ip) == 0x201234)
        #expect(report.images[0].offset(of: 0x10) == nil)
        #expect(report.images[1].main == false)

        #expect(report.breadcrumbs.capacity == 100)
        #expect(report.breadcrumbs.torn == 0)
        #expect(report.breadcrumbs.items.map(\.message) == ["Order.Create", "Upload.Failed"])
        #expect(report.breadcrumbs.items[0].data == ["items": "3", "coupon": "none"])
        #expect(report.breadcrumbs.items[1].level == .error)
        #expect(report.breadcrumbs.items[1].timestampMs == ReportFixture.crashTime - 5)
    }

    @Test func decodesAFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).crash")
        try ReportFixture.gzip(ReportFixture.valid()).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try ReportDecoding.decode(file: url.path).reportID == ReportFixture.reportID)
    }

    @Test func jsonRendererOutputDecodesToTheSameReport() throws {
        let report = try ReportDecoding.decode(json: try ReportFixture.json(ReportFixture.valid()))
        let rendered = try JSONRenderer().data(for: report)
        #expect(try ReportDecoding.decode(json: rendered) == report)
    }

    @Test func jsonRendererWritesNullsAndSortedKeys() throws {
        let report = try ReportDecoding.decode(
            json: try ReportFixture.json(ReportFixture.valid(setting: "/crash/message", to: NSNull())))
        let text = try JSONRenderer().render(report)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let crash = try #require(object["crash"] as? [String: Any])
        #expect(crash["message"] is NSNull)
        #expect(crash["unwind_error"] is NSNull)
        #expect(JSONSchemaValidator(schema: ReportSchema.schema).validate(json: Data(text.utf8)) == [])
        let topLevelKeys = text.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map {
            $0.split(separator: "\"")[1]
        }
        #expect(topLevelKeys == topLevelKeys.sorted())
        #expect(topLevelKeys.first == "app")
        #expect(text.contains("\"ip\" : \"0x55d0c3a01234\""))
    }

    /// The renderer's text is what `JSONEncoder` writes (pretty, sorted keys, `/` unescaped), byte
    /// for byte, for strings that need escapes and for integers at the ends of their ranges.
    @Test func jsonRendererWritesWhatJSONEncoderWrites() throws {
        var report = try ReportDecoding.decode(json: try ReportFixture.json(ReportFixture.valid()))
        report.crash?.message = "Fatal error: \"quoted\" \\ back/slash\ttab\u{1}\u{7f} é ✓ 👍🏽 \u{2028}"
        report.crash?.unwindError = nil
        report.images[1].size = UInt64.max
        report.timestampMs = Int64.min
        report.breadcrumbs.items[0].data["path"] = "/a/b?c=d&e=<f>"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var expected = try encoder.encode(report)
        expected.append(0x0a)
        let rendered = try JSONRenderer().data(for: report)
        #expect(rendered == Array(expected), "\(String(decoding: rendered, as: UTF8.self))")
    }

    @Test func addressesParseStrictly() {
        #expect(Address(hex: "0x0")?.rawValue == 0)
        #expect(Address(hex: "0xffffffffffffffff")?.rawValue == .max)
        #expect(Address(hex: "0x") == nil)
        #expect(Address(hex: "0X10") == nil)
        #expect(Address(hex: "0x1F") == nil)
        #expect(Address(hex: "0x+1") == nil)
        #expect(Address(hex: "0x10000000000000000") == nil)
        #expect(Address(0x10).paddedHex == "0x0000000000000010")
    }
}

@Suite("Damaged and foreign input")
struct DamagedInputTests {
    static func validGzip() throws -> Data { try ReportFixture.gzip(ReportFixture.valid()) }

    @Test func emptyInput() {
        #expect(throws: ReportError.empty) { try ReportDecoding.decode(gzipData: Data()) }
        #expect(throws: ReportError.empty) { try ReportDecoding.decode(json: Data()) }
    }

    @Test func pngIsNotGzip() {
        let png = Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
        #expect(throws: ReportError.notGzip) { try ReportDecoding.decode(gzipData: png) }
    }

    @Test func plainJSONIsNotGzip() throws {
        #expect(throws: ReportError.notGzip) {
            try ReportDecoding.decode(gzipData: try ReportFixture.json(ReportFixture.valid()))
        }
    }

    @Test func truncatedAtSeveralLengths() throws {
        let data = try Self.validGzip()
        for length in [1, 2, 10, 11, 50, data.count / 2, data.count - 8, data.count - 1] {
            #expect(throws: ReportError.truncatedGzip, "prefix of \(length) bytes") {
                try ReportDecoding.decode(gzipData: data.prefix(length))
            }
        }
    }

    @Test func flippedBytesNeverDecode() throws {
        let data = try Self.validGzip()
        // Every byte past the informational header fields (MTIME, XFL, OS end at offset 9).
        for position in 10..<data.count {
            var damaged = data
            damaged[position] ^= 0x55
            let error = try #require(throws: ReportError.self, "byte \(position)") {
                try ReportDecoding.decode(gzipData: damaged)
            }
            switch error {
            case .corruptGzip, .truncatedGzip: break
            default: Issue.record("byte \(position): unexpected \(error)")
            }
        }
    }

    @Test func gzipOfGarbageIsNotJSON() throws {
        var generator = SeededGenerator(seed: 7)
        let garbage = Data((0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        let error = try #require(throws: ReportError.self) {
            try ReportDecoding.decode(gzipData: try Gzip.compress(garbage))
        }
        guard case .notJSON = error else {
            Issue.record("unexpected \(error)")
            return
        }
    }

    @Test func randomBytesNeverCrash() throws {
        var generator = SeededGenerator(seed: 42)
        for length in [1, 2, 3, 17, 512, 65_537] {
            var bytes = Data((0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
            #expect(throws: ReportError.self) { try ReportDecoding.decode(gzipData: bytes) }
            // The same bytes behind a gzip magic get as far as zlib.
            if length >= 2 {
                bytes[0] = 0x1f
                bytes[1] = 0x8b
                #expect(throws: ReportError.self) { try ReportDecoding.decode(gzipData: bytes) }
            }
        }
    }

    @Test func jsonThatIsNotAReport() throws {
        #expect(throws: ReportError.notAReport("the top-level value is an array, not an object")) {
            try ReportDecoding.decode(gzipData: try Gzip.compress(Data("[1, 2]".utf8)))
        }
        #expect(throws: ReportError.notAReport("the top-level value is a string, not an object")) {
            try ReportDecoding.decode(json: Data("\"crash\"".utf8))
        }
        // Required members are listed in the schema's order.
        #expect(throws: ReportError.missingMember("/report_id")) {
            try ReportDecoding.decode(json: Data(#"{"schema_version": 1, "name": "package.json"}"#.utf8))
        }
    }

    @Test func deepNestingIsNotJSON() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = try #require(throws: ReportError.self) { try ReportDecoding.decode(json: Data(deep.utf8)) }
        guard case .notJSON = error else {
            Issue.record("unexpected \(error)")
            return
        }
    }

    @Test func invalidUTF8IsNotJSON() {
        #expect(throws: ReportError.self) { try ReportDecoding.decode(json: Data([0x7b, 0x22, 0xff, 0x22, 0x7d])) }
    }

    @Test func unsupportedSchemaVersion() throws {
        let v5 = ReportFixture.validV2(setting: "/schema_version", to: 5)
        #expect(throws: ReportError.unsupportedSchemaVersion(5)) {
            try ReportDecoding.decode(gzipData: try ReportFixture.gzip(v5))
        }
        // Checked before the rest: a version 5 report may look nothing like version 4.
        #expect(throws: ReportError.unsupportedSchemaVersion(5)) {
            try ReportDecoding.decode(json: Data(#"{"schema_version": 5, "something": "else"}"#.utf8))
        }
        #expect(throws: ReportError.unsupportedSchemaVersion(0)) {
            try ReportDecoding.decode(json: Data(#"{"schema_version": 0}"#.utf8))
        }
        #expect(
            ReportError.unsupportedSchemaVersion(5).description
                == "unsupported schema version 5 (this reader knows versions 1 to 4)")
    }

    @Test func missingMember() throws {
        let report = ReportFixture.valid(setting: "/crash/frames/1/sp", to: nil)
        #expect(throws: ReportError.missingMember("/crash/frames/1/sp")) {
            try ReportDecoding.decode(gzipData: try ReportFixture.gzip(report))
        }
        #expect(ReportError.missingMember("/crash/frames/1/sp").description == "missing member /crash/frames/1/sp")
    }

    @Test func schemaViolationsAreListed() throws {
        var report = ReportFixture.valid(setting: "/crash/frames/0/trust", to: "guess")
        report["uptime_ms"] = -1
        let error = try #require(throws: ReportError.self) {
            try ReportDecoding.decode(json: try ReportFixture.json(report))
        }
        guard case .invalidReport(let violations) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(violations.map(\.path) == ["/crash/frames/0/trust", "/uptime_ms"])
        #expect(error.description.hasPrefix("invalid report: /crash/frames/0/trust: \"guess\" is not one of"))
        #expect(error.description.hasSuffix("(and 1 more)"))
    }

    @Test func integralDoublesDecode() throws {
        let report = ReportFixture.valid(setting: "/uptime_ms", to: 42.0)
        #expect(try ReportDecoding.decode(json: try ReportFixture.json(report)).uptimeMs == 42)
    }

    @Test func valueTheModelCannotHold() throws {
        let report = ReportFixture.valid(setting: "/images/0/size", to: 1e20)
        let error = try #require(throws: ReportError.self) {
            try ReportDecoding.decode(json: try ReportFixture.json(report))
        }
        guard case .invalidReport(let violations) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(violations.map(\.path) == ["/images/0/size"])
        #expect(violations.map(\.keyword) == ["range"])
        #expect(error.description == "invalid report: /images/0/size: 1e+20 does not fit in a 64-bit integer")
    }

    @Test func bombIsTooLarge() throws {
        // Valid JSON all the way (a report padded with 20 MiB of spaces) still stops at the limit.
        var json = Data("{\"schema_version\": 1".utf8)
        json.append(Data(repeating: 0x20, count: 20 << 20))
        json.append(Data("}".utf8))
        let bomb = try Gzip.compress(json)
        #expect(bomb.count < 1 << 20)
        #expect(throws: ReportError.tooLarge(limit: ReportDecoding.sizeLimit)) {
            try ReportDecoding.decode(gzipData: bomb)
        }
    }

    @Test func fileErrors() throws {
        let directory = FileManager.default.temporaryDirectory
        let missing = directory.appendingPathComponent("\(UUID().uuidString).crash")
        #expect(throws: ReportError.unreadable(path: missing.path, reason: "no such file or directory")) {
            try ReportDecoding.decode(file: missing.path)
        }
        #expect(throws: ReportError.notAFile(path: directory.path)) {
            try ReportDecoding.decode(file: directory.path)
        }
        let empty = directory.appendingPathComponent("\(UUID().uuidString).crash")
        try Data().write(to: empty)
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(throws: ReportError.empty) { try ReportDecoding.decode(file: empty.path) }
    }

    @Test func everyErrorIsOneLine() {
        let errors: [ReportError] = [
            .unreadable(path: "/x", reason: "no such file or directory"), .notAFile(path: "/x"), .empty, .notGzip,
            .truncatedGzip, .corruptGzip("incorrect data check"), .tooLarge(limit: 16 << 20), .notJSON("bad"),
            .notAReport("array"), .unsupportedSchemaVersion(2), .missingMember("/a"),
            .invalidReport([SchemaViolation(path: "/a", keyword: "type", message: "expected string, found integer")]),
        ]
        for error in errors {
            #expect(!error.description.isEmpty)
            #expect(!error.description.contains("\n"), "\(error)")
        }
        #expect(ReportError.notGzip.description.hasPrefix("not a gzip file"))
        #expect(ReportError.truncatedGzip.description.hasPrefix("truncated gzip stream"))
        #expect(ReportError.tooLarge(limit: 16 << 20).description == "too large: a crash report is at most 16 MiB")
    }

    @Test func hostileNamesStayOnOneLine() throws {
        var report = ReportFixture.valid()
        var app = report["app"] as! [String: Any]
        app["x\n\u{1b}[31m"] = "y"
        report["app"] = app
        let error = try #require(throws: ReportError.self) {
            try ReportDecoding.decode(json: try ReportFixture.json(report))
        }
        #expect(error.description == "invalid report: /app/x\\u{a}\\u{1b}[31m: unexpected member \"x\\n\\u001b[31m\"")
        #expect(error.message(file: "a\nb.crash").hasPrefix("a\\u{a}b.crash: invalid report: "))
        #expect(ReportError.notAFile(path: "/tmp").message(file: "/tmp") == "not a regular file: /tmp")
    }
}
