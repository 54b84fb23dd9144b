import CrashReporterSupport
import Glibc

/// A connected, non-blocking TCP socket, closed when released. Every wait is a `poll(2)` bounded
/// by the request's deadline and woken by the cancellation signal. Writes use `MSG_NOSIGNAL`:
/// a peer that went away gives EPIPE, never a SIGPIPE that would kill the service.
final class Socket: ByteStream {
    let fd: Int32
    private let cancellation: CancellationSignal?

    init(fd: Int32, cancellation: CancellationSignal?) {
        self.fd = fd
        self.cancellation = cancellation
    }

    deinit {
        close(fd)
    }

    /// Waits until the socket is ready for `events` (`POLLIN`, `POLLOUT`); an error or hang-up
    /// condition also ends the wait, for the next call to report. Throws `.timeout("…" + phase)`
    /// at the deadline and `.cancelled` when cancelled.
    func wait(for events: Int32, deadline: Deadline, phase: String) throws(HTTPError) {
        var fds = [pollfd(fd: fd, events: Int16(events), revents: 0)]
        if let cancellation { fds.append(pollfd(fd: cancellation.readFD, events: Int16(POLLIN), revents: 0)) }
        while true {
            let ready = SystemCall.retryingInterrupts { poll(&fds, nfds_t(fds.count), deadline.pollMilliseconds) }
            if ready < 0 { throw .connectionLost("poll: \(Errno.text(errno))") }
            if fds.count > 1 && fds[1].revents != 0 { throw .cancelled }
            if fds[0].revents != 0 { return }
            if deadline.hasPassed { throw .timeout(phase) }
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer, deadline: Deadline) throws(HTTPError) {
        var offset = 0
        while offset < bytes.count {
            let sent = SystemCall.retryingInterrupts {
                send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                offset += sent
            } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                try wait(for: POLLOUT, deadline: deadline, phase: "while sending the request")
            } else {
                throw .connectionLost("while sending the request: \(Errno.text(errno))")
            }
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, deadline: Deadline) throws(HTTPError) -> Int {
        while true {
            let count = SystemCall.retryingInterrupts { recv(fd, buffer.baseAddress, buffer.count, 0) }
            if count >= 0 { return count }
            guard errno == EAGAIN || errno == EWOULDBLOCK else {
                throw .connectionLost("while reading the response: \(Errno.text(errno))")
            }
            try wait(for: POLLIN, deadline: deadline, phase: "while waiting for the response")
        }
    }
}
