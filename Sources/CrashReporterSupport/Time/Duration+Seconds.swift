extension Duration {
    /// The duration in seconds, as the package's deadlines and waits count them internally.
    package var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

extension Duration {
    /// Seconds in a day, for the settings counted in days.
    package static let secondsPerDay: Int64 = 86400

    /// A number of days, as the settings counted in days give it.
    package static func days(_ days: Double) -> Duration {
        .seconds(days * Double(secondsPerDay))
    }

    /// The duration in days, as the settings counted in days show it.
    package var inDays: Double { inSeconds / Double(Self.secondsPerDay) }
}
