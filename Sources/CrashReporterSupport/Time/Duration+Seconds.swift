extension Duration {
    /// The duration in seconds, as the package's deadlines and waits count them internally.
    package var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
