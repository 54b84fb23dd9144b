import NIOCore
import NIOHTTP1
import NIOPosix

/// A SwiftNIO HTTP/1.1 server on loopback that answers every request with `ok`: the service both
/// footprint binaries run.
public enum HelloServer {
    /// Binds an ephemeral port, reports with `Probe`, then serves until the process is killed.
    public static func run() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let channel = try ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(Responder())
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .wait()
        Probe.mark("listening")
        Probe.reportAfterIdle()
        try channel.closeFuture.wait()
    }
}

/// Answers `200 ok` to every request.
final class Responder: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Length", value: "2")
        let head = HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: "ok")))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
