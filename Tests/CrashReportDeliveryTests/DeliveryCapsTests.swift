import CrashReporterSupport
import TestSupport
import Testing

@testable import CrashReportDelivery

/// The crash-loop cap's window rules, as a value with the clock passed in.
@Suite("Crash-loop cap")
struct DeliveryCapsTests {
    let start = Timestamp(seconds: 1_800_000_000)
    let limits = DeliveryLimits(capCount: 3, capWindow: .seconds(600))
    let loop = "SIGSEGV | crashBySegfault()"

    /// Offers `count` reports of `signature` one second apart from `from`, recording what
    /// `decide` said; returns the decisions.
    func offer(
        _ book: inout DeliveryCaps, _ count: Int, signature: String, from: Timestamp, firstID: Int = 0
    ) -> [DeliveryCaps.Decision] {
        (0..<count).map { n in
            let now = from.adding(seconds: Double(n))
            let decision = book.decide(signature: signature, now: now, limits: limits)
            switch decision {
            case .send(let suppressed):
                book.recordSent(signature: signature, suppressed: suppressed, now: now, limits: limits)
            case .withhold:
                book.recordWithheld(signature: signature, id: "r\(firstID + n)")
            }
            return decision
        }
    }

    @Test("in one window the first capCount are sent in full and the rest withheld")
    func capInWindow() {
        var book = DeliveryCaps()
        let decisions = offer(&book, 10, signature: loop, from: start)
        #expect(decisions == Array(repeating: .send(suppressed: 0), count: 3) + Array(repeating: .withhold, count: 7))
        #expect(book.signatures[loop]?.withheld == 7)
        #expect(book.signatures[loop]?.carrier == "r9", "the newest withheld report carries the summary")
        #expect(
            book.dueSummaries(now: start.adding(seconds: 599), limits: limits).isEmpty, "not before the window closes")
        #expect(book.nextSummary(limits: limits) == start.adding(seconds: 600).seconds)
    }

    @Test("once the window closes one summary is due with the count, and a new window opens afresh")
    func summaryAfterWindow() {
        var book = DeliveryCaps()
        _ = offer(&book, 10, signature: loop, from: start)
        let closed = start.adding(seconds: 600)
        let due = book.dueSummaries(now: closed, limits: limits)
        #expect(due == [DeliveryCaps.DueSummary(signature: loop, carrier: "r9", suppressed: 7)])
        book.recordSummary(due[0])
        #expect(book.dueSummaries(now: closed, limits: limits).isEmpty)
        #expect(book.nextSummary(limits: limits) == nil)
        let again = offer(&book, 4, signature: loop, from: closed.adding(seconds: 1), firstID: 100)
        #expect(again == [.send(suppressed: 0), .send(suppressed: 0), .send(suppressed: 0), .withhold])
    }

    @Test("signatures are capped apart")
    func signaturesApart() {
        var book = DeliveryCaps()
        _ = offer(&book, 5, signature: loop, from: start)
        #expect(
            offer(&book, 3, signature: "SIGABRT | other()", from: start)
                == Array(repeating: .send(suppressed: 0), count: 3))
    }

    @Test("a count whose carrier is gone rides on the next report of its signature")
    func countWithoutCarrier() throws {
        var book = DeliveryCaps()
        _ = offer(&book, 5, signature: loop, from: start)
        let closed = start.adding(seconds: 700)
        let due = try #require(book.dueSummaries(now: closed, limits: limits).first)
        book.dropCarrier(due)
        #expect(book.dueSummaries(now: closed, limits: limits).isEmpty)
        #expect(book.decide(signature: loop, now: closed, limits: limits) == .send(suppressed: 2))
        book.recordSent(signature: loop, suppressed: 2, now: closed, limits: limits)
        #expect(book.signatures[loop] == DeliveryCaps.Entry(windowStart: closed, sent: 1))
    }

    @Test("a failed summary waits until it may be tried again")
    func postponedSummary() throws {
        var book = DeliveryCaps()
        _ = offer(&book, 5, signature: loop, from: start)
        let closed = start.adding(seconds: 600)
        let due = try #require(book.dueSummaries(now: closed, limits: limits).first)
        book.postpone(due, until: closed.adding(seconds: 30))
        #expect(book.dueSummaries(now: closed.adding(seconds: 29), limits: limits).isEmpty)
        #expect(book.dueSummaries(now: closed.adding(seconds: 30), limits: limits).count == 1)
        #expect(book.nextSummary(limits: limits) == closed.adding(seconds: 30).seconds)
    }

    @Test("a cap of 0 sends everything")
    func noCap() {
        var book = DeliveryCaps()
        let unlimited = DeliveryLimits(capCount: 0, capWindow: .seconds(600))
        for n in 0..<20 {
            let now = start.adding(seconds: Double(n))
            #expect(book.decide(signature: loop, now: now, limits: unlimited) == .send(suppressed: 0))
            book.recordSent(signature: loop, suppressed: 0, now: now, limits: unlimited)
        }
        #expect(book.signatures.isEmpty)
    }

    @Test("a delivery resets the retention count; closed windows with nothing left are forgotten")
    func forgetting() {
        var book = DeliveryCaps(pruned: 4)
        book.recordSent(signature: loop, suppressed: 0, now: start, limits: limits)
        #expect(book.pruned == 0)
        book.forgetClosed(now: start.adding(seconds: 599), limits: limits)
        #expect(book.signatures.count == 1)
        book.forgetClosed(now: start.adding(seconds: 600), limits: limits)
        #expect(book.signatures.isEmpty)
    }

    @Test("the book survives the file")
    func fileRoundTrip() throws {
        let directory = TempDirectory()
        var book = DeliveryCaps(pruned: 2)
        _ = offer(&book, 6, signature: loop, from: start)
        try book.save(stateDirectory: directory.path)
        #expect(DeliveryCaps.load(stateDirectory: directory.path) == book)
        try FileSystem.writeAtomically(Array("{not json".utf8), to: DeliveryCaps.path(stateDirectory: directory.path))
        #expect(DeliveryCaps.load(stateDirectory: directory.path) == DeliveryCaps(), "a damaged book starts afresh")
    }
}
