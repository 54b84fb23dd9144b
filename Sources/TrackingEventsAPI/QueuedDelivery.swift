import CrashReporterHTTP
import CrashReporterSupport
import Tracking

/// The delivery every provider of this module shares: the journal (`EventQueue`), the sealed
/// batches (`BatchOutbox`, the support layer's folder queue), the retry rules
/// (`DeliveryStateMachine`), the consent regime and the timers. What differs per backend (how an
/// event is written, how a batch becomes a request) is its `BackendWire`.
///
/// - Each event is encoded when it arrives and appended to the wire's journal under
///   `<state>/analytics/` (see `EventQueue`); the file exists only while consent is granted and
///   only once an event was tracked.
/// - Batches of up to 100 events (body at most 1 MB, event at most 8 KB) are sent when 20 are
///   queued, every 30 s, on `flush()`, and at `shutdown(within:)`. An attempt sends the oldest
///   sealed batch; when none waits it first seals the next one from the journal. Sealing and
///   sending hold the wire's outbox lock: a process that cannot take it keeps journaling.
/// - Network errors and 5xx keep the batch and back off 30 s doubling to 10 min; 429 waits
///   `Retry-After`; 413 splits the sealed batch in two and halves the batch size; any other
///   status sets it aside for review (`DeliveryStateMachine`, `RejectedBatches`). A sealed
///   batch that cannot be read is set aside, never sent. An event keeps its encoded form (and
///   so its id) across retries.
/// - At most `maxQueued` events wait, journal and sealed batches together: past it, the oldest
///   sealed batch is dropped whole, then the journal's oldest events. A batch in flight is
///   counted once its answer comes; until then only the journal's own cap of `maxQueued` holds.
/// - Revoking consent closes and deletes the queue, cancels the retry wait and ignores the
///   answer to a batch in flight; events of an earlier consent epoch are never sent. The
///   `analytics_opted_out` farewell is sent once, never stored.
final class QueuedDelivery: Sendable {
    private let settings: DeliverySettings
    private let wire: any BackendWire
    private let queuePath: String
    /// The wire's sealed batches.
    private let batches: BatchOutbox
    /// Where refused and damaged batches are set aside for review (`RejectedBatches`).
    private let review: OutboxFolder
    private let transport: any HTTPTransport
    private let now: @Sendable () -> ContinuousClock.Instant
    private let core: Lock<Core>

    private struct Core {
        var consent: AnalyticsConsent = .unknown
        var epoch: UInt64 = 0
        var queue: EventQueue?
        /// Events in the sealed batches, as last counted.
        var sealedCount = 0
        /// Another process held the outbox lock when the bound was last to be kept: not tried
        /// again before this, so that a full queue does not cost every event a failed `flock`.
        var boundRetryAt: ContinuousClock.Instant?
        var machine: DeliveryStateMachine
        /// Bumped when consent is revoked: the answer to an older attempt is ignored.
        var generation: UInt64 = 0
        var timer: Task<Void, Never>?
        var sizeFlushPending = false
        var farewells: [Task<Void, Never>] = []
        /// A write of the lines group commit holds back is scheduled.
        var writerScheduled = false
    }

    /// How long group commit lets lines of a burst wait before one `write(2)` takes them all.
    static let groupCommitDelay = Duration.milliseconds(4)

    /// The `User-Agent` of the default transport: the process's name and `(unknown version)`,
    /// as the URLSession transport this provider used before sent it (without the product
    /// token of the libcurl that it no longer links). It names the program, never the machine.
    static var userAgent: String { "\(ProcessEnvironment.processName) (unknown version)" }

