/// Token buckets per key: `perMinute` tokens refill evenly over a minute, up to `perMinute`.
/// A value type with an explicit clock, so it is tested without waiting.
struct RateLimiter: Sendable {
    let perMinute: Int
    private var buckets: [String: (tokens: Double, updated: Double)] = [:]
    /// Buckets kept before full ones are forgotten (a full bucket is the same as no bucket).
    private let maxBuckets = 10_000

    init(perMinute: Int) {
        self.perMinute = perMinute
    }

    /// Seconds until `cost` tokens are available for every key in `costs`, or 0 when they are
    /// now; in that case they are taken. Nothing is taken when any key has to wait.
    mutating func take(_ costs: [String: Int], now: Double) -> Double {
        let rate = Double(perMinute) / 60
        var wait = 0.0
        for (key, cost) in costs {
            let tokens = level(key, now: now)
            if Double(cost) > Double(perMinute) {
                wait = max(wait, 60)  // can never fit: ask for a full minute and a smaller batch
            } else if tokens < Double(cost) {
                wait = max(wait, (Double(cost) - tokens) / rate)
            }
        }
        if wait > 0 { return wait }
        for (key, cost) in costs {
            buckets[key] = (level(key, now: now) - Double(cost), now)
        }
        if buckets.count > maxBuckets {
            buckets = buckets.filter { level($0.key, now: now) < Double(perMinute) }
        }
        return 0
    }

    private func level(_ key: String, now: Double) -> Double {
        guard let bucket = buckets[key] else { return Double(perMinute) }
        let refill = max(0, now - bucket.updated) * Double(perMinute) / 60
        return min(Double(perMinute), bucket.tokens + refill)
    }
}
