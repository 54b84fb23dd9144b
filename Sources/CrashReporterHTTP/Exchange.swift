/// One request on one connection, start to finish: encode (and so validate) the request, pick a
/// proxy, connect, open the CONNECT tunnel and TLS when needed, send, read the response, close.
/// All of it, name resolution included, runs against one deadline.
struct Exchange {
    var request: HTTPRequest
    var userAgent: String
    var maxResponseBytes: Int
    var proxies: ProxyConfiguration
    var trust: TrustStore
    var cancellation: CancellationSignal?

    func run() throws(HTTPError) -> HTTPResponse {
        let url = request.url
        let proxy = try proxies.proxy(for: url)
        let bytes = try RequestEncoder.encode(
            request, userAgent: userAgent, absoluteForm: proxy != nil && url.scheme == .http)
        // A missing libssl is known before anything goes on the network.
        if url.scheme == .https { try TLSLibrary.load() }
        let deadline = Deadline(after: request.timeout)
        let socket = try Connector.connect(
            host: proxy?.host ?? url.host, port: proxy?.port ?? url.port, deadline: deadline,
            cancellation: cancellation)
        let stream: any ByteStream
        if url.scheme == .https {
            if let proxy {
                try ProxyTunnel.open(over: socket, to: url, proxy: proxy, userAgent: userAgent, deadline: deadline)
            }
            stream = try TLSStream(socket: socket, host: url.host, trust: trust, deadline: deadline)
        } else {
            stream = socket
        }
        var reader = BufferedReader(stream: stream, deadline: deadline)
        do {
            try stream.write(bytes, deadline: deadline)
        } catch .connectionLost(let reason) {
            // A server may answer early (413, 401) and close without reading the whole body; its
            // answer may still be waiting in the socket, and it says more than the broken write.
            if let early = try? ResponseReader.read(
                from: &reader, method: request.method, maxBodyBytes: maxResponseBytes)
            {
                return early
            }
            throw .connectionLost(reason)
        }
        return try ResponseReader.read(from: &reader, method: request.method, maxBodyBytes: maxResponseBytes)
    }
}
