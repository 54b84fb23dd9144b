import Foundation
import Testing

/// The reporter's `pthread_create`, `pthread_sigmask` and `sigprocmask` next to another
/// interposer: each must hand every call on to the definition that would have run without it
/// (here an LD_PRELOADed wrapper), and still do its part: the thread gets its alternate stack, or
/// a stack overflow on it leaves no report; a blanket mask leaves the capture signal open.
@Suite("pthread_create and the mask functions next to another interposer")
struct ThreadInterpositionTests {
    /// A wrapper that appends one byte to $WRAPPER_MARKER for every thread, then calls the next
    /// pthread_create in load order.
    static let wrapperSource = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <fcntl.h>
        #include <pthread.h>
        #include <stdlib.h>
        #include <unistd.h>

        typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

        int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg) {
            const char *marker = getenv("WRAPPER_MARKER");
            if (marker != NULL) {
                int fd = open(marker, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
                if (fd >= 0) {
                    (void)write(fd, "t", 1);
                    close(fd);
                }
            }
            create_fn next = (create_fn)dlsym(RTLD_NEXT, "pthread_create");
            return next(thread, attr, start, arg);
        }
        """

    /// A wrapper of the two signal-mask functions that appends one byte to $WRAPPER_MARKER for
    /// every call that blocks a set holding every real-time signal, then calls the next definition.
    static let maskWrapperSource = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <fcntl.h>
        #include <signal.h>
        #include <stdlib.h>
        #include <unistd.h>

        typedef int (*mask_fn)(int, const sigset_t *, sigset_t *);

        static void mark(const sigset_t *set) {
            const char *marker = getenv("WRAPPER_MARKER");
            if (marker == NULL || set == NULL || !sigismember(set, SIGRTMIN)) return;
            int fd = open(marker, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
            if (fd >= 0) {
                (void)write(fd, "m", 1);
                close(fd);
            }
        }

        int pthread_sigmask(int how, const sigset_t *set, sigset_t *old) {
            mark(set);
            return ((mask_fn)dlsym(RTLD_NEXT, "pthread_sigmask"))(how, set, old);
        }

        int sigprocmask(int how, const sigset_t *set, sigset_t *old) {
            mark(set);
            return ((mask_fn)dlsym(RTLD_NEXT, "sigprocmask"))(how, set, old);
        }
        """

    /// Compiles `text` (the pthread_create wrapper by default) into `directory` with the system
    /// C compiler (or the toolchain's clang).
    static func buildWrapper(in directory: URL, source text: String = wrapperSource) async throws -> URL {
        let source = directory.appendingPathComponent("wrapper.c")
        let library = directory.appendingPathComponent("libwrapper.so")
        try text.write(to: source, atomically: true, encoding: .utf8)
        let compiler = ["/usr/bin/cc", "/usr/bin/gcc"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let command =
            (compiler.map { [$0] } ?? ["/usr/bin/env", "clang"])
            + ["-shared", "-fPIC", "-o", library.path, source.path, "-ldl"]
        let result = try await ChildProcess.run(command, environment: ProcessInfo.processInfo.environment)
        try #require(result.exitCode == 0, "compiling the wrapper failed: \(result.stderr)")
        return library
    }

    @Test(
        "a thread started after start() under an LD_PRELOAD wrapper goes through it and still gets an alternate stack",
        arguments: Binaries.crashTestBuilds)
    func preloadedWrapper(build: String) async throws {
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: build))
        defer { sandbox.remove() }
        let library = try await Self.buildWrapper(in: sandbox.root)
        let marker = sandbox.root.appendingPathComponent("wrapper-calls")

        let result = try await sandbox.crash(
            "thread-stack-overflow", environment: ["LD_PRELOAD": library.path, "WRAPPER_MARKER": marker.path])

        let calls = (try? Data(contentsOf: marker))?.count ?? 0
        #expect(calls >= 1, "the preloaded wrapper never saw a thread")
        #expect(result.signal == SIGSEGV, "status \(result.status), stderr: \(result.stderr)")
        try #require(sandbox.reports.count == 1, "the overflow on the new thread left no report")
        let report = try ReportFile(sandbox.reports[0])
        #expect(report.signal["name"] as? String == "SIGSEGV")
        #expect(report.thread["main"] as? Bool == false)
        #expect((report.thread["name"] as? String ?? "").hasPrefix("deep-worker"))
        let names = report.mainImageSymbols(try ELFSymbols(file: sandbox.binary))
        #expect(names.contains { $0.contains("recurseUntilOverflow") }, "frames in the executable: \(names)")
    }

    @Test(
        "blanket masks under an LD_PRELOAD wrapper of the mask functions: it sees each call, the threads still answer",
        arguments: Binaries.crashTestBuilds)
    func preloadedMaskWrapper(build: String) async throws {
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: build))
        defer { sandbox.remove() }
        let library = try await Self.buildWrapper(in: sandbox.root, source: Self.maskWrapperSource)
        let marker = sandbox.root.appendingPathComponent("wrapper-calls")

        let result = try await sandbox.run(
            ["threads", "1", "--blanket"], environment: ["LD_PRELOAD": library.path, "WRAPPER_MARKER": marker.path])

        #expect(result.signal == SIGSEGV, "status \(result.status), stderr: \(result.stderr)")
        let calls = (try? Data(contentsOf: marker))?.count ?? 0
        #expect(calls >= 2, "the preloaded wrapper saw \(calls) blanket calls, not both threads'")
        try #require(sandbox.reports.count == 1)
        let report = try ReportFile(sandbox.reports[0])
        for name in ["blanket", "blanket-proc"] {
            let thread = try #require(report.thread(named: name), "\(name) missing")
            #expect(thread["unwind_error"] is NSNull, "\(name): \(thread["unwind_error"] ?? "")")
            #expect((thread["frames"] as? [Any])?.isEmpty == false)
        }
    }
}
