import CrashReporter
import Hummingbird
import Logging

/// The service's routes:
/// - `GET /` says hello;
/// - `GET /crash/await` crashes three awaits deep (`AwaitChain`);
/// - `GET /block?seconds=N` blocks a thread of the concurrency pool for N seconds (5 by
///   default; `PoolBlocker`), then answers;
/// - `GET /snapshot` asks the reporter for a snapshot of every thread and answers its id.
///
/// Each request logs a line, which the swift-log integration keeps as a breadcrumb (the path,
/// never who asked).
func makeRouter(logger: Logger) -> Router<BasicRequestContext> {
    let router = Router()
    router.get("/") { request, _ in
        logger.info("handling request", metadata: ["path": "\(request.uri.path)"])
        return "hello\n"
    }
    router.get("/crash/await") { request, _ in
        logger.info("handling request", metadata: ["path": "\(request.uri.path)"])
        let found = try await AwaitChain.level1([1, 2, 3])
        return "found \(found)\n"
    }
    router.get("/block") { request, _ in
        let seconds = request.uri.queryParameters.get("seconds", as: Int.self) ?? 5
        logger.info("handling request", metadata: ["path": "\(request.uri.path)", "seconds": "\(seconds)"])
        let blocked = await PoolBlocker.holdPool(seconds: seconds)
        return "blocked a pool thread for \(blocked) s\n"
    }
    router.get("/snapshot") { request, _ -> Response in
        logger.info("handling request", metadata: ["path": "\(request.uri.path)"])
        guard let id = CrashReporter.snapshot(reason: "asked for through GET /snapshot") else {
            return Response(status: .serviceUnavailable)
        }
        return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: id + "\n")))
    }
    return router
}
