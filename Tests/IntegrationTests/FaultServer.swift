import Foundation

/// Support/fault_server.py as a child process: a receiver that answers each upload with the
/// next response of a script (statuses, Retry-After, resets, delays) and records what it got.
final class FaultServer {
    let port: Int
    let records: URL
    private let process: Process

    init(responses: [String]) throws {
        records = FileManager.default.temporaryDirectory.appendingPathComponent("server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: records, withIntermediateDirectories: true)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Support/fault_server.py")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, records.path, responses.joined(separator: ",")]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        // The first line is "listening on PORT".
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard
            let port = text.split(separator: " ").last.flatMap({
                Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
            })
        else {
            kill(process.processIdentifier, SIGKILL)
            throw NSError(domain: "FaultServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "no port in '\(text)'"])
        }
        self.port = port
    }

    deinit {
        // SIGKILL: the child may have inherited a signal mask that blocks SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: records)
    }

    var url: String { "http://127.0.0.1:\(port)/api/reports" }

    /// The requests received so far, in order.
    var requests: [[String: Any]] {
        guard let text = try? String(contentsOf: records.appendingPathComponent("requests.jsonl"), encoding: .utf8)
        else {
            return []
        }
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.sorted { ($0["n"] as? Int ?? 0) < ($1["n"] as? Int ?? 0) }
    }

    func body(_ n: Int) -> Data? { try? Data(contentsOf: records.appendingPathComponent("body-\(n)")) }

    static func header(_ request: [String: Any], _ name: String) -> String? {
        (request["headers"] as? [String: String])?[name.lowercased()]
    }
}

/// A port on which nothing listens (bound, then closed).
func closedPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            _ = bind(fd, pointer, length)
            _ = getsockname(fd, pointer, &length)
        }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}
