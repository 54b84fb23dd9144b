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
            do throws(SystemCallError) {
                _ = try SystemCall.run("poll") { poll(&fds, nfds_t(fds.count), deadline.pollMilliseconds) }
            } catch {
                throw .connectionLost(error.description)
            }
            if fds.count > 1 && fds[1].revents != 0 { throw .cancelled }
            if fds[0].revents != 0 { return }
            if deadline.hasPassed { throw .timeout(phase) }
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer, deadline: Deadline) throws(HTTPError) {
        var offset = 0
        while offset < bytes.count {
            let sent: Int
            do throws(SystemCallError) {
                sent = try SystemCall.run("send") {
                    send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                }
            } catch let error where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
                // The send buffer is full: wait until the peer has read some of it.
                try wait(for: POLLOUT, deadline: deadline, phase: "while sending the request")
                continue
            } catch {
                throw .connectionLost("while sending the request: \(Errno.text(error.errno))")
            }
            // send(2) of a non-empty buffer does not return 0; should it, the connection is no use.
            guard sent > 0 else { throw .connectionLost("while sending the request: no byte was taken") }
            offset += sent
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, deadline: Deadline) throws(HTTPError) -> Int {
        while true {
            do throws(SystemCallError) {
                return try SystemCall.run("recv") { recv(fd, buffer.baseAddress, buffer.count, 0) }
            } catch let error where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
                // Nothing has arrived yet.
            } catch {
                throw .connectionLost("while reading the response: \(Errno.text(error.errno))")
            }
            try wait(for: POLLIN, deadline: deadline, phase: "while waiting for the response")
        }
    }
}
