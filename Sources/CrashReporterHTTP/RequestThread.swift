import Glibc

/// Runs one blocking request on a thread of its own, so an async caller never blocks a thread of
/// Swift's cooperative pool (whose few threads everything else in the service shares). The thread
/// is detached and ends with the request.
enum RequestThread {
    /// Starts `body` on a new thread; returns the reason when no thread can be made.
    static func start(_ body: @escaping @Sendable () -> Void) -> String? {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let box = Unmanaged.passRetained(Box(body))
        var thread = pthread_t()
        let status = pthread_create(
            &thread, &attributes,
            { argument in
                let body = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue().body
                body()
                return nil
            }, box.toOpaque())
        guard status == 0 else {
            box.release()
            return "cannot start a thread: \(Socket.errorText(status))"
        }
        return nil
    }

    /// Carries the closure through `pthread_create`'s untyped argument.
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
