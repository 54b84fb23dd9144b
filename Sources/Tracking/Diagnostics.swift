#if DEBUG
    import Foundation
#endif

/// Debug-build messages on standard error, `[Tracking] …`. Release builds print nothing.
package enum Diagnostics {
    @inline(__always)
    package static func report(_ message: @autoclosure () -> String) {
        #if DEBUG
            FileHandle.standardError.write(Data(("[Tracking] " + message() + "\n").utf8))
        #endif
    }
}
