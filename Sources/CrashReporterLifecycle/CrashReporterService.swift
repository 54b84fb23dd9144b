import CrashReporter
import ServiceLifecycle

/// The crash reporter's background delivery as a swift-service-lifecycle `Service`. In a
/// `ServiceGroup` it delivers the pending reports in the background while the group runs, and on
/// the group's graceful shutdown (SIGTERM, say) it stops the delivery worker after the report it
/// is sending, waiting at most `stopTimeout`; what was not sent stays pending for the
/// next launch.
///
/// ```swift
/// try CrashReporter.start(Options(appName: "orders", deliverAtStart: false))
/// let group = ServiceGroup(
///     services: [CrashReporterService(), server], gracefulShutdownSignals: [.sigterm], logger: logger)
/// try await group.run()
/// ```
///
/// `CrashReporter.start` still comes first, at the top of `main`: the handlers must be armed
/// before anything else runs. With `deliverAtStart: false` delivery waits for the group; with
/// the default, the service takes over the worker `start` began.
public struct CrashReporterService: Service {
    /// How long a graceful shutdown waits for the delivery worker.
    public var stopTimeout: Duration

    /// A service that waits up to `stopTimeout` for the delivery worker at shutdown.
    public init(stopTimeout: Duration = .seconds(5)) {
        self.stopTimeout = stopTimeout
    }

    /// Starts delivery (`CrashReporter.startDelivery()`), waits for the group's graceful shutdown
    /// or cancellation, then stops the worker within ``stopTimeout``.
    public func run() async throws {
        CrashReporter.startDelivery()
        // Until the group shuts down gracefully, or cancels its services.
        try? await gracefulShutdown()
        await stopDelivery()
    }

    /// Stops the worker without holding a thread of the cooperative pool while it finishes.
    private func stopDelivery() async {
        let deadline = ContinuousClock.now + stopTimeout
        while !CrashReporter.stopDelivery(timeout: .zero), ContinuousClock.now < deadline {
            // Cancelled: the group is going down regardless; the worker's thread ends with the process.
            do { try await Task.sleep(for: .milliseconds(10)) } catch { return }
        }
    }
}
