import Foundation

/// Polls `condition` every 50 ms for up to `timeout` seconds; whether it came true. For what a
/// child process or a receiver does in its own time (a busy CI machine can take seconds).
func eventually(timeout: Double = 30, _ condition: () -> Bool) async throws -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while Date() < end {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return condition()
}
