/// What makes two reports "the same crash", by names rather than addresses, so that a group
/// survives a rebuild (docs/grouping.md):
///
/// - the signal;
/// - the innermost frames of the service's own code (the main executable), as their demangled
///   function names without offsets, inlined calls counted as frames of their own, in call
///   order with the crashing thread's async frames (`CallStack`: the functions awaiting the
///   async function that ran come before the executor's frames); the runtime's and libc's
///   frames, the standard library's code compiled into the app (a specialized
///   `Array.subscript.getter`, known by its linkage name), `_assertionFailure`, `fatalError` and
///   the `Swift runtime failure: …` pseudo-frame are left out (`RuntimeFrames`), so are a
///   dependency's frames (their source in a package checkout, ``DependencyPaths``, unless no
///   frame is the app's own) and compiler thunks (`partial apply for …`), and a function
///   repeated in a row (a recursion) counts once;
/// - for a fatal error, its message without the file and line (`FatalErrorMessage`), or for a
///   `-O` trap the runtime failure's reason, or for a `SIGFPE` what its code says
///   (`ArithmeticFault`).
///
/// A frame of the app that has no name (nothing symbolicated it) stands as `image+0xoffset`.
/// When no frame is in the app, the innermost frame stands in.
///
/// Snapshots and hangs have no signal and their stacks are wherever each thread happened to
/// be, so theirs is the kind and what names the occasion: `snapshot | <reason>`,
/// `hang | <late heartbeat's name>` (the reason when the hang names no heartbeat). An abnormal
/// exit's is its kind and class: `abnormal_exit | oom_kill`.
public struct CrashSignature: Hashable, Sendable, CustomStringConvertible {
    /// The signal's name (`SIGSEGV`), or the report's kind (`snapshot`, `hang`).
    public var signal: String
    /// The app's innermost frames for a crash; the reason or heartbeat name otherwise.
    public var frames: [String]
    /// The fatal error's message without file and line, or the runtime failure's reason; nil
    /// when the crash has neither, and for a snapshot or a hang.
    public var message: String?
    /// The report's kind.
    public var kind: CrashReport.Kind
    /// Some frame is a function's name: the signature survives a rebuild.
    public var hasNames: Bool

    /// The number of app frames a crash's signature keeps.
    public static let defaultDepth = 3

    /// A signature with each of its parts, as stored (the collector's index keeps them).
    public init(
        signal: String, frames: [String], message: String? = nil, kind: CrashReport.Kind = .crash,
        hasNames: Bool = false
    ) {
        self.signal = signal
        self.frames = frames
        self.message = message
        self.kind = kind
        self.hasNames = hasNames
    }

    /// The signature of `report`, using `symbols` (the crash's, by frame index) where present.
    public init(report: CrashReport, symbols: ReportSymbols = ReportSymbols(), depth: Int = defaultDepth) {
        kind = report.kind
        guard let crash = report.crash else {
            signal = report.kind.rawValue
            let reason = report.snapshot?.reason ?? report.abnormalExit?.exitClass.rawValue ?? ""
            let name = report.kind == .hang ? report.snapshot?.heartbeat?.name ?? reason : reason
            frames = name.isEmpty ? [] : [name]
            message = nil
            hasNames = !name.isEmpty
            return
        }
        signal = crash.signal.name
        message =
            FatalErrorMessage.stripped(crash.message)
            ?? RuntimeFrames.failureReason(in: symbols.crash[0] ?? []) ?? ArithmeticFault.reason(crash.signal)
        var frames: [String] = []
        var dependencyFrames: [String] = []
        var hasNames = false
        func add(_ name: String, to list: inout [String]) {
            if list.last != name, list.count < depth { list.append(name) }
        }
        // Every machine that groups draws the same line between the app and its dependencies:
        // the checkouts only, never a prefix configured on one of them
        // (docs/decisions/0105-a-dependencys-frame-is-told-by-its-source-path.md).
        let dependencies = DependencyPaths()
        // In call order: after the synchronous frames up to the async function that ran, the
        // functions awaiting it, so that a crash in the runtime or the standard library, under
        // an executor's frames, is named by the service's async functions.
        let stack = report.crashCallStack(symbols: symbols)
        for (index, frame) in (stack?.frames ?? []).enumerated() where frames.count < depth {
            guard let image = report.image(of: frame), image.main else { continue }
            if let resolved = stack?.symbols[index], !resolved.isEmpty {
                for symbol in resolved where !RuntimeFrames.isRuntime(symbol) {
                    // A thunk forwards to the frame before it, which names the call already.
                    if CompilerThunks.isThunk(symbol.function) { continue }
                    if dependencies.isDependency(symbol) {
                        add(symbol.function, to: &dependencyFrames)
                    } else {
                        add(symbol.function, to: &frames)
                        hasNames = true
                    }
                }
            } else if let offset = image.offset(of: frame.lookupAddress) {
                add("\(image.name)+0x\(String(offset, radix: 16))", to: &frames)
            }
        }
        // A crash with no frame of the service's own code is named by its dependencies' frames.
        if frames.isEmpty, !dependencyFrames.isEmpty {
            frames = dependencyFrames
            hasNames = true
        }
        if frames.isEmpty, let first = crash.frames.first {
            // Nothing of the app: where it crashed stands in.
            let image = report.image(of: first)
            let offset = image?.offset(of: first.lookupAddress).map { "+0x\(String($0, radix: 16))" } ?? ""
            frames.append("\(image?.name ?? "???")\(offset)")
        }
        self.frames = frames
        self.hasNames = hasNames
    }

    /// The signature as one line: `SIGILL | crashByFatalError() | main | crash-test fatal error on purpose`.
    public var description: String { parts.joined(separator: " | ") }

    /// The signature as a list: the signal, the frames, the message (Sentry's `fingerprint`).
    public var parts: [String] { [signal] + frames + (message.map { [$0] } ?? []) }

    /// What a person reads: the app's innermost function and the message, else the signal
    /// (`crashByFatalError() — crash-test fatal error on purpose`, `crashBySegfault() — SIGSEGV`);
    /// for a snapshot or a hang its kind and occasion (`Hang — db-poller`).
    public var title: String {
        guard kind == .crash else {
            return frames.first.map { "\(kind.title) — \($0)" } ?? kind.title
        }
        let what = message ?? signal
        return frames.first.map { "\($0) — \(what)" } ?? what
    }
}
