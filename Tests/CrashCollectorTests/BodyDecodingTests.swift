import CrashReportFormat
import CrashReporterHTTP
import CrashReporterSupport
import Foundation
import Testing

@testable import CrashCollectorParsers
@testable import crash_collector

@Suite struct BodyDecodingTests {
    private func request(_ body: Data, encoding: String?) -> ReceivedRequest {
        var headers: HTTPHeaders = ["Host": "x"]
        if let encoding { headers.append("Content-Encoding", encoding) }
        return ReceivedRequest(
            head: HTTPRequestHead(method: "POST", target: "/", minorVersion: 1, headers: headers), body: body)
    }

    @Test func identityAndGzip() throws {
        let text = Data("hello".utf8)
        #expect(BodyDecoding.decode(request(text, encoding: nil), limit: 10) == .success(text))
        #expect(BodyDecoding.decode(request(text, encoding: "identity"), limit: 10) == .success(text))
        let gzipped = Data(try Gzip.compress(text))
        #expect(BodyDecoding.decode(request(gzipped, encoding: "GZIP"), limit: 10) == .success(text))
        let twice = Data(try Gzip.compress(gzipped))
        #expect(BodyDecoding.decode(request(twice, encoding: "gzip, gzip"), limit: 100) == .success(text))
    }

    @Test func boundsAndFailures() throws {
        let bomb = Data(try Gzip.compress(Data(repeating: 0, count: 1 << 20)))
        #expect(BodyDecoding.decode(request(bomb, encoding: "gzip"), limit: 1000) == .failure(.tooLarge(limit: 1000)))
        #expect(BodyDecoding.decode(request(Data("x".utf8), encoding: "br"), limit: 10) == .failure(.unsupported("br")))
        guard case .failure(.corrupt) = BodyDecoding.decode(request(Data("xx".utf8), encoding: "gzip"), limit: 10)
        else {
            Issue.record("a body that is not gzip must be refused")
            return
        }
        #expect(BodyDecoding.response(.tooLarge(limit: 1)).status == 413)
        #expect(BodyDecoding.response(.unsupported("br")).status == 415)
        let events = BodyDecoding.response(.tooLarge(limit: 1), events: true)
        #expect((try? JSON.parse(events.body))?["code"] == "payload_too_large")
    }
}
