import Foundation

/// One-line diagnostics on standard error.
enum Log {
    static func info(_ message: String) { write("crash-collector: \(message)\n") }
    static func warning(_ message: String) { write("crash-collector: warning: \(message)\n") }
    static func error(_ message: String) { write("crash-collector: error: \(message)\n") }

    static func write(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
    }
}
