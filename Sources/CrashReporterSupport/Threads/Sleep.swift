import Glibc

/// Blocks the calling thread for `seconds` (nothing for zero, negative or NaN), resuming the
/// sleep when a signal interrupts it: what `Thread.sleep(forTimeInterval:)` did.
package func sleep(seconds: Double) {
    guard seconds > 0 else { return }
    let wait = min(seconds, Double(Int32.max))
    var request = timespec(tv_sec: Int(wait), tv_nsec: Int((wait - wait.rounded(.down)) * 1e9))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0, errno == EINTR {
        request = remaining
    }
}
