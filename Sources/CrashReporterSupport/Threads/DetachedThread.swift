import Glibc

/// Threads of our own, without Foundation's `Thread`.
package enum DetachedThread {
    /// Starts a detached POSIX thread that runs `body` and ends. `name` (cut to the 15 bytes
    /// Linux keeps) is what `top -H`, `gdb` and crash reports show for it; `stackSize` is in
    /// bytes, at least 64 KiB (the default is the system's, usually 8 MiB).
    package static func start(
        name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void
    ) throws(SystemCallError) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if let stackSize {
            let result = pthread_attr_setstacksize(&attributes, max(stackSize, 64 << 10))
            if result != 0 { throw SystemCallError("pthread_attr_setstacksize", errno: result, subject: name) }
        }
        let context = Unmanaged.passRetained(ThreadContext(name: threadName(name), body: body))
        var thread = pthread_t()
        let result = pthread_create(
            &thread, &attributes,
            { raw in
                let context = Unmanaged<ThreadContext>.fromOpaque(raw!).takeRetainedValue()
                _ = GNUFunctions.setThreadName?(pthread_self(), context.name)
                context.body()
                return nil
            }, context.toOpaque())
        if result != 0 {
            context.release()
            throw SystemCallError("pthread_create", errno: result, subject: name)
        }
    }

    /// At most 15 bytes, cut at a character boundary.
    static func threadName(_ name: String) -> String {
        var result = ""
        for character in name {
            if result.utf8.count + character.utf8.count > 15 { break }
            result.append(character)
        }
        return result
    }
}

/// What a new thread runs, handed over through `pthread_create`'s pointer.
private final class ThreadContext: Sendable {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }
}
