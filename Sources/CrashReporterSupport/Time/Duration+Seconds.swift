extension Duration {
    /// The duration in seconds, as the package's deadlines and waits count them internally.
    package var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration in whole milliseconds, rounded toward zero (the C core's unit). Only for
    /// durations already checked to fit (a setting's bounds): a larger one traps.
    package var inMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}

extension Duration {
    /// Seconds in a day, for the settings counted in days.
    package static let secondsPerDay: Int64 = 86400

    /// The longest duration a setting's number becomes: 1e15 s, about 31 million years, so that
    /// a huge number of seconds or days (which the settings' rule lets through) is a very long
    /// time rather than a trap in `Duration`'s conversion.
    package static let longestSetting = Duration.seconds(1e15)

    /// `seconds`, a setting's number (finite, zero or more), capped at `longestSetting`.
    package static func seconds(clamping seconds: Double) -> Duration {
        seconds >= longestSetting.inSeconds ? longestSetting : .seconds(seconds)
    }

    /// A number of days, as the settings counted in days give it, capped at `longestSetting`.
    package static func days(_ days: Double) -> Duration {
        .seconds(clamping: days * Double(secondsPerDay))
    }

    /// The duration in days, as the settings counted in days show it.
    package var inDays: Double { inSeconds / Double(Self.secondsPerDay) }
}
