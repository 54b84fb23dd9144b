import CrashReporterSupport

/// The crash-loop bookkeeping of a state directory, kept in `<state>/delivery-caps.json` and
/// changed only under the directory lock: per signature (`CrashSignature`'s line), the window
/// that is open, how many full reports it sent, and how many it withheld; and how many unsent
/// reports retention removed since a report last went out. A pure value: the clock is passed in.
///
/// The rules (docs/crash-loops.md):
/// - a window opens when a report of a signature is delivered and no window of it is open, and
///   lasts `capWindow`;
/// - in an open window, `capCount` reports are sent in full; the rest are withheld (kept in
///   `withheld/`, counted here);
/// - once the window has closed, the newest withheld report is sent as the summary, carrying
///   the count of the reports withheld in that window (itself among them); if it is gone,
///   the count rides on the next report of that signature that is sent.
package struct DeliveryCaps: Codable, Sendable, Equatable {
    package struct Entry: Codable, Sendable, Equatable {
        package var windowStart: Timestamp
        /// Full reports delivered in the window.
        package var sent: Int = 0
        /// Reports withheld in the window (or in an earlier one whose summary is still due).
        package var withheld: Int = 0
        /// The newest withheld report's id: the summary's carrier.
        package var carrier: String?
        /// A summary that failed waits until then.
        package var summaryNotBefore: Timestamp?
    }

    /// What to do with a report of a signature.
    package enum Decision: Sendable, Equatable {
        /// Send it in full, with this many withheld reports of its signature counted in it.
        case send(suppressed: Int)
        /// Keep it back: the window's cap is reached.
        case withhold
    }

    /// A summary that is due: the carrier's id and its count.
    package struct DueSummary: Sendable, Equatable {
        package var signature: String
        package var carrier: String
        package var suppressed: Int
    }

    /// By signature line.
    package var signatures: [String: Entry] = [:]
    /// Unsent reports retention removed since a report was last delivered.
    package var pruned = 0

    /// The most signatures remembered; the oldest windows are forgotten first.
    static let maximumSignatures = 1000

    package init(signatures: [String: Entry] = [:], pruned: Int = 0) {
        self.signatures = signatures
        self.pruned = pruned
    }

    func isOpen(_ entry: Entry, now: Timestamp, limits: DeliveryLimits) -> Bool {
        now < entry.windowStart.adding(seconds: limits.capWindow.inSeconds)
    }

    /// What to do with a report of `signature` at `now`. Changes nothing: a report only counts
    /// once it is delivered (`recordSent`) or withheld (`recordWithheld`).
    package func decide(signature: String, now: Timestamp, limits: DeliveryLimits) -> Decision {
        guard limits.caps, let entry = signatures[signature] else {
            return .send(suppressed: signatures[signature]?.withheld ?? 0)
        }
        guard isOpen(entry, now: now, limits: limits) else { return .send(suppressed: entry.withheld) }
        return entry.sent < limits.capCount ? .send(suppressed: 0) : .withhold
    }

    /// A report of `signature` was delivered in full at `now` carrying `suppressed` (the count
    /// `decide` gave): it counts in the open window, or opens one.
    package mutating func recordSent(signature: String, suppressed: Int, now: Timestamp, limits: DeliveryLimits) {
        pruned = 0
        guard limits.caps else {
            signatures[signature] = nil
            return
        }
        if var entry = signatures[signature], isOpen(entry, now: now, limits: limits) {
            entry.sent += 1
            entry.withheld -= Swift.min(suppressed, entry.withheld)
            signatures[signature] = entry
        } else {
            signatures[signature] = Entry(windowStart: now, sent: 1)
        }
        forgetOldest()
    }

    /// A report of `signature` with id `id` was withheld.
    package mutating func recordWithheld(signature: String, id: String) {
        guard var entry = signatures[signature] else { return }
        entry.withheld += 1
        entry.carrier = id
        signatures[signature] = entry
    }

    /// The summaries due at `now`: windows closed with reports withheld and a carrier.
    package func dueSummaries(now: Timestamp, limits: DeliveryLimits) -> [DueSummary] {
        signatures.compactMap { signature, entry in
            guard entry.withheld > 0, let carrier = entry.carrier, !isOpen(entry, now: now, limits: limits),
                entry.summaryNotBefore.map({ $0 <= now }) ?? true
            else { return nil }
            return DueSummary(signature: signature, carrier: carrier, suppressed: entry.withheld)
        }.sorted { $0.signature < $1.signature }
    }

    /// A summary was delivered (or refused for good): its count is done with.
    package mutating func recordSummary(_ summary: DueSummary) {
        pruned = 0
        guard var entry = signatures[summary.signature] else { return }
        entry.withheld -= Swift.min(summary.suppressed, entry.withheld)
        entry.carrier = nil
        entry.summaryNotBefore = nil
        signatures[summary.signature] = entry
    }

    /// A summary could not be sent now: not before `at`.
    package mutating func postpone(_ summary: DueSummary, until at: Timestamp) {
        signatures[summary.signature]?.summaryNotBefore = at
    }

    /// The carrier of a signature is gone (retention removed it): its count waits for the
    /// next report of that signature.
    package mutating func dropCarrier(_ summary: DueSummary) {
        signatures[summary.signature]?.carrier = nil
    }

    /// When the next summary falls due, in seconds since 1970; nil when none waits.
    package func nextSummary(limits: DeliveryLimits) -> Double? {
        signatures.values.compactMap { entry -> Double? in
            guard entry.withheld > 0, entry.carrier != nil else { return nil }
            let close = entry.windowStart.adding(seconds: limits.capWindow.inSeconds)
            return Swift.max(close, entry.summaryNotBefore ?? close).seconds
        }.min()
    }

    /// Forgets the signatures whose window closed with nothing left to count.
    package mutating func forgetClosed(now: Timestamp, limits: DeliveryLimits) {
        signatures = signatures.filter { $0.value.withheld > 0 || isOpen($0.value, now: now, limits: limits) }
    }

    /// Keeps the file small: past `maximumSignatures`, the oldest windows go.
    mutating func forgetOldest() {
        guard signatures.count > Self.maximumSignatures else { return }
        let oldest = signatures.sorted { $0.value.windowStart < $1.value.windowStart }
            .prefix(signatures.count - Self.maximumSignatures)
        for (signature, _) in oldest { signatures[signature] = nil }
    }

    // MARK: the file

    /// `<state>/delivery-caps.json`.
    package static func path(stateDirectory: String) -> String { StateLayout(stateDirectory).deliveryCaps }

    /// The book of a state directory; an empty one when it has none or it cannot be read
    /// (then at most one more window of reports is sent in full).
    package static func load(stateDirectory: String) -> DeliveryCaps {
        guard let bytes = try? FileSystem.read(path(stateDirectory: stateDirectory), limit: 1 << 20),
            let book = try? JSON.decode(DeliveryCaps.self, from: bytes)
        else { return DeliveryCaps() }
        return book
    }

    /// Whether a crash-loop summary waits to be sent (due now or later): one small file read,
    /// none when the directory has no book (what `start` asks before it starts a worker).
    package static func hasSummaryWaiting(stateDirectory: String) -> Bool {
        guard FileSystem.exists(path(stateDirectory: stateDirectory)) else { return false }
        return load(stateDirectory: stateDirectory).signatures.values.contains { $0.withheld > 0 && $0.carrier != nil }
    }

    package func save(stateDirectory: String) throws {
        try FileSystem.writeAtomically(JSON.encode(self), to: Self.path(stateDirectory: stateDirectory))
    }
}

extension DeliveryCaps.Entry {
    enum CodingKeys: String, CodingKey {
        case windowStart = "window_start"
        case sent, withheld, carrier
        case summaryNotBefore = "summary_not_before"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        windowStart = try container.decodeTimestamp(forKey: .windowStart)
        sent = try container.decode(Int.self, forKey: .sent)
        withheld = try container.decode(Int.self, forKey: .withheld)
        carrier = try container.decodeIfPresent(String.self, forKey: .carrier)
        summaryNotBefore = try container.decodeTimestampIfPresent(forKey: .summaryNotBefore)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(windowStart.iso8601, forKey: .windowStart)
        try container.encode(sent, forKey: .sent)
        try container.encode(withheld, forKey: .withheld)
        try container.encodeIfPresent(carrier, forKey: .carrier)
        try container.encodeIfPresent(summaryNotBefore?.iso8601, forKey: .summaryNotBefore)
    }
}
