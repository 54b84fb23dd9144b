/// The network seam of ``Debuginfod``: one `GET` of a URL, bounded in time and size. This module
/// sits below the HTTP layer and never opens a socket; a module that may talk to the network
/// (CrashReportDelivery's `HTTPDebugFileFetcher`) provides the implementation, and tests can
/// give their own. See docs/decisions/0094-debuginfod-behind-a-seam-and-off-in-the-service.md.
public protocol DebugFileFetcher: Sendable {
    /// The body of `url`, following redirects, in at most `timeout` all told and at most
    /// `maxBytes` bytes; nothing but the URL is sent.
    func fetch(_ url: String, maxBytes: Int, timeout: Duration) -> DebugFileFetch
}

/// What one fetch came back with.
public enum DebugFileFetch: Sendable, Equatable {
    /// The whole body of a `200 OK`.
    case file([UInt8])
    /// `404 Not Found`: the server has no such file (a miss, cached as elfutils caches one).
    case notFound
    /// Anything else (no connection, a timeout, another status, too large, redirects without
    /// end), as one line for a note.
    case failed(String)
}
