import CrashReportFormat
import Foundation
import Synchronization

/// Uploads per second to a fresh `crash-collector` on loopback, as the plain transport sends
/// them: `POST /api/reports` with the report file and its `X-Crash-Report-ID`, each report
/// a new id (so every upload is stored: decoded, validated, written, fsynced, linked and
/// indexed), each on a new connection, as separate services would upload. 1 and 4 clients,
/// each configuration against its own fresh collector and empty data directory.
enum CollectorBenchmark {
    /// Uploads per configuration, after `warmUp` untimed ones.
    static let uploads = 400
    static let warmUp = 20

    /// `collector`: the release `crash-collector`; `reportPath`: a report file to upload (its id
    /// is replaced for every upload). Returns markdown lines, or one line saying what failed.
    static func run(collector: String, reportPath: String) -> [String] {
        do {
            let template = try Template(reportPath: reportPath)
            var rows: [String] = []
            for clients in [1, 4] {
                let result = try measure(collector: collector, template: template, clients: clients)
                rows.append(
                    "| \(clients) client\(clients == 1 ? "" : "s") | \(format(result.perSecond, 0)) "
                        + "| \(format(result.latency.median / 1e6, 2)) | \(format(result.latency.p90 / 1e6, 2)) "
                        + "| \(result.failures) |")
            }
            return [
                "| collector, \(uploads) uploads of a \(template.compressedSize)-byte report, new connection each "
                    + "| uploads/s | median ms | p90 ms | failed |",
                "|---|---|---|---|---|",
            ] + rows
        } catch {
            return ["Collector benchmark failed: \(error)"]
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The report's JSON, into which a new id is put for every upload.
    struct Template {
        let json: String
        let id: String
        let compressedSize: Int

        init(reportPath: String) throws {
            let file = try Data(contentsOf: URL(fileURLWithPath: reportPath))
            id = try ReportDecoding.decode(gzipData: file).reportID
            json = String(decoding: try Gzip.decompress(file), as: UTF8.self)
            compressedSize = file.count
        }

        /// A whole request: the report with a fresh id, gzip-compressed, behind its head.
        func request(port: Int) throws -> [UInt8] {
            let newID = UUID().uuidString.lowercased()
            let body = try Gzip.compress(Data(json.replacingOccurrences(of: id, with: newID).utf8))
            let head =
                "POST /api/reports HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/gzip\r\n"
                + "X-Crash-Report-ID: \(newID)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
            return Array(head.utf8) + Array(body)
        }
    }

    struct Result {
        var perSecond: Double
        var latency: Stats
        var failures: Int
    }

    static func measure(collector: String, template: Template, clients: Int) throws -> Result {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("collector-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try CollectorServer(binary: collector, data: data)
        defer { server.stop() }
        let address = try LoopbackAddress(port: server.port)

        // Requests are made before the clock starts: compressing is the client's work, not the collector's.
        for request in try (0..<warmUp).map({ _ in try template.request(port: server.port) }) {
            _ = address.upload(request)
        }
        let perClient = uploads / clients
        let requests = try (0..<clients).map { _ in
            try (0..<perClient).map { _ in try template.request(port: server.port) }
        }

        let results = Results()
        let finished = DispatchGroup()
        let clock = ContinuousClock()
        let began = clock.now
        for client in 0..<clients {
            finished.enter()
            // Threads of their own: Dispatch would run no more of them at once than there are cores.
            let thread = Thread {
                var latencies: [Double] = []
                var failures = 0
                for request in requests[client] {
                    let start = clock.now
                    if !address.upload(request) { failures += 1 }
                    latencies.append(nanoseconds(clock.now - start))
                }
                results.add(latencies, failures: failures)
                finished.leave()
            }
            thread.start()
        }
        finished.wait()
        let elapsed = nanoseconds(clock.now - began) / 1e9
        let (latencies, failures) = results.all
        return Result(
            perSecond: Double(perClient * clients - failures) / elapsed, latency: Stats(samples: latencies),
            failures: failures)
    }

    /// What the client threads measured.
    final class Results: Sendable {
        private let state = Mutex<(latencies: [Double], failures: Int)>(([], 0))

        func add(_ latencies: [Double], failures: Int) {
            state.withLock {
                $0.latencies += latencies
                $0.failures += failures
            }
        }

        var all: ([Double], Int) { state.withLock { ($0.latencies, $0.failures) } }
    }

    /// 127.0.0.1:port resolved once with getaddrinfo; each upload connects anew.
    struct LoopbackAddress: @unchecked Sendable {
        let storage: sockaddr_storage
        let length: socklen_t
        let family: Int32

        init(port: Int) throws {
            var hints = addrinfo()
            hints.ai_family = AF_INET
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo("127.0.0.1", String(port), &hints, &list) == 0, let first = list else {
                throw Failure("getaddrinfo 127.0.0.1:\(port) failed")
            }
            defer { freeaddrinfo(list) }
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) { target in
                target.copyMemory(
                    from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
            }
            self.storage = storage
            length = first.pointee.ai_addrlen
            family = first.pointee.ai_family
        }

        /// Sends one whole request and reads the answer to its end; true for `201 Created`.
        func upload(_ request: [UInt8]) -> Bool {
            exchange(request)?.starts(with: Array("HTTP/1.1 201 ".utf8)) ?? false
        }

        /// A new connected socket, or nil.
        func connected() -> Int32? {
            let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return nil }
            var address = storage
            let result = withUnsafePointer(to: &address) {
                connect(fd, UnsafeRawPointer($0).assumingMemoryBound(to: sockaddr.self), length)
            }
            guard result == 0 else {
                close(fd)
                return nil
            }
            return fd
        }

        /// Sends one whole request on a new connection and reads the answer until the server
        /// closes; nil when connecting or sending failed.
        func exchange(_ request: [UInt8]) -> [UInt8]? {
            guard let fd = connected() else { return nil }
            defer { close(fd) }
            var offset = 0
            while offset < request.count {
                let sent = request[offset...].withUnsafeBytes {
                    send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                guard sent > 0 else { return nil }
                offset += sent
            }
            var answer: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                guard count > 0 else { break }
                answer += buffer[0..<count]
            }
            return answer
        }
    }

    /// The collector as a child process on a free port.
    final class CollectorServer {
        let process = Process()
        let port: Int

        init(binary: String, data: URL, arguments: [String] = []) throws {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["--port", "0", "--data", data.path] + arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            // The ready line is written in one piece: "crash-collector listening on http://127.0.0.1:PORT\n".
            var line = Data()
            while !line.contains(0x0a) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                line += chunk
            }
            guard let text = String(data: line, encoding: .utf8), let colon = text.lastIndex(of: ":"),
                let port = Int(text[text.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines))
            else {
                process.terminate()
                throw Failure("the collector did not say its port: \(String(decoding: line, as: UTF8.self))")
            }
            self.port = port
        }

        func stop() {
            process.terminate()
            process.waitUntilExit()
        }
    }
}
