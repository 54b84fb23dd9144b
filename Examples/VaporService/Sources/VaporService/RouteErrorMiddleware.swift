import Vapor

extension ErrorMiddleware {
    /// Vapor's error middleware turning a thrown error into a response as the default one does
    /// (an `AbortError`'s status and reason, else 500), but logging the route's pattern where the
    /// default (`ErrorMiddleware.default(environment:)`) logs the concrete URL with its query and
    /// the User-Agent: through the breadcrumb log handler that line would be a breadcrumb. The
    /// error itself is logged by its type only, since its description can quote the request.
    static func byRoute(environment: Environment, logger: Logger) -> ErrorMiddleware {
        ErrorMiddleware { request, error in
            let abort = error as? any AbortError
            let status = abort?.status ?? .internalServerError
            let reason = abort?.reason ?? (environment.isRelease ? "Something went wrong." : String(describing: error))
            logger.log(
                level: status.code >= 500 ? .error : .warning, "request failed",
                metadata: [
                    "method": "\(request.method.rawValue)",
                    "route": "\(RouteBreadcrumbMiddleware.pattern(of: request.route))",
                    "status": "\(status.code)", "error": "\(type(of: error))",
                ])
            var headers = abort?.headers ?? [:]
            headers.contentType = .plainText
            return Response(status: status, headers: headers, body: .init(string: reason + "\n"))
        }
    }
}
