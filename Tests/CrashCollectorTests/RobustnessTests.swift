import CrashReportFormat
import CrashReporterSupport
import Foundation
import Testing

@testable import crash_collector

/// Hostile bodies on every endpoint: the collector answers and keeps running.
@Suite struct RobustnessTests {
    static let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    static let deepObject = String(repeating: #"{"a":"#, count: 50_000) + "1" + String(repeating: "}", count: 50_000)

    @Test func deeplyNestedJSONIsRefusedNotFatal() {
        #expect((try? JSON.parse(Data(Self.deep.utf8))) == nil)
        #expect((try? JSON.parse(Data(Self.deepObject.utf8))) == nil)
        #expect(
            (try? JSON.parse(Data(#"{"a":[1,2.5,true,null,"x"]}"#.utf8)))
                == ["a": [1, .number(.double(2.5)), true, .null, "x"]])
    }

    @Test func hostileBodiesOnEveryEndpoint() throws {
        let collector = try CollectorProcess()
        defer { collector.stop() }
        let bodies: [Data] = [
            Data(Self.deep.utf8), Data(Self.deepObject.utf8),
            Data(#"{"events":"#.utf8) + Data(Self.deep.utf8) + Data("}".utf8),
            Data(try Gzip.compress(Data(Self.deep.utf8))),
            Data(try Gzip.compress(Data(repeating: 0, count: 20 << 20), limit: 1 << 30)),
            Data((0..<5000).map { _ in UInt8.random(in: 0...255) }),
        ]
        for body in bodies {
            for path in ["/api/reports", "/api/1/envelope/", "/v1/events"] {
                for encoding in ["identity", "gzip"] {
                    let response = try collector.request(
                        "POST", path, headers: [("X-Write-Key", "k"), ("Content-Encoding", encoding)], body: body)
                    #expect([400, 413, 415].contains(response.status), "\(path) \(encoding): \(response.status)")
                }
            }
        }
        #expect(try collector.request("GET", "/").status == 200)
        #expect(collector.process.isRunning)
    }
}
