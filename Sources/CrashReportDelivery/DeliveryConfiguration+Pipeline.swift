import CrashReportFormat

extension DeliveryConfiguration {
    /// The pipeline of `store`'s reports by this configuration: its retry policy and limits,
    /// and before every report the consent rule (the stored opt-out, and the operators'
    /// override in the environment this configuration was read from). The service's worker and
    /// `crashreport upload` both take theirs from here, so that both deliver by one rule.
    package func pipeline(
        store: ReportStore, transport: any ReportTransport,
        symbolicate: (@Sendable (CrashReport) -> ReportSymbols)?
    ) -> NextLaunchPipeline {
        var pipeline = NextLaunchPipeline(
            store: store, transport: transport, policy: policy, symbolicate: symbolicate,
            isAllowed: { [environment, stateDirectory = store.stateDirectory] in
                CrashReportingChoice.isEnabled(stateDirectory: stateDirectory, environment: environment)
            })
        pipeline.limits = limits
        return pipeline
    }
}