    /// Delivery for `wire`, queueing in `<stateDirectory>/analytics/<wire.queueFileName>`.
    init(
        stateDirectory: String,
        wire: any BackendWire,
        settings: DeliverySettings,
        transport: (any HTTPTransport)?,
        environment: [String: String],
        now: @escaping @Sendable () -> ContinuousClock.Instant
    ) {
        self.settings = settings
        self.wire = wire
        self.queuePath = StateLayout(stateDirectory).analyticsQueue(wire.queueFileName)
        self.batches = BatchOutbox(stateDirectory: stateDirectory, journalName: wire.queueFileName)
        self.review = RejectedBatches.folder(stateDirectory: stateDirectory)
        self.transport = transport ?? HTTPClient(userAgent: Self.userAgent, environment: environment)
        self.now = now
        self.core = Lock(Core(machine: DeliveryStateMachine(maxBatchSize: settings.maxBatchSize)))
        if let configurationError = wire.configurationError {
            Diagnostics.report("events stay queued: \(configurationError)")
        }
    }

    /// Delivery for the wire `makeWire` builds from the environment: `environment`, else the
    /// process's. What a provider's public initialiser does with its options.
    convenience init(
        stateDirectory: String,
        settings: DeliverySettings,
        transport: (any HTTPTransport)?,
        environment: [String: String]?,
        wire makeWire: ([String: String]) -> any BackendWire
    ) {
        let environment = environment ?? ProcessEnvironment.current()
        self.init(
            stateDirectory: stateDirectory, wire: makeWire(environment), settings: settings, transport: transport,
            environment: environment, now: { ContinuousClock.now })
    }

    /// Why the wire's URL cannot be used; nil when it can. Events stay queued meanwhile.
    var configurationError: String? { wire.configurationError }

    deinit {
        core.withLock { core in
            core.timer?.cancel()
            Self.writePending(&core)
            core.queue?.close()
        }
    }

    // MARK: AnalyticsProvider

    func receive(_ event: AnalyticsEvent) {
        // Encoded once, outside the lock, into the line the queue writes.
        guard let id = event.uuid ?? UUIDBytes(event.id) else {
            Diagnostics.report("dropped \(event.name): its id is not a UUID")
            return
        }
        guard let queued = QueuedEvent(event, id: id, wire: wire) else {
            Diagnostics.report("dropped \(event.name): over 8 KB even without properties")
            return
        }
        let flushNow = core.withLock { core -> Bool in
            guard core.consent == .granted, event.consentEpoch == core.epoch else { return false }
            do {
                if core.queue == nil {
                    core.queue = try EventQueue(path: queuePath, capacity: settings.maxQueued, create: true)
                    core.queue!.groupCommit = true
                }
                try core.queue!.append(queued)
            } catch {
                Diagnostics.report("cannot queue \(event.name): \(error)")
                return false
            }
            // While this process's own attempt is in flight it holds the lock: the bound is kept
            // when the answer is applied.
            if core.sealedCount > 0 && core.queue!.count + core.sealedCount > settings.maxQueued
                && core.machine.state != .sending && core.boundRetryAt.map({ now() >= $0 }) ?? true
            {
                keepWithinBound(&core, holdingLock: false)
            }
            if core.queue!.hasPending && !core.writerScheduled {
                core.writerScheduled = true
                Task { [weak self] in
                    try? await Task.sleep(for: Self.groupCommitDelay)
                    self?.writePending()
                }
            }
            startTimerIfNeeded(&core)
            // The clock is read only when the other conditions hold.
            guard core.queue!.count >= settings.flushAt, !core.sizeFlushPending, wire.canSend,
                core.machine.canSend(at: now())
            else { return false }
            core.sizeFlushPending = true
            return true
        }
        if flushNow {
            Task {
                await self.flush()
                self.core.withLock { $0.sizeFlushPending = false }
            }
        }
    }

