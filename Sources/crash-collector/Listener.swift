import CrashReporterSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A listening TCP socket (IPv4).
enum Listener {
    /// Connections the kernel queues before `accept`: a burst of clients (a thousand at once)
    /// waits there instead of being dropped and retried a second later.
    static let backlog: Int32 = 1024

    /// Raises the soft limit on open descriptors toward the hard limit, so that `connections`
    /// clients (plus the data files and a margin) can be open at once; the default soft limit
    /// (1024) would refuse accepts before the connection cap is reached. Best effort: where the
    /// hard limit is lower, the accept loop's back-off handles EMFILE.
    static func raiseDescriptorLimit(toServe connections: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        let wanted = rlim_t(connections + 256)
        guard limit.rlim_cur < wanted else { return }
        limit.rlim_cur = min(wanted, limit.rlim_max)
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// The address in network byte order, for dotted IPv4 text or `localhost`.
    static func ipv4Address(_ host: String) -> in_addr? {
        var address = in_addr()
        let text = host == "localhost" ? "127.0.0.1" : host
        return inet_pton(AF_INET, text, &address) == 1 ? address : nil
    }

    /// Binds and listens; returns the socket and the port it got (useful with port 0).
    static func open(host: String, port: Int) throws(SystemCallError) -> (fd: Int32, port: Int) {
        guard let address = ipv4Address(host) else {
            throw SystemCallError("inet_pton", errno: EINVAL, subject: host)
        }
        let fd = try SystemCall.run("socket") {
            socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = in_port_t(UInt16(port).bigEndian)
        socketAddress.sin_addr = address
        do throws(SystemCallError) {
            _ = try SystemCall.run("bind") {
                withUnsafePointer(to: &socketAddress) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
            }
            _ = try SystemCall.run("listen") { listen(fd, backlog) }
        } catch {
            close(fd)
            throw error.about("\(host):\(port)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: actual.sin_port)))
    }
}

/// Blocking socket I/O with deadlines.
enum SocketIO {
    enum ReadResult {
        case data(Int)
        case closed
        case timedOut
    }

    /// Waits at most `milliseconds` for data, then reads what there is into `buffer`.
    static func read(_ fd: Int32, into buffer: inout [UInt8], milliseconds: Int32) -> ReadResult {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard let ready = try? SystemCall.run("poll", { poll(&poller, 1, max(0, milliseconds)) }) else {
            return .closed
        }
        if ready == 0 { return .timedOut }
        let count = try? SystemCall.run("recv") {
            buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        }
        guard let count, count > 0 else { return .closed }
        return .data(count)
    }

    /// Sends everything; false when the peer is gone or the send timeout passed.
    @discardableResult
    static func send(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = try? SystemCall.run("send") {
                    Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                }
                guard let sent, sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }

    /// Sets the send timeout, so a client that never reads cannot hold a thread forever.
    static func setSendTimeout(_ fd: Int32, seconds: Double) {
        var time = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Closes after an error response: stop writing, then read and drop what the client still
    /// sends for a moment, so that closing does not reset the connection before the client
    /// has read the response (which it would with unread data in our receive buffer).
    static func lingeringClose(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_WR))
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        var drained = 0
        let deadline = Monotonic.now() + 1
        while drained < 4 << 20 {
            let left = deadline - Monotonic.now()
            guard left > 0, case .data(let count) = read(fd, into: &scratch, milliseconds: Int32(left * 1000)) else {
                break
            }
            drained += count
        }
        close(fd)
    }
}

/// A monotonic clock in seconds, for deadlines.
enum Monotonic {
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
