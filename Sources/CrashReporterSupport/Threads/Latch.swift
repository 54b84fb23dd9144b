/// A one-way gate: closed until a worker opens it, and then open for good. Callers wait for it
/// with a timeout (a first delivery pass, a job's result).
package final class Latch: Sendable {
    private let opened = WaitableState(false)

    package init() {}

    /// Opens the latch and wakes every waiter.
    package func open() { opened.update { $0 = true } }

    package var isOpen: Bool { opened.withLock { $0 } }

    /// Waits until the latch is open or `timeout` seconds pass (`nil`: no limit); whether it is
    /// open.
    @discardableResult
    package func wait(timeout: Double?) -> Bool {
        opened.wait(timeout: timeout) { $0 ? true : nil } ?? false
    }
}
