import CrashReporterSupport
import Glibc

/// Opens the TCP connection: resolves the host, then tries each address in turn with a
/// non-blocking `connect` and `poll`, giving each an equal share of the time left. The first
/// that connects wins; when all fail, the error says why the last one did, except that "refused"
/// wins over other reasons (nothing listens there) and "timed out" needs every attempt to have
/// timed out.
enum Connector {
    static func connect(
        host: String, port: Int, deadline: Deadline, cancellation: CancellationSignal?
    ) throws(HTTPError) -> Socket {
        let addresses = try AddressResolver.resolve(host: host, port: port)
        if deadline.hasPassed { throw .timeout("resolving \(host)") }
        var refused = false
        var timedOut = 0
        var lastReason = ""
        for (index, address) in addresses.enumerated() {
            let attemptDeadline = deadline.share(addresses.count - index)
            do {
                return try attempt(address, deadline: attemptDeadline, cancellation: cancellation)
            } catch {
                switch error {
                case .refused: refused = true
                case .timedOut: timedOut += 1
                case .cancelled: throw .cancelled
                case .failed(let reason): lastReason = reason
                }
            }
        }
        if refused { throw .connectionRefused(host: host, port: port) }
        if timedOut == addresses.count { throw .timeout("connecting to \(host) port \(port)") }
        throw .connectionFailed(host: host, port: port, reason: lastReason)
    }

    /// Why one address did not connect.
    private enum AttemptError: Error {
        case refused
        case timedOut
        case cancelled
        case failed(String)
    }

    private static func attempt(
        _ address: ResolvedAddress, deadline: Deadline, cancellation: CancellationSignal?
    ) throws(AttemptError) -> Socket {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd: Int32
        do throws(SystemCallError) {
            fd = try SystemCall.run("socket") { Glibc.socket(address.family, type, 0) }
        } catch {
            throw .failed(error.description)
        }
        let socket = Socket(fd: fd, cancellation: cancellation)
        var storage = address.storage
        do throws(SystemCallError) {
            // Not retried: an interrupted connect goes on in the background, as one in progress does.
            _ = try SystemCall.run("connect", retryingInterrupts: false) {
                withUnsafePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, address.length) }
                }
            }
            return socket
        } catch let error where error.errno == EINPROGRESS || error.errno == EINTR {
            // Connecting: wait below until the socket is writable, then read the outcome.
        } catch {
            throw classify(error.errno)
        }
        do {
            try socket.wait(for: POLLOUT, deadline: deadline, phase: "connecting")
        } catch .cancelled {
            throw .cancelled
        } catch .timeout {
            throw .timedOut
        } catch {
            throw .failed(error.description)
        }
        var pending: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        do throws(SystemCallError) {
            _ = try SystemCall.run("getsockopt") { getsockopt(fd, SOL_SOCKET, SO_ERROR, &pending, &length) }
        } catch {
            throw classify(error.errno)
        }
        if pending != 0 { throw classify(pending) }
        return socket
    }

    private static func classify(_ number: Int32) -> AttemptError {
        number == ECONNREFUSED ? .refused : .failed(Errno.text(number))
    }
}
