/// Why a delivery pass did not run.
package enum DeliveryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another process holds the state directory's lock (it is delivering the reports).
    case locked(String)

    package var description: String {
        switch self {
        case .locked(let path): "another process is delivering the reports of \(path)"
        }
    }
}
