import CrashReporterSupport

/// The span a chart covers, ending with the bucket that holds "now": the last 24 hours by
/// hour, or the last 14 days by day (UTC).
struct ActivityWindow: Sendable, Equatable {
    enum Range: String, Sendable, CaseIterable {
        case day = "24h"
        case fortnight = "14d"
    }

    var range: Range
    /// Seconds per bucket.
    var bucketSeconds: Int64
    /// Index (Unix seconds / bucketSeconds) of the first bucket.
    var firstBucket: Int64
    var bucketCount: Int

    init(range: Range, now: Double) {
        self.range = range
        bucketSeconds = range == .day ? 3600 : 86400
        bucketCount = range == .day ? 24 : 14
        let current = Int64(now.rounded(.down)) / bucketSeconds
        firstBucket = current - Int64(bucketCount) + 1
    }

    /// How many of `timesMs` fall in each bucket; times outside the window are left out.
    func counts(timesMs: [Int64]) -> [Int] {
        var counts = Array(repeating: 0, count: bucketCount)
        for time in timesMs {
            let bucket = Int(time.floorDivided(by: bucketSeconds * 1000) - firstBucket)
            if counts.indices.contains(bucket) { counts[bucket] += 1 }
        }
        return counts
    }

    /// `hourly` counts (by Unix hour) gathered into this window's buckets.
    func counts(hourly: [Int64: Int]) -> [Int] {
        var counts = Array(repeating: 0, count: bucketCount)
        for (hour, count) in hourly {
            let bucket = Int((hour * 3600).floorDivided(by: bucketSeconds) - firstBucket)
            if counts.indices.contains(bucket) { counts[bucket] += count }
        }
        return counts
    }

    /// What a bucket is called in its tooltip: `2026-12-01 13:00` or `2026-12-01`.
    func label(_ index: Int) -> String {
        let start = Timestamp(seconds: Double((firstBucket + Int64(index)) * bucketSeconds)).iso8601
        // 2026-12-01T13:00:00.000Z
        return range == .day ? String(start.prefix(13)).replacingT() + ":00" : String(start.prefix(10))
    }
}

extension Int64 {
    /// Division rounding towards minus infinity (times before 1970 stay in their bucket).
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

extension String {
    fileprivate func replacingT() -> String { String(map { $0 == "T" ? " " : $0 }) }
}
