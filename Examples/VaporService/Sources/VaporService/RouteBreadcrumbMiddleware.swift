import CrashReporter
import Foundation
import Vapor

/// One breadcrumb as each request comes in and one as its response goes out, naming the route
/// that matched by its pattern (`/users/:email/orders/:id`), never the concrete path: the path,
/// the query, the headers and the body can hold ids, e-mail addresses and tokens, and none of
/// them is read here.
///
/// - request: `request`, with `method` and `route`;
/// - response: `response`, with `method`, `route`, `status` and `duration_ms`.
///
/// A crash in a handler leaves the `request` breadcrumb of the request it was handling as the
/// last one; the pairs before it say how the earlier requests ended. A request no route matched
/// has the route `unmatched`. Install it first (`app.middleware.use(_, at: .beginning)`), before
/// the error middleware, so that it sees the status an error became and the time the whole
/// chain took. With the reporter off (not started, or opted out) it costs one atomic load.
struct RouteBreadcrumbMiddleware: Middleware {
    /// The breadcrumbs' category.
    static let category = "http"

    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        guard Breadcrumbs.isRecording else { return next.respond(to: request) }
        let method = request.method.rawValue
        let route = Self.pattern(of: request.route)
        Breadcrumbs.record("request", category: Self.category) { pairs in
            pairs.append(key: "method", value: method)
            pairs.append(key: "route", value: route)
        }
        let started = ContinuousClock.now
        return next.respond(to: request).always { result in
            let elapsed = ContinuousClock.now - started
            // An error past the error middleware (none should be) ends the request as a 500.
            let status = (try? result.get())?.status.code ?? HTTPStatus.internalServerError.code
            Breadcrumbs.record("response", category: Self.category) { pairs in
                pairs.append(key: "method", value: method)
                pairs.append(key: "route", value: route)
                pairs.append(key: "status", value: String(status))
                pairs.append(key: "duration_ms", value: Self.milliseconds(elapsed))
            }
        }
    }

    /// The route's path as it was registered, parameters by name (`/users/:email`), or
    /// `unmatched`.
    static func pattern(of route: Route?) -> String {
        guard let route else { return "unmatched" }
        return "/" + route.path.string
    }

    /// A duration in milliseconds with three decimals (`12.345`).
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        let fraction = String(microseconds % 1000)
        return "\(microseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
