import CCrashReporterTLS
import Glibc

/// TLS over a connected socket, through CCrashReporterTLS: the handshake happens in `init`
/// (certificate and host name verified there), then reads and writes go through OpenSSL. The
/// C side blocks SIGPIPE around OpenSSL's own write(2) calls; every wait polls the socket within
/// the request's deadline.
final class TLSStream: ByteStream {
    private let socket: Socket
    private let session: OpaquePointer

    /// Loads libssl if needed, opens a session for `host` and completes the handshake.
    init(socket: Socket, host: String, trust: TrustStore, deadline: Deadline) throws(HTTPError) {
        try TLSLibrary.load()
        var error = [CChar](repeating: 0, count: 512)
        guard let session = scr_tls_open(socket.fd, host, trust.caFile, trust.caDirectory, &error, error.count)
        else {
            throw .tlsFailure(TLSLibrary.text(error))
        }
        self.socket = socket
        self.session = session
        while true {
            let result = scr_tls_handshake(session)
            if result == SCR_TLS_OK { return }
            try waitOrThrow(result, deadline: deadline, phase: "during the TLS handshake with \(host)")
        }
    }

    deinit {
        scr_tls_close(session)
    }

    func write(_ bytes: UnsafeRawBufferPointer, deadline: Deadline) throws(HTTPError) {
        var offset = 0
        while offset < bytes.count {
            let result = scr_tls_write(session, bytes.baseAddress! + offset, bytes.count - offset)
            if result > 0 {
                offset += result
            } else {
                try waitOrThrow(Int32(result), deadline: deadline, phase: "while sending the request")
            }
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, deadline: Deadline) throws(HTTPError) -> Int {
        while true {
            let result = scr_tls_read(session, buffer.baseAddress, buffer.count)
            if result >= 0 { return result }
            try waitOrThrow(Int32(result), deadline: deadline, phase: "while waiting for the response")
        }
    }

    /// Polls for what OpenSSL wants, or throws the session's error.
    private func waitOrThrow(_ result: Int32, deadline: Deadline, phase: String) throws(HTTPError) {
        switch result {
        case SCR_TLS_WANT_READ: try socket.wait(for: POLLIN, deadline: deadline, phase: phase)
        case SCR_TLS_WANT_WRITE: try socket.wait(for: POLLOUT, deadline: deadline, phase: phase)
        default: throw .tlsFailure(String(cString: scr_tls_error(session)))
        }
    }
}
