import Foundation

/// Scripts/fault_server.py as a child process: a receiver that answers each upload with the
/// next response of a script (statuses, Retry-After, resets, delays) and records what it got,
/// over plain http or, given test certificates, over https.
public final class FaultServer {
    public let port: Int
    /// `http` or `https`.
    public let scheme: String
    /// Where the script records the requests (`requests.jsonl`) and their bodies (`body-<n>`).
    public let records: URL
    private let server: PythonServer

    /// Starts a receiver that answers with `responses` (see the script for the forms); over
    /// https with `certificates`' server certificate when given.
    public init(responses: [String], tls certificates: TestCertificates? = nil) throws {
        records = FileManager.default.temporaryDirectory.appendingPathComponent("server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: records, withIntermediateDirectories: true)
        var arguments = [records.path, responses.joined(separator: ",")]
        if let certificates {
            arguments = ["--tls", certificates.serverCertificate, certificates.serverKey] + arguments
        }
        server = try PythonServer(script: "fault_server.py", arguments: arguments)
        port = server.port
        scheme = certificates == nil ? "http" : "https"
    }

    deinit {
        // Stopped first, so that nothing is written into the records once they are gone.
        server.stop()
        try? FileManager.default.removeItem(at: records)
    }

    /// The receiver's report endpoint, `/api/reports`.
    public var url: String { "\(scheme)://127.0.0.1:\(port)/api/reports" }

    /// The requests received so far, in order: `path`, `headers` (names in lower case),
    /// `length`, `response` (the scripted answer) and, for Sentry envelopes, `envelope`.
    public var requests: [[String: Any]] {
        guard let text = try? String(contentsOf: records.appendingPathComponent("requests.jsonl"), encoding: .utf8)
        else {
            return []
        }
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.sorted { ($0["n"] as? Int ?? 0) < ($1["n"] as? Int ?? 0) }
    }

    /// The body of request `n` (from 0), as received.
    public func body(_ n: Int) -> Data? { try? Data(contentsOf: records.appendingPathComponent("body-\(n)")) }

    /// A header of a recorded request, by name in any case.
    public static func header(_ request: [String: Any], _ name: String) -> String? {
        (request["headers"] as? [String: String])?[name.lowercased()]
    }
}

extension FaultServer {
    /// The requests that carried a report: the runs' sessions (docs/runs.md) reach the same
    /// server after the reports of a pass, at the sibling `sessions` URL or in an envelope of
    /// session items.
    public var reportRequests: [[String: Any]] {
        requests.filter { request in
            if (request["path"] as? String)?.hasSuffix("/sessions") == true { return false }
            let items = (request["envelope"] as? [String: Any])?["items"] as? [[String: Any]] ?? []
            let types = items.map { ($0["header"] as? [String: Any])?["type"] as? String }
            return types.isEmpty || types.contains { $0 != "session" }
        }
    }
}