    func consentChanged(to consent: AnalyticsConsent, epoch: UInt64, farewell: AnalyticsEvent?) {
        core.withLock { core in
            core.consent = consent
            core.epoch = epoch
            if consent == .granted {
                if core.queue == nil {
                    do {
                        core.queue = try EventQueue(path: queuePath, capacity: settings.maxQueued, create: false)
                        core.queue?.groupCommit = true
                    } catch {
                        Diagnostics.report("cannot open the event queue: \(error)")
                    }
                }
                try? core.queue?.keepOnly(epoch: epoch)
                reconcileSealed(&core)
                if core.queue != nil || core.sealedCount > 0 { startTimerIfNeeded(&core) }
                return
            }
            core.generation &+= 1
            core.machine.reset()
            core.timer?.cancel()
            core.timer = nil
            core.queue?.close()
            core.queue = nil
            _ = try? FileSystem.remove(queuePath)
            batches.deleteAll()
            core.sealedCount = 0
            if let farewell, let json = wire.encodeAlone(farewell) {
                core.farewells.append(Task { _ = await self.send([json]) })
            }
        }
    }

    /// Writes what group commit holds back, then sends batches until the queue is empty, the
    /// server asks to wait, or consent goes.
    func flush() async {
        writePending()
        while await sendOneBatch() {}
    }

    /// Writes the lines group commit holds back in memory to the queue file.
    func writePending() {
        core.withLock { core in
            core.writerScheduled = false
            Self.writePending(&core)
        }
    }

    private static func writePending(_ core: inout Core) {
        do {
            try core.queue?.writePending()
        } catch {
            Diagnostics.report("cannot write the event queue: \(error)")
        }
    }

