import CrashReporter
import Vapor

/// Stops the crash reporter's background delivery when Vapor shuts down (SIGTERM, SIGINT, or
/// `app.running?.stop()`): the worker finishes the report it is sending, waiting at most
/// `stopTimeout`; what was not sent stays pending for the next launch. Registered with
/// `app.lifecycle.use(CrashReportDelivery())`; `CrashReporter.start` began the delivery.
struct CrashReportDelivery: LifecycleHandler {
    /// How long the shutdown waits for the delivery worker.
    var stopTimeout: Duration = .seconds(5)

    func shutdownAsync(_ application: Application) async {
        // Blocks this thread for as long as the worker takes (`stopTimeout` at most); at shutdown
        // nothing else waits for it.
        if !CrashReporter.stopDelivery(timeout: stopTimeout) {
            application.logger.warning("crash report delivery did not stop in time; what is left stays pending")
        }
    }
}
