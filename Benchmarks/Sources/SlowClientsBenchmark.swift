import Foundation

/// The collector under a slowloris attack, side by side with none: a fresh `crash-collector`
/// each time, then `slow` clients that each send half a request head and wait (the header time
/// set long enough that none is cut off during the run), then a well-behaved client's
/// `GET /api/reports`, each on a new connection: how long it waits, and the collector's peak
/// resident memory (VmHWM) and thread count with the slow clients connected.
enum SlowClientsBenchmark {
    static let requests = 100
    static let halfHead = Array("GET /api/reports HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Wait: ".utf8)

    static func run(collector: String, slowCounts: [Int] = [0, 1000]) -> [String] {
        var rows: [String] = []
        for slow in slowCounts {
            do {
                let result = try measure(collector: collector, slow: slow)
                rows.append(
                    "| \(slow) | \(format(result.latency.median / 1e6, 2)) | \(format(result.latency.p90 / 1e6, 2)) "
                        + "| \(result.failures) | \(format(result.peakRSS / 1_048_576, 1)) | \(result.threads) |")
            } catch {
                rows.append("| \(slow) | failed: \(error) | | | | |")
            }
        }
        return [
            "| slow clients holding half a head | GET /api/reports median ms | p90 ms | failed | collector peak RSS MB "
                + "| collector threads |",
            "|---|---|---|---|---|---|",
        ] + rows
    }

    struct Result {
        var latency: Stats
        var failures: Int
        var peakRSS: Double
        var threads: Int
    }

    static func measure(collector: String, slow: Int) throws -> Result {
        raiseDescriptorLimit(slow + 256)
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("slow-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try CollectorBenchmark.CollectorServer(
            binary: collector, data: data, arguments: ["--header-timeout", "300"])
        defer { server.stop() }
        let address = try CollectorBenchmark.LoopbackAddress(port: server.port)

        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        for _ in 0..<slow {
            guard let fd = address.connected() else {
                throw CollectorBenchmark.Failure("slow client \(held.count): errno \(errno)")
            }
            held.append(fd)
            guard send(fd, halfHead, halfHead.count, Int32(MSG_NOSIGNAL)) == halfHead.count else {
                throw CollectorBenchmark.Failure("slow client \(held.count): errno \(errno)")
            }
        }
        usleep(500_000)  // every slow connection accepted and waiting

        let request = Array("GET /api/reports HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        let clock = ContinuousClock()
        var latencies: [Double] = []
        var failures = 0
        for _ in 0..<requests {
            let start = clock.now
            if address.exchange(request)?.starts(with: Array("HTTP/1.1 200 ".utf8)) != true { failures += 1 }
            latencies.append(nanoseconds(clock.now - start))
        }
        let status =
            (try? String(contentsOfFile: "/proc/\(server.process.processIdentifier)/status", encoding: .utf8)) ?? ""
        func field(_ name: String) -> Double {
            let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
            return Double(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") ?? .nan
        }
        return Result(
            latency: Stats(samples: latencies), failures: failures, peakRSS: field("VmHWM") * 1024,
            threads: Int(field("Threads").isNaN ? -1 : field("Threads")))
    }

    static func raiseDescriptorLimit(_ count: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(count) else { return }
        limit.rlim_cur = min(rlim_t(count), limit.rlim_max)
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