    /// Writes what group commit holds back and stops the timer, then sends what it can (the
    /// farewell first) until `timeout` has passed.
    func shutdown(within timeout: Duration) async {
        writePending()
        let (timer, farewells) = core.withLock { core in
            defer {
                core.timer = nil
                core.farewells = []
            }
            return (core.timer, core.farewells)
        }
        timer?.cancel()
        // Real time, whatever clock the provider was given: the deadline is slept on.
        await WorkDeadline.run(until: .now + timeout) {
            for farewell in farewells { await farewell.value }
            while !Task.isCancelled {
                if await self.sendOneBatch() { continue }
                // Another flush may hold the in-flight batch: wait for it, not for the timer.
                guard self.isSending else { break }
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    // MARK: Sending

    private struct Attempt {
        var batch: Batch
        var generation: UInt64
        /// The wire's outbox lock, held from sealing until the outcome is applied.
        var lock: DirectoryLock
    }

    private struct Batch {
        var id: String
        var events: [QueuedEvent]
    }

    /// Sends one batch; true when another could go right away.
    private func sendOneBatch() async -> Bool {
        guard wire.canSend else { return false }
        let started = now()
        let attempt = core.withLock { core -> Attempt? in
            guard core.consent == .granted, core.machine.canSend(at: started),
                !(core.queue?.isEmpty ?? true) || batches.hasBatches,
                let lock = batches.lock(), core.machine.startSending(at: started)
            else { return nil }
            guard let batch = nextBatch(&core) else {
                _ = core.machine.finish(.delivered, batchCount: 0, at: started)
                return nil
            }
            return Attempt(batch: batch, generation: core.generation, lock: lock)
        }
        guard let attempt else { return false }
        let outcome = await send(attempt.batch.events.map(\.json))
        let finished = now()
        return core.withLock { core -> Bool in
            defer { withExtendedLifetime(attempt.lock) {} }
            // Consent was revoked meanwhile: the queue and the batches are gone, the machine reset,
            // and the lock file is this attempt's to remove, unless consent came back since.
            guard core.generation == attempt.generation else {
                if core.consent != .granted { attempt.lock.removeFile() }
                return false
            }
            return apply(outcome, to: attempt.batch, at: finished, &core)
        }
    }

    /// The oldest sealed batch of this consent, or, when none waits, the next one sealed from the
    /// journal; nil when there is nothing to send. Sealed batches of an earlier consent are
    /// deleted and damaged ones set aside on the way. Called holding the wire's outbox lock.
    private func nextBatch(_ core: inout Core) -> Batch? {
        for id in batches.ids() {
            switch batches.contents(of: id) {
            case .damaged(let reason):
                Diagnostics.report("set aside a damaged batch of \(wire.backendName): \(reason)")
                RejectedBatches.setAside(
                    id, from: batches.folder, into: review, status: nil,
                    reason: "\(wire.backendName): damaged: \(reason)")
            case .events(let events):
                let current = events.filter { $0.epoch == core.epoch }
                if !current.isEmpty { return Batch(id: id, events: current) }
                // Sealed under an earlier consent: never sent.
                batches.folder.remove(id)
            }
        }
        core.sealedCount = 0
        guard let queue = core.queue, !queue.isEmpty else { return nil }
        var events: [QueuedEvent] = []
        var bytes = wire.batchOverhead
        for event in queue.events where event.epoch == core.epoch {
            if events.count == core.machine.batchSize || bytes + event.jsonCount + 1 > EventLimits.maxClientBodyBytes {
                break
            }
            events.append(event)
            bytes += event.jsonCount + 1
        }
        if events.isEmpty { return nil }
        let id: String
        do {
            id = try batches.seal(events)
        } catch {
            Diagnostics.report("cannot seal a batch of \(wire.backendName): \(error)")
            return nil
        }
        core.sealedCount = events.count
        do {
            try core.queue?.remove(ids: Set(events.map(\.id)))
        } catch {
            // The events are in the sealed batch and the journal: the next start drops them
            // from the journal.
            Diagnostics.report("cannot rewrite the event queue: \(error)")
        }
        return Batch(id: id, events: events)
    }

    /// What the attempt's outcome does to its sealed batch; true when another could go right
    /// away. Called holding the wire's outbox lock.
    private func apply(
        _ outcome: DeliveryOutcome, to batch: Batch, at finished: ContinuousClock.Instant, _ core: inout Core
    )
        -> Bool
    {
        let decision = core.machine.finish(outcome, batchCount: batch.events.count, at: finished)
        var retryAt: ContinuousClock.Instant?
        switch decision {
        case .remove(delivered: true):
            batches.folder.remove(batch.id)
        case .remove(delivered: false):
            Diagnostics.report("dropped a batch of \(batch.events.count) events: \(outcome)")
            RejectedBatches.setAside(
                batch.id, from: batches.folder, into: review, status: Self.status(outcome),
                reason: "\(wire.backendName): \(outcome)")
        case .keep(let at):
            retryAt = at
            if case .rejected(status: 413, _) = outcome {
                do {
                    try batches.split(batch.id, events: batch.events)
                } catch {
                    Diagnostics.report("cannot split a batch of \(wire.backendName): \(error)")
                    RejectedBatches.setAside(
                        batch.id, from: batches.folder, into: review, status: 413,
                        reason: "\(wire.backendName): \(outcome), and it cannot be split: \(error)")
                }
            }
        }
        core.sealedCount = batches.eventCount()
        // Events may have come in while the batch was in flight.
        keepWithinBound(&core, holdingLock: true)
        if let retryAt { return retryAt <= finished }
        return !(core.queue?.isEmpty ?? true) || core.sealedCount > 0
    }

    /// Keeps journal and sealed events together within `maxQueued`: the oldest sealed batches,
    /// which hold the oldest events, are dropped whole until they fit. Without the wire's outbox
    /// lock it is taken and the sealed events counted again (another process may have sent
    /// some), or, when another holds it, the bound is left to the holder and not tried again for
    /// a second.
    private func keepWithinBound(_ core: inout Core, holdingLock: Bool) {
        let lock = holdingLock ? nil : batches.lock()
        guard holdingLock || lock != nil else {
            core.boundRetryAt = now() + .seconds(1)
            return
        }
        core.boundRetryAt = nil
        if !holdingLock { core.sealedCount = batches.eventCount() }
        for id in batches.ids() {
            let journal = core.queue?.count ?? 0
            guard journal + core.sealedCount > settings.maxQueued else { break }
            let dropped = batches.count(of: id)
            batches.folder.remove(id)
            core.sealedCount = max(0, core.sealedCount - dropped)
            Diagnostics.report("dropped a sealed batch of \(dropped) events: over the queue's \(settings.maxQueued)")
        }
        withExtendedLifetime(lock) {}
    }

    /// At a grant: deletes the sealed batches of an earlier consent, drops from the journal the
    /// events a sealed batch already holds (a kill between sealing and rewriting the journal
    /// leaves them in both), and counts the sealed events. When another process holds the
    /// outbox lock, counting is all it does.
    private func reconcileSealed(_ core: inout Core) {
        guard batches.hasBatches else {
            core.sealedCount = 0
            return
        }
        if let lock = batches.lock() {
            var sealed = Set<UUIDBytes>()
            for id in batches.ids() {
                guard case .events(let events) = batches.contents(of: id) else { continue }
                if events.contains(where: { $0.epoch == core.epoch }) {
                    sealed.formUnion(events.map(\.id))
                } else {
                    batches.folder.remove(id)
                }
            }
            if !sealed.isEmpty {
                do {
                    try core.queue?.remove(ids: sealed)
                } catch {
                    Diagnostics.report("cannot rewrite the event queue: \(error)")
                }
            }
            withExtendedLifetime(lock) {}
        }
        core.sealedCount = batches.eventCount()
    }

    /// One request; the outcome the state machine needs. Any error the transport throws (for
    /// the default one, every `HTTPError`: refused, reset, timed out, cancelled, TLS) means no
    /// response: the batch is kept.
    private func send(_ events: [[UInt8]]) async -> DeliveryOutcome {
        guard let request = wire.request(for: events, timeout: settings.requestTimeout) else {
            return .noAnswer("cannot build the request")
        }
        do {
            let response = try await transport.send(request)
            #if DEBUG
                wire.reportAnswer(response)
            #endif
            return DeliveryOutcome(
                status: response.status,
                serverWait: DeliveryStateMachine.parseRetryAfter(response.headers["Retry-After"], now: .now()),
                reason: "")
        } catch {
            return .noAnswer("no response")
        }
    }

    /// The status a refused batch is kept under (`401`), nil when none came.
    private static func status(_ outcome: DeliveryOutcome) -> Int? {
        if case .rejected(let status?, _) = outcome { return status }
        return nil
    }

    // MARK: Timer

    private func startTimerIfNeeded(_ core: inout Core) {
        guard core.timer == nil else { return }
        core.timer = Task { [weak self] in
            while !Task.isCancelled {
                guard let wait = self?.nextWake() else { return }
                try? await Task.sleep(for: wait)
                if Task.isCancelled { return }
                await self?.flush()
            }
        }
    }

    /// Until the next timed flush: the interval, or sooner when a retry wait ends first.
    private func nextWake() -> Duration {
        let now = self.now()
        let interval = settings.flushInterval
        guard let retryAt = core.withLock({ $0.machine.retryAt }) else { return interval }
        return max(.milliseconds(1), min(interval, retryAt - now))
    }

    // MARK: Inspection (tests, debugging)

    /// Events waiting: in the journal and in the sealed batches.
    var queuedCount: Int { core.withLock { ($0.queue?.count ?? 0) + $0.sealedCount } }

    var isSending: Bool { core.withLock { $0.machine.state == .sending } }

    var deliveryState: DeliveryStateMachine { core.withLock { $0.machine } }
}

/// Runs work until it finishes or a deadline passes, whichever comes first; at the deadline
/// the work is cancelled and the caller goes on without waiting for it.
enum WorkDeadline {
    static func run(until deadline: ContinuousClock.Instant, _ work: @escaping @Sendable () async -> Void) async {
        let once = Once()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let worker = Task {
                await work()
                if once.claim() { continuation.resume() }
            }
            let timer = Task {
                try? await Task.sleep(until: deadline, clock: .continuous)
                if Task.isCancelled { return }
                worker.cancel()
                if once.claim() { continuation.resume() }
            }
            // The timer is not needed once the work is done.
            Task {
                await worker.value
                timer.cancel()
            }
        }
    }

    private final class Once: Sendable {
        private let claimed = Lock(false)
        func claim() -> Bool {
            claimed.withLock { claimed in
                defer { claimed = true }
                return !claimed
            }
        }
    }
}
