import Foundation

/// Summary statistics of a set of samples.
struct Stats {
    var samples: [Double]

    var sorted: [Double] { samples.sorted() }
    var median: Double { percentile(0.5) }
    var p90: Double { percentile(0.9) }
    var min: Double { sorted.first ?? .nan }

    func percentile(_ p: Double) -> Double {
        let s = sorted
        guard !s.isEmpty else { return .nan }
        return s[Swift.min(s.count - 1, Int(Double(s.count - 1) * p + 0.5))]
    }
}

func nanoseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
}

func format(_ value: Double, _ digits: Int = 1) -> String {
    String(format: "%.\(digits)f", value)
}

/// Where the release executables are: next to this benchmark.
var executableDirectory: URL {
    URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
}
