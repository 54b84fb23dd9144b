import CrashReportFormat
import CrashReportSentry
import CrashReporterSupport

/// The next launch's work on a state directory, wired in this one place: each pending report,
/// oldest first, under the directory lock, goes through six named stages, in this order.
///
/// 1. `decode`: the file read and decoded; a damaged one is set aside in `rejected/` with its
///    reason, never retried.
/// 2. `symbolicate`: names for its frames, when the transport or the crash-loop cap wants them.
/// 3. `capAndSign`: its signature (`CrashSignature`) and the crash-loop cap
///    (docs/crash-loops.md); a report over the cap is withheld.
/// 4. `encode`: the transport's wire form (a Sentry envelope, an OTLP log record, the file
///    itself); a report that cannot be put in it is rejected with the reason.
/// 5. `send`: one attempt to post it.
/// 6. `record`: the answer kept by `DeliveryPolicy`'s rule: delivered, retry later, or rejected;
///    then, at the end of the pass, the runs' sessions.
///
/// Around the stages, the pass's rules: `stop` is asked before each report; the consent rule
/// (`isAllowed`) before each one too, and a user who opted out meanwhile has every pending
/// report deleted; the retention bounds are kept before each report; after a failure the rest
/// of the pass waits. The service's worker (`DeliveryWorker`), `crashreport upload` and
/// `crashreport watch` all run this pipeline, taken from `DeliveryConfiguration.pipeline`.
package struct NextLaunchPipeline: Sendable {
    package var store: ReportStore
    package var transport: any ReportTransport
    package var policy: DeliveryPolicy
    /// Symbols for a report; nil symbolicates nothing.
    package var symbolicator: (@Sendable (CrashReport) -> ReportSymbols)?
    /// Asked before each report: false means the user opted out since, and pending reports
    /// are deleted instead of sent.
    package var isAllowed: @Sendable () -> Bool
    package var now: @Sendable () -> Timestamp
    package var random: @Sendable () -> Double
    /// The crash-loop cap and the retention bounds (docs/crash-loops.md).
    package var limits = DeliveryLimits()

    package init(
        store: ReportStore,
        transport: any ReportTransport,
        policy: DeliveryPolicy = DeliveryPolicy(),
        symbolicate: (@Sendable (CrashReport) -> ReportSymbols)? = nil,
        isAllowed: @escaping @Sendable () -> Bool = { true },
        now: @escaping @Sendable () -> Timestamp = { .now() },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.store = store
        self.transport = transport
        self.policy = policy
        self.symbolicator = symbolicate
        self.isAllowed = isAllowed
        self.now = now
        self.random = random
    }

    /// What one pass carries from report to report.
    struct Pass {
        /// The cap counts a whole pass as one moment: a backlog is capped alike however long it
        /// takes.
        let time: Timestamp
        /// The crash-loop cap's book (`<state>/delivery-caps.json`).
        var book: DeliveryCaps
        var summary: DeliverySummary
        /// When the server just failed or asked us to wait: the rest of the pass waits too.
        var pausedUntil: Timestamp?
    }

    /// A report that passed the cap: its signature, and how many of its kind it stands for.
    struct Signed {
        var signature: String
        var suppressed: Int
    }

    /// One pass over the pending reports. Throws `DeliveryError.locked` when another process
    /// holds the directory lock (it is delivering them). `stop` is asked before each report:
    /// true ends the pass there, and the reports not looked at stay pending as they were.
    package func run(until stop: () -> Bool = { false }) throws(DeliveryError) -> DeliverySummary {
        guard let lock = DirectoryLock(stateDirectory: store.stateDirectory) else {
            throw .locked(store.stateDirectory)
        }
        defer { withExtendedLifetime(lock) {} }
        var pass = beginPass()
        if isAllowed() { sendSummaries(&pass) }
        for path in store.pendingReports() {
            if stop() { break }
            // What the running service wrote since the pass began (snapshots, hangs) counts
            // against the bounds too: they hold before each report, not only at the pass's start.
            keepBounds(&pass)
            guard FileSystem.exists(path) else { continue }
            guard isAllowed() else {
                pass.summary.deleted += store.pendingReports().count
                store.deletePending()
                break
            }
            let id = ReportStore.id(of: path)
            let state = store.state(id: id)
            guard isDue(id, state: state, in: &pass) else { continue }
            guard let decoded = decode(path, in: &pass) else { continue }
            let report = decoded.report
            let symbols = symbolicate(report, forSignature: limits.caps)
            guard let signed = capAndSign(path, report: report, symbols: symbols, in: &pass) else { continue }
            let outgoing = OutgoingReport(
                id: report.reportID, fileData: decoded.bytes, report: report, symbols: symbols,
                notes: DeliveryNotes(suppressed: signed.suppressed, pruned: pass.book.pruned))
            let outcome = send(encode(outgoing))
            record(outcome, of: path, state: state, signed: signed, in: &pass)
        }
        endPass(&pass)
        // The runs' sessions ride the same pass, unless the server just failed or asked to wait.
        if pass.pausedUntil == nil, !stop(), isAllowed() { deliverSessions() }
        return pass.summary
    }

    /// Whether a report's turn has come: not while the pass waits after a failure, nor before
    /// its own next attempt. A report that waits is counted with the time it waits for.
    func isDue(_ id: String, state: DeliveryState, in pass: inout Pass) -> Bool {
        if let paused = pass.pausedUntil {
            // The server just failed or asked us to wait: don't hammer it with the rest.
            pass.summary.retrying[id] = Swift.max(paused, state.nextAttempt ?? paused).seconds
            return false
        }
        if let next = state.nextAttempt, next > now() {
            pass.summary.retrying[id] = next.seconds
            return false
        }
        return true
    }

    // MARK: 1. decode

    /// The file's bytes and the report they hold; nil when the file is damaged (set aside in
    /// `rejected/` with the reason, never retried) or was removed meanwhile.
    func decode(_ path: String, in pass: inout Pass) -> (bytes: [UInt8], report: CrashReport)? {
        do {
            let bytes = try FileSystem.read(path, limit: ReportDecoding.sizeLimit)
            return (bytes, try ReportDecoding.decode(gzipData: bytes))
        } catch {
            // Removed meanwhile by the bound the running service keeps: not a damaged report.
            guard FileSystem.exists(path) else { return nil }
            try? store.markRejected(path, status: nil, reason: "damaged report: \(error)", now: now())
            pass.summary.rejected.append(ReportStore.id(of: path))
            return nil
        }
    }

    // MARK: 2. symbolicate

    /// The report's symbols when the transport wants names, or the cap does (a signature is
    /// made of symbol names); else none, which costs nothing.
    func symbolicate(_ report: CrashReport, forSignature: Bool) -> ReportSymbols {
        guard transport.wantsSymbols || forSignature else { return ReportSymbols() }
        return symbolicator?(report) ?? ReportSymbols()
    }

    // MARK: 3. cap and sign

    /// The report's signature and the cap's decision: nil when the report is withheld (the cap
    /// of its signature is reached in the open window), else what it carries.
    func capAndSign(_ path: String, report: CrashReport, symbols: ReportSymbols, in pass: inout Pass) -> Signed? {
        let signature = CrashSignature(report: report, symbols: symbols).description
        guard case .send(let suppressed) = pass.book.decide(signature: signature, now: pass.time, limits: limits)
        else {
            withhold(path, signature: signature, in: &pass)
            return nil
        }
        return Signed(signature: signature, suppressed: suppressed)
    }

    // MARK: 4. encode

    /// The report in the transport's wire form, or why it cannot be put in it.
    func encode(_ outgoing: OutgoingReport) -> Result<EncodedReport, TransportEncodingError> {
        Result { () throws(TransportEncodingError) in try transport.encode(outgoing) }
    }

    // MARK: 5. send

    /// One attempt to post the encoded report. What could not be encoded never goes out: a
    /// verdict on the report, rejected with the encoder's reason and never retried.
    func send(_ encoded: Result<EncodedReport, TransportEncodingError>) -> DeliveryOutcome {
        switch encoded {
        case .success(let request): transport.send(request)
        case .failure(let failure): .rejected(status: nil, reason: failure.reason)
        }
    }

    // MARK: 6. record

    /// Keeps what became of a report, by `DeliveryPolicy`'s rule: delivered (moved to
    /// `delivered/`, and counted by the cap), retry later (its state saved, and the rest of the
    /// pass waits), or rejected (moved to `rejected/` with the reason).
    func record(
        _ outcome: DeliveryOutcome, of path: String, state: DeliveryState, signed: Signed, in pass: inout Pass
    ) {
        let id = ReportStore.id(of: path)
        switch policy.decide(outcome, state: state, now: now(), random: random()) {
        case .delivered:
            pass.book.recordSent(
                signature: signed.signature, suppressed: signed.suppressed, now: pass.time, limits: limits)
            do {
                try store.markDelivered(path)
            } catch {
                // It reached the server; if it cannot be moved it will be sent again and the
                // server drops the repeat by id. Nothing is lost.
            }
            pass.summary.delivered.append(id)
        case .retry(let at, let next):
            try? store.save(next, id: id)
            pass.summary.retrying[id] = at.seconds
            pass.summary.failures[id] = outcome.description
            pass.pausedUntil = at
        case .reject(let status, let reason):
            try? store.markRejected(path, status: status, reason: reason, now: now())
            pass.summary.rejected.append(id)
        }
    }

    /// Sends the pending sessions in one request (up to 100, Sentry's bound per envelope; the
    /// rest go in the next pass). Accepted or refused for good: they are removed. A failure
    /// worth retrying keeps them for the next pass or the next launch.
    package func deliverSessions() {
        let files = Array(store.pendingSessionFiles().prefix(100))
        guard !files.isEmpty else { return }
        var sessions: [SentrySession] = []
        var sent: [String] = []
        for path in files {
            guard let session = store.readSession(path) else { continue }
            sessions.append(session)
            sent.append(path)
        }
        guard !sessions.isEmpty else { return }
        switch policy.decide(transport.send(sessions: sessions), state: DeliveryState(), now: now(), random: random()) {
        case .delivered, .reject:
            for path in sent { _ = try? FileSystem.remove(path) }
        case .retry:
            break
        }
    }
}
