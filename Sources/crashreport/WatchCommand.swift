import ArgumentParser
import CrashReportDelivery
import CrashReporterSupport

/// `crashreport watch`: a sidecar beside the service that delivers each report as it is
/// renamed into `pending/` (inotify), with the same lock and rules as the service's own worker,
/// until SIGTERM or SIGINT (docs/deployment.md).
struct WatchCommand: ToolSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Deliver each report as it arrives, until stopped (a sidecar beside the service).",
        discussion: """
            Watches DIR/pending/ with inotify and runs a delivery pass as soon as a report arrives, with the \
            service's own rules (retries with backoff, Retry-After, rejections, the crash-loop cap, the \
            retention bounds) and the same directory lock, so that a report is never sent twice when the \
            service delivers too. Looks again every --rescan seconds, and once a second while pending/ cannot \
            be watched (not made yet, or removed); DIR itself may be made after it starts. Exits with 0 on \
            SIGTERM or SIGINT.
            """)

    @OptionGroup var delivery: DeliveryArguments

    @Option(help: ArgumentHelp("Seconds between rescans of pending/ when nothing arrives.", valueName: "seconds"))
    var rescan: Double = 30

    @OptionGroup var stateDirectory: StateDirectoryArgument

    func validate() throws {
        guard rescan.isFinite, rescan > 0 else { throw ValidationError("--rescan must be more than 0") }
    }

    func run(environment: [String: String], output: inout some TextOutputStream) throws {
        // The service may not have made its state directory yet: passes fail to lock it until then.
        let directory = try stateDirectory.resolved(environment: environment, mustExist: false)
        let pipeline = try delivery.pipeline(directory: directory, environment: environment)
        try StopSignals.install()
        let watcher = PendingWatcher(folder: pipeline.store.pending)
        output.write("Watching \(pipeline.store.pending) (stop with SIGTERM or SIGINT).\n")
        while !StopSignals.isRequested {
            watcher.ensureWatch()
            var wait = rescan
            do {
                let summary = try pipeline.run(until: { StopSignals.isRequested })
                if summary != DeliverySummary() { summary.write(to: &output, store: pipeline.store) }
                if let next = summary.nextPass { wait = Swift.min(wait, next - Timestamp.now().seconds) }
            } catch {
                // Another process (the service's worker, or another watch) holds the lock and
                // delivers; look again soon, for a report that arrives as it finishes.
                wait = Swift.min(wait, 0.5)
            }
            if !watcher.ensureWatch() { wait = Swift.min(wait, 1) }
            // A floor, so that a retry due now never spins.
            wait = Swift.max(wait, 0.05)
            if watcher.wait(timeout: wait, stopDescriptor: StopSignals.descriptor) == .stop { break }
        }
        output.write("Stopped.\n")
    }
}
