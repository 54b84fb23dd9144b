import CrashReportFormat

extension DeliveryConfiguration {
    /// The deliverer of `store`'s reports by this configuration: its retry policy and limits,
    /// and before every pass the consent rule (the stored opt-out, and the operators' override
    /// in the environment this configuration was read from). The service's worker and
    /// `crashreport upload` both take theirs from here, so that both deliver by one rule.
    package func deliverer(
        store: ReportStore, transport: any ReportTransport,
        symbolicate: (@Sendable (CrashReport) -> ReportSymbols)?
    ) -> Deliverer {
        var deliverer = Deliverer(
            store: store, transport: transport, policy: policy, symbolicate: symbolicate,
            isAllowed: { [environment, stateDirectory = store.stateDirectory] in
                CrashReportingChoice.isEnabled(stateDirectory: stateDirectory, environment: environment)
            })
        deliverer.limits = limits
        return deliverer
    }
}
