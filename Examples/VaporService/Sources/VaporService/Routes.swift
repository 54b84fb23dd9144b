import CrashReporter
import NIOCore
import Vapor

/// The service's routes:
/// - `GET /` says hello;
/// - `GET /users/:email/orders/:id` answers an order's id: a route whose concrete paths hold an
///   e-mail address and an id, which no breadcrumb may keep (its pattern is what they record);
/// - `GET /crash/await` crashes three awaits deep in an async route (`AwaitChain`);
/// - `GET /crash/sync` crashes in a synchronous route, on the event loop (`EventLoopCrash`);
/// - `GET /crash/future` crashes in a callback of an `EventLoopFuture` chain (`EventLoopCrash`);
/// - `GET /block?seconds=N` blocks a thread of the concurrency pool for N seconds (5 by
///   default; `PoolBlocker`), then answers;
/// - `GET /snapshot` asks the reporter for a snapshot of every thread and answers its id.
///
/// `RouteBreadcrumbMiddleware` records each request by its route's pattern; of the routes only
/// `/block` logs a line of its own (never the path).
func registerRoutes(_ app: Application, logger: Logger) {
    app.get { _ in "hello\n" }
    app.get("users", ":email", "orders", ":id") { request -> String in
        "order \(request.parameters.get("id") ?? "")\n"
    }
    app.get("crash", "await") { _ async throws -> String in
        let found = try await AwaitChain.level1([1, 2, 3])
        return "found \(found)\n"
    }
    app.get("crash", "sync") { _ -> String in
        let stock = ["apples": 3, "pears": 5]
        return "plums: \(EventLoopCrash.unwrapMissing(stock, key: "plums"))\n"
    }
    app.get("crash", "future") { request -> EventLoopFuture<String> in
        request.eventLoop.scheduleTask(in: .milliseconds(10)) { [3, 4, 5] }.futureResult
            .map { values in values.filter { $0 > 10 } }
            .map { large in "average of the large values: \(EventLoopCrash.average(large))\n" }
    }
    app.get("block") { request async -> String in
        let seconds = request.query[Int.self, at: "seconds"] ?? 5
        logger.info("blocking a pool thread", metadata: ["seconds": "\(seconds)"])
        let blocked = await PoolBlocker.holdPool(seconds: seconds)
        return "blocked a pool thread for \(blocked) s\n"
    }
    app.get("snapshot") { _ -> Response in
        guard let id = CrashReporter.snapshot(reason: "asked for through GET /snapshot") else {
            return Response(status: .serviceUnavailable)
        }
        return Response(status: .ok, body: .init(string: id + "\n"))
    }
}
