#if DEBUG
    import Glibc
#endif

/// Debug-build messages on standard error, `[Tracking] …`. Release builds print nothing, and
/// do not even build the message.
package enum Diagnostics {
    @inline(__always)
    package static func report(_ message: @autoclosure () -> String) {
        #if DEBUG
            let line = Array(("[Tracking] " + message() + "\n").utf8)
            // One write(2) per message, so lines of concurrent messages do not interleave;
            // a short write is finished, an interrupted one retried, a failed one dropped.
            line.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = write(STDERR_FILENO, raw.baseAddress! + offset, raw.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        return
                    }
                    offset += written
                }
            }
        #endif
    }
}
