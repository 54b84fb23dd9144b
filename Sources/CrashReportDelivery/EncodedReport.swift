import CrashReporterHTTP

/// A report in its transport's wire form, ready to post: what `ReportTransport.encode` makes
/// and `ReportTransport.send` posts (a Sentry envelope, an OTLP log export, the file itself).
package struct EncodedReport: Sendable {
    /// The report's id: the server drops a repeat by it, and what the transport says of the
    /// answer names it.
    package var id: String
    /// The whole request: URL, method, headers, body and timeout.
    package var request: HTTPRequest

    package init(id: String, request: HTTPRequest) {
        self.id = id
        self.request = request
    }
}

/// Why a transport could not put a report in its wire form: a verdict on the report, which is
/// rejected with this reason and never retried.
package struct TransportEncodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The reason kept with the rejected report (`rejected/<id>.reason`).
    package var reason: String

    package init(_ reason: String) {
        self.reason = reason
    }

    package var description: String { reason }
}
