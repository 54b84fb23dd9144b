import CrashReporterHTTP
import Foundation
import TestSupport
import Testing

/// Requests through Support/proxy.py, which logs every request line it gets and adds
/// `Via: test-proxy` to what it forwards: http goes as an absolute-form request, https through a
/// CONNECT tunnel, and no_proxy sends a request past the proxy.
@Suite struct ProxyTests {
    private let log: String
    private let proxy: PythonServer

    init() throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-\(UUID().uuidString).log").path
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        proxy = try PythonServer(script: "proxy.py", arguments: [log], directory: Self.scripts)
    }

    /// This target's own scripts (proxy.py): Support/ beside this file.
    private static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Support").path

    private var proxyURL: String { "http://127.0.0.1:\(proxy.port)" }

    private var logged: [String] {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    @Test func plainHTTPGoesInAbsoluteForm() throws {
        let server = try LoopbackServer(replying: "HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\nproxied")
        let client = HTTPClient(userAgent: "proxy-tests/1", environment: ["http_proxy": proxyURL])
        let response = try client.send(
            HTTPRequest(url: try HTTPURL(server.url + "/through?x=1"), timeout: .seconds(10)))
        #expect(String(decoding: response.body, as: UTF8.self) == "proxied")
        #expect(logged == ["GET http://127.0.0.1:\(server.port)/through?x=1 HTTP/1.1"])
        #expect(server.requests.first?.header("Via") == "test-proxy")
    }

    @Test func httpsGoesThroughATunnel() throws {
        let certificates = try TestCertificates.shared.get()
        let server = try PythonServer(
            script: "https_server.py", arguments: [certificates.serverCertificate, certificates.serverKey])
        let client = HTTPClient(
            userAgent: "proxy-tests/1",
            environment: ["HTTPS_PROXY": "127.0.0.1:\(proxy.port)", "SSL_CERT_FILE": certificates.caFile])
        let response = try client.send(
            HTTPRequest(url: try HTTPURL("https://127.0.0.1:\(server.port)/tunnelled"), timeout: .seconds(30)))
        #expect(String(decoding: response.body, as: UTF8.self) == "GET /tunnelled 0")
        #expect(logged == ["CONNECT 127.0.0.1:\(server.port) HTTP/1.1"])
    }

    @Test func noProxyBypassesIt() throws {
        let server = try LoopbackServer(replying: "HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\ndirect")
        let client = HTTPClient(
            userAgent: "proxy-tests/1", environment: ["http_proxy": proxyURL, "no_proxy": "example.com, 127.0.0.1"])
        let response = try client.send(HTTPRequest(url: try HTTPURL(server.url), timeout: .seconds(10)))
        #expect(String(decoding: response.body, as: UTF8.self) == "direct")
        #expect(logged.isEmpty)
        #expect(server.requests.first?.header("Via") == nil)
    }

    /// The test proxy refuses tunnels to anything but loopback, before connecting anywhere.
    @Test func aRefusedTunnelIsAProxyFailure() {
        let client = HTTPClient(userAgent: "proxy-tests/1", environment: ["https_proxy": proxyURL])
        #expect {
            try client.send(HTTPRequest(url: HTTPURL("https://collector.invalid/"), timeout: .seconds(10)))
        } throws: { error in
            guard case .proxyFailure(let reason) = error as? HTTPError else { return false }
            return reason.contains("CONNECT collector.invalid:443 with 403")
        }
        #expect(logged == ["CONNECT collector.invalid:443 HTTP/1.1"])
    }
}
