import CCrashReporter
import CrashReporter
import Foundation

/// Breadcrumb cost, ns per record, for the C ring and the Mutex ring, side by side, and the
/// peer's sentry_add_breadcrumb when it is built.
enum BreadcrumbBenchmark {
    static let perThread = 2_000_000
    static let data: [(key: String, value: String)] = [("items", "3")]

    /// Runs `body` on `threads` threads at once, `perThread` times each; returns the wall
    /// time in ns divided by `perThread` (the cost of one record as one thread sees it).
    static func measure(threads: Int, _ body: @escaping @Sendable (Int) -> Void) -> Double {
        let group = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        for _ in 0..<threads {
            group.enter()
            Thread.detachNewThread {
                start.wait()
                for i in 0..<perThread { body(i) }
                group.leave()
            }
        }
        let clock = ContinuousClock()
        let began = clock.now
        for _ in 0..<threads { start.signal() }
        group.wait()
        return nanoseconds(clock.now - began) / Double(perThread)
    }

    static func run() -> [String] {
        precondition(scr_breadcrumbs_configure(100) == 0)
        let mutexRing = MutexRing(capacity: 100)
        var lines = ["| breadcrumb, ns per record (per thread) | 1 thread | 2 threads |", "|---|---|---|"]
        let cases: [(String, @Sendable (Int) -> Void)] = [
            ("C ring, message only", { _ in Breadcrumbs.record("checkout.step", category: "bench") }),
            (
                "Mutex ring, message only",
                { _ in
                    mutexRing.record("checkout.step", category: "bench", level: .info, data: [])
                }
            ),
            ("C ring, one data pair", { _ in Breadcrumbs.record("checkout.step", category: "bench", data: data) }),
            (
                "Mutex ring, one data pair",
                { _ in
                    mutexRing.record("checkout.step", category: "bench", level: .info, data: data)
                }
            ),
        ]
        for _ in 0..<2 { _ = measure(threads: 1, cases[0].1) }  // warm up
        for (name, body) in cases {
            // Best of three: the machine is shared, the minimum is the least disturbed run.
            let one = (0..<3).map { _ in measure(threads: 1, body) }.min()!
            let two = (0..<3).map { _ in measure(threads: 2, body) }.min()!
            lines.append("| \(name) | \(format(one)) | \(format(two)) |")
        }
        if !Peer.available {
            lines.append("")
            lines.append(Peer.skipped)
        } else if let peer = try? Peer.breadcrumbs() {
            lines.append(
                "| \(Peer.name), one data pair (\(perThread / 10) per thread) | \(format(peer.one)) | \(format(peer.two)) |"
            )
        }
        return lines
    }
}
