import CrashReporterSupport

/// A test hook: the next `count` ingestion requests (POSTs to the three upload endpoints) are
/// answered with `status` and nothing is stored, so clients' retry logic can be tested end to
/// end. Set with `--fail-next N STATUS`, `CRASH_COLLECTOR_FAIL_NEXT="N STATUS"`, or at run time
/// with `POST /control/fail-next?count=N&status=STATUS`.
final class FaultInjection: Sendable {
    struct Plan: Sendable, Equatable {
        var count: Int
        var status: Int
        /// `Retry-After` seconds sent with a 429 or 503.
        var retryAfter: Int = 1
    }

    private let plan: Lock<Plan?>

    init(_ plan: Plan?) {
        self.plan = Lock(plan)
    }

    func set(_ newPlan: Plan?) {
        plan.withLock { $0 = newPlan }
    }

    /// The status to fail this request with, if one is due; counts it down.
    func next() -> Plan? {
        plan.withLock { plan in
            guard var current = plan, current.count > 0 else { return nil }
            current.count -= 1
            plan = current.count > 0 ? current : nil
            return current
        }
    }

    /// Parses `N STATUS` (as in the environment variable).
    static func parse(count: String, status: String) -> Plan? {
        guard let count = Int(count), count >= 0, let status = Int(status), (100...599).contains(status) else {
            return nil
        }
        return Plan(count: count, status: status)
    }
}
