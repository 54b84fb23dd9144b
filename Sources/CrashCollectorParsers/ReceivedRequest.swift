import CrashReporterHTTP
import Foundation

/// A whole request as the collector received it: its head and its body (the transfer coding
/// removed, content coding kept). The client's `HTTPRequest` is the other side's: where to send,
/// within what deadline.
package struct ReceivedRequest: Sendable, Equatable {
    package var head: HTTPRequestHead
    package var body: Data

    package var method: String { head.method }
    package var path: String { head.path }
    package var headers: HTTPHeaders { head.headers }
}
