import Glibc

/// The text of an `errno` value, for one-line messages.
package enum Errno {
    /// `strerror`'s text with its first letter in lower case (`no such file or directory`),
    /// from the thread-safe `strerror_r`; `error 4242` for a code the C library does not know.
    package static func text(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        let message: String? = buffer.withUnsafeMutableBufferPointer { chars in
            guard strerror_r(code, chars.baseAddress!, chars.count) == 0 else { return nil }
            let length = chars.firstIndex(of: 0) ?? chars.count
            return String(
                decoding: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(chars)[..<length]), as: UTF8.self)
        }
        guard let message, let first = message.first, !message.hasPrefix("Unknown error") else {
            return "error \(code)"
        }
        return first.lowercased() + message.dropFirst()
    }
}
