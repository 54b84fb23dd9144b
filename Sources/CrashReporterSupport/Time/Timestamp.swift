import Glibc

/// A point in time: whole milliseconds since 1970-01-01T00:00:00Z (Unix time, UTC).
///
/// Milliseconds in an `Int64` rather than seconds in a `Double`: the report's own times are
/// integer milliseconds (`timestamp_ms`, written by the C handler), every ISO 8601 text the
/// project writes has millisecond precision, and integers convert to text and compare without
/// rounding surprises (`.512` never becomes `.511`). The range is ±292 million years.
package struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    package var milliseconds: Int64

    package init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// The nearest millisecond to `seconds` since 1970 (clamped to the representable range;
    /// NaN is 1970).
    package init(seconds: Double) {
        let millis = (seconds * 1000).rounded()
        if millis.isNaN {
            milliseconds = 0
        } else if millis >= 9.2e18 {
            milliseconds = .max
        } else if millis <= -9.2e18 {
            milliseconds = .min
        } else {
            milliseconds = Int64(millis)
        }
    }

    /// The current time of the system's real-time clock (`CLOCK_REALTIME`): may jump when the
    /// clock is set; measure durations with a monotonic clock instead.
    package static func now() -> Timestamp {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Timestamp(milliseconds: Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000)
    }

    /// Seconds since 1970, with the milliseconds as a fraction (Sentry's `timestamp`).
    package var seconds: Double { Double(milliseconds) / 1000 }

    /// The time `seconds` later (earlier when negative), to the nearest millisecond.
    package func adding(seconds: Double) -> Timestamp {
        Timestamp(seconds: self.seconds + seconds)
    }

    /// Seconds from `other` to this time (negative when this one is earlier).
    package func seconds(since other: Timestamp) -> Double {
        Double(milliseconds - other.milliseconds) / 1000
    }

    package static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.milliseconds < rhs.milliseconds }

    /// The ISO 8601 text.
    package var description: String { iso8601 }

    /// Splits the time into its day (since 1970) and the milliseconds into that day.
    var dayAndMillisecond: (day: Int, millisecond: Int) {
        let perDay: Int64 = 86_400_000
        var day = milliseconds / perDay
        var millisecond = milliseconds % perDay
        if millisecond < 0 {
            millisecond += perDay
            day -= 1
        }
        return (Int(day), Int(millisecond))
    }
}
