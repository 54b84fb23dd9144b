/// Asks an http proxy for a tunnel (`CONNECT host:port`) over a socket already connected to the
/// proxy. Any 2xx answer opens the tunnel; TLS with the origin server then runs inside it, so the
/// proxy never sees the request. Nothing may follow the proxy's answer before the client speaks,
/// so bytes after it mean the proxy is not doing what was asked.
enum ProxyTunnel {
    static func open(
        over socket: Socket, to url: HTTPURL, proxy: HTTPURL, userAgent: String, deadline: Deadline
    ) throws(HTTPError) {
        try socket.write(RequestEncoder.connect(to: url, userAgent: userAgent), deadline: deadline)
        var reader = BufferedReader(stream: socket, deadline: deadline)
        var budget = ResponseReader.maxHeadBytes
        let head = try ResponseHead.read(from: &reader, budget: &budget)
        guard (200...299).contains(head.status) else {
            let reason = head.reason.isEmpty ? "" : " \(head.reason)"
            throw .proxyFailure("\(proxy.authority) answered CONNECT \(url.hostAndPort) with \(head.status)\(reason)")
        }
        guard reader.bufferedCount == 0 else {
            throw .proxyFailure("\(proxy.authority) sent data after opening the tunnel")
        }
    }
}
