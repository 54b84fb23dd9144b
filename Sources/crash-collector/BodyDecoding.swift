import CrashCollectorParsers
import CrashReportFormat
import CrashReporterHTTP
import CrashReporterSupport
import Foundation

/// Removes a request's content coding (`Content-Encoding: gzip`), keeping the result bounded.
enum BodyDecoding {
    enum BodyDecodingError: Error, Equatable {
        case tooLarge(limit: Int)
        case unsupported(String)
        case corrupt(String)
    }

    static func decode(_ request: ReceivedRequest, limit: Int) -> Result<Data, BodyDecodingError> {
        let codings = request.headers.values(for: "Content-Encoding").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingASCIIWhitespace().lowercased() }.filter { !$0.isEmpty && $0 != "identity" }
        var body = request.body
        // Codings are listed in the order they were applied; undo them from the last.
        for coding in codings.reversed() {
            guard coding == "gzip" || coding == "x-gzip" else { return .failure(.unsupported(coding)) }
            do {
                body = Data(try Gzip.decompress(body, limit: limit))
            } catch {
                if case .tooLarge = error { return .failure(.tooLarge(limit: limit)) }
                return .failure(.corrupt("gzip request body: \(error)"))
            }
        }
        return .success(body)
    }

    /// The response for a failure, in the endpoint's own error shape.
    static func response(_ failure: BodyDecodingError, events: Bool = false) -> HTTPResponse {
        let (status, reason) = statusAndReason(failure)
        if events {
            return EventsEndpoint.error(
                status, code: status == 413 ? "payload_too_large" : "invalid_body", message: reason)
        }
        return Collector.error(status, reason)
    }

    /// The status and words for a failure, for an endpoint that answers in a shape of its own.
    static func statusAndReason(_ failure: BodyDecodingError) -> (status: Int, reason: String) {
        switch failure {
        case .tooLarge(let limit): (413, "decoded request body larger than \(ByteCount.text(limit))")
        case .unsupported(let coding): (415, "unsupported Content-Encoding \(coding)")
        case .corrupt(let reason): (400, reason)
        }
    }
}

extension Collector {
    /// Runs `endpoint` on the request's body without its content coding (`BodyDecoding`, at most
    /// `maxBodyBytes`); a body that cannot be decoded is answered in the collector's error shape.
    func withDecodedBody(of request: ReceivedRequest, _ endpoint: (Data) -> HTTPResponse) -> HTTPResponse {
        switch BodyDecoding.decode(request, limit: configuration.maxBodyBytes) {
        case .success(let body): endpoint(body)
        case .failure(let failure): BodyDecoding.response(failure)
        }
    }
}
