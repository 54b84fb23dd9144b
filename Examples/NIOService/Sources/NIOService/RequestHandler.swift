import Logging
import NIOCore
import NIOHTTP1
import Tracking

/// Answers each request on its event loop: `GET /` says hello, `GET /crash/KIND` crashes the
/// service in the way `Crash` names (this is an example of what the reporter catches).
final class RequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let logger: Logger
    private var path = "/"

    init(logger: Logger) {
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            path = head.uri
        case .body:
            break
        case .end:
            // A breadcrumb per request through the tracking façade, and a log line, which the
            // swift-log integration also keeps as a breadcrumb. Neither holds who asked.
            track(NamedEvent("request_received", parameters: ["path": .string(path)]))
            logger.info("handling request", metadata: ["path": "\(path)"])
            if let kind = path.split(separator: "/").dropFirst().first.flatMap({ Crash(rawValue: String($0)) }),
                path.hasPrefix("/crash/")
            {
                kind.perform()
            }
            respond(context: context, status: path == "/" ? .ok : .notFound, body: path == "/" ? "hello\n" : "")
        }
    }

    private func respond(context: ChannelHandlerContext, status: HTTPResponseStatus, body: String) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Length", value: "\(body.utf8.count)")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
