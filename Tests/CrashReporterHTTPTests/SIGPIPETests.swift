import CrashReporterHTTP
import Foundation
import TestSupport
import Testing

/// A peer that closes while the client is still writing makes write(2) raise SIGPIPE, whose
/// default action kills the process. Run in a child process with that default restored: the
/// child must get an error back and exit normally, over TLS (OpenSSL writes with write(2); the C
/// side holds SIGPIPE back) and over a plain socket (MSG_NOSIGNAL).
@Suite struct SIGPIPETests {
    @Test func aPeerThatClosesDuringTLSWritesDoesNotKillTheProcess() async {
        await #expect(processExitsWith: .success) {
            signal(SIGPIPE, SIG_DFL)
            let certificates = try TestCertificates.shared.get()
            let server = try PythonServer(
                script: "https_server.py",
                arguments: [certificates.serverCertificate, certificates.serverKey, "close-after-handshake"])
            let client = HTTPClient(userAgent: "sigpipe/1", environment: ["SSL_CERT_FILE": certificates.caFile])
            let body = [UInt8](repeating: UInt8(ascii: "x"), count: 16 << 20)
            for _ in 0..<3 {
                let request = HTTPRequest(
                    url: try HTTPURL("https://127.0.0.1:\(server.port)/"), method: "POST", body: body,
                    timeout: .seconds(30))
                do throws(HTTPError) {
                    _ = try client.send(request)
                    exit(2)  // a closed peer cannot have answered
                } catch .tlsFailure, .connectionLost {
                    continue
                } catch {
                    exit(3)
                }
            }
        }
    }

    @Test func aPeerThatClosesDuringPlainWritesDoesNotKillTheProcess() async {
        await #expect(processExitsWith: .success) {
            signal(SIGPIPE, SIG_DFL)
            let server = try LoopbackServer(greeting: []) { _ in .close }
            let client = HTTPClient(userAgent: "sigpipe/1", environment: [:])
            let body = [UInt8](repeating: UInt8(ascii: "x"), count: 16 << 20)
            for _ in 0..<3 {
                let request = HTTPRequest(
                    url: try HTTPURL(server.url), method: "POST", body: body, timeout: .seconds(30))
                do throws(HTTPError) {
                    _ = try client.send(request)
                    exit(2)
                } catch .connectionLost, .badResponse {
                    continue
                } catch {
                    exit(3)
                }
            }
        }
    }
}
