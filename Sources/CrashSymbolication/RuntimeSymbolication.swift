import CrashReportFormat
import CrashReporterSupport

#if os(Linux) && canImport(Runtime)
    @_spi(Internal) internal import Runtime

    /// The bridge to the Swift runtime's symbolicator (`Runtime.Backtrace.symbolicated`): the
    /// report's images become an `ImageMap` (via the Compact ImageMap Format), its frames a
    /// `Backtrace` (`programCounter` for the context frame, `asyncResumePoint` for an async
    /// frame, both looked up as they are, `returnAddress` for the others, so that the runtime
    /// looks up `ip - 1` for those), and the symbolicated frames come back grouped per report
    /// frame.
    enum RuntimeSymbolication {
        static func run(frames: [CrashReport.Frame], images: [Int: UsableImage], architecture: String)
            -> (symbols: [Int: [FrameSymbol]], runtimeFailure: String?)
        {
            let ordered = images.sorted { $0.value.image.base < $1.value.image.base }
            let entries = ordered.map { _, usable in
                CompactImageMap.Entry(
                    base: usable.image.base.rawValue,
                    end: usable.image.base.rawValue &+ max(usable.loadEnd, 1),
                    buildID: bytes(ofHex: usable.image.buildID),
                    path: usable.path)
            }
            let platform = "\(architecture.isEmpty ? "x86_64" : architecture)-unknown-linux-gnu"
            guard let map = ImageMap(compactImageMapData: CompactImageMap.encode(platform: platform, entries: entries))
            else { return ([:], nil) }
            // The runtime's image index back to the report's.
            var reportIndex: [Int: Int] = [:]
            for (position, image) in map.enumerated() {
                if let match = ordered.first(where: { $0.value.image.base.rawValue == UInt64(image.baseAddress) }) {
                    reportIndex[position] = match.key
                }
            }
            // Each distinct frame once, and only frames in usable images: a deep recursion
            // repeats one return address hundreds of times, and the runtime runs a line-number
            // program for every frame it is given.
            var lookups: [CrashReport.Frame] = []
            var lookupOf: [Int: Int] = [:]
            var seen: [LookupKey: Int] = [:]
            for (index, frame) in frames.enumerated() {
                guard let image = frame.imageIndex, images[image] != nil else { continue }
                let key = LookupKey(ip: frame.ip, trust: frame.trust, image: image)
                if let known = seen[key] {
                    lookupOf[index] = known
                } else {
                    seen[key] = lookups.count
                    lookupOf[index] = lookups.count
                    lookups.append(frame)
                }
            }
            let richFrames = lookups.map { frame -> RichFrame<UInt64> in
                switch frame.trust {
                case .context: .programCounter(frame.ip.rawValue)
                case .async: .asyncResumePoint(frame.ip.rawValue)
                case .cfi: .returnAddress(frame.ip.rawValue)
                }
            }
            let backtrace = Backtrace(architecture: architecture, frames: richFrames, images: map)
            let runtimeToReport = reportIndex
            let identities = Dictionary(images.values.map { ($0.path, $0.identity) }) { first, _ in first }
            let found = SymbolicationWorker.shared.run(files: identities) { [lookups] in
                group(
                    backtrace.symbolicated(with: map, options: [.showInlineFrames, .showSourceLocations]),
                    frames: lookups, reportIndex: runtimeToReport)
            }
            var symbols: [Int: [FrameSymbol]] = [:]
            for (index, lookup) in lookupOf {
                symbols[index] = found.symbols[lookup]
            }
            let failure = frames.first?.trust == .context && lookupOf[0] == 0 ? found.failures[0] : nil
            return (symbols, failure)
        }

        private struct LookupKey: Hashable {
            var ip: Address
            var trust: CrashReport.Frame.Trust
            var image: Int
        }

        /// Splits the runtime's flat list (each frame's inlined calls, then the frame itself)
        /// back into the frames it was given, and keeps only symbols from the image the report
        /// names. `failures` holds the runtime-failure reason by frame, where there is one.
        private static func group(
            _ symbolicated: SymbolicatedBacktrace?, frames: [CrashReport.Frame], reportIndex: [Int: Int]
        ) -> (symbols: [Int: [FrameSymbol]], failures: [Int: String]) {
            guard let symbolicated else { return ([:], [:]) }
            var symbols: [Int: [FrameSymbol]] = [:]
            var failures: [Int: String] = [:]
            var pending: [FrameSymbol] = []
            var index = 0
            for frame in symbolicated.frames {
                guard index < frames.count else { break }
                let expectedImage = frames[index].imageIndex
                if let symbol = frame.symbol, symbol.rawName != "<unknown>",
                    reportIndex[symbol.imageIndex] == expectedImage
                {
                    if failures[index] == nil, frame.isSwiftRuntimeFailure {
                        failures[index] =
                            symbol.rawName.hasPrefix("_") ? String(symbol.rawName.dropFirst()) : symbol.rawName
                    }
                    pending.append(convert(symbol, inlined: frame.inlined, runtimeFailure: frame.isSwiftRuntimeFailure))
                }
                if !frame.inlined {
                    if !pending.isEmpty, pending.last?.inlined == false { symbols[index] = pending }
                    pending = []
                    index += 1
                }
            }
            return (symbols, failures)
        }

        private static func convert(_ symbol: SymbolicatedBacktrace.Symbol, inlined: Bool, runtimeFailure: Bool)
            -> FrameSymbol
        {
            var file: String?
            var line: Int?
            if let location = symbol.sourceLocation, !runtimeFailure {
                file = location.path.hasSuffix("<compiler-generated>") ? "<compiler-generated>" : location.path
                line = location.line > 0 ? location.line : nil
            }
            let offset: UInt64? = inlined || symbol.offset < 0 ? nil : UInt64(symbol.offset)
            let mangled = symbol.rawName != symbol.name ? symbol.rawName : nil
            return FrameSymbol(
                function: AsyncFunctionName.owner(of: symbol.name), file: file, line: line, offset: offset,
                inlined: inlined, mangledName: mangled)
        }

        private static func bytes(ofHex hex: String) -> [UInt8] {
            var bytes: [UInt8] = []
            var index = hex.startIndex
            while let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex), index < hex.endIndex {
                guard let byte = UInt8(hex[index..<next], radix: 16) else { return [] }
                bytes.append(byte)
                index = next
            }
            return bytes
        }
    }

    /// The thread that runs the runtime's symbolicator.
    ///
    /// The runtime keeps the ELF files it has parsed in a per-thread cache, keyed by path, that
    /// is never emptied. Reusing one thread makes every report after the first fast (the
    /// files stay parsed); but a binary replaced at the same path would then be answered from
    /// the old one. So the worker remembers which file (device, inode, size, mtime) it was
    /// given for each path: when one changes, the thread is retired and a new one, with an
    /// empty cache, takes over. An idle thread ends after ``idleTimeout``, releasing the cache.
    final class SymbolicationWorker: Sendable {
        static let shared = SymbolicationWorker()
        /// Seconds.
        static let idleTimeout: Double = 30

        private struct State: Sendable {
            var jobs: [@Sendable () -> Void] = []
            var threadRunning = false
            /// Which thread is current: a retired one sees a newer generation and ends.
            var generation = 0
            var files: [String: ELFImageFile.Identity] = [:]
        }

        private let state = Monitor(State())

        /// Runs `body` on the worker thread and waits for its result.
        func run<T: Sendable>(files given: [String: ELFImageFile.Identity], _ body: @escaping @Sendable () -> T) -> T {
            let result = Monitor<T?>(nil)
            let newGeneration = state.update { state -> Int? in
                var replaced = false
                for (path, identity) in given {
                    if let known = state.files[path], known != identity { replaced = true }
                    state.files[path] = identity
                }
                state.jobs.append {
                    let value = body()
                    result.update { $0 = value }
                }
                guard replaced || !state.threadRunning else { return nil }
                state.generation += 1
                state.threadRunning = true
                return state.generation
            }
            if let newGeneration {
                do {
                    try DetachedThread.start(name: "crash-report-symbolicator", stackSize: 8 << 20) { [self] in
                        loop(generation: newGeneration)
                    }
                } catch {
                    // No thread to be had: run what is queued here, without the cache.
                    let jobs = state.update { state in
                        if state.generation == newGeneration { state.threadRunning = false }
                        defer { state.jobs = [] }
                        return state.jobs
                    }
                    for job in jobs { job() }
                }
            }
            return result.wait(timeout: nil) { $0 }!
        }

        private enum Step {
            case run(@Sendable () -> Void)
            case stop
        }

        private func loop(generation mine: Int) {
            while true {
                let step = state.wait(timeout: Self.idleTimeout) { state -> Step? in
                    if state.generation != mine { return .stop }
                    return state.jobs.isEmpty ? nil : .run(state.jobs.removeFirst())
                }
                switch step {
                case .run(let job):
                    job()
                case .stop:
                    return
                case nil:
                    // Idle for the whole timeout: end, unless a job came in since the wait gave up.
                    let idle = state.withLock { state in
                        guard state.jobs.isEmpty, state.generation == mine else { return false }
                        state.threadRunning = false
                        state.files = [:]
                        return true
                    }
                    if idle { return }
                }
            }
        }
    }
#else
    enum RuntimeSymbolication {
        static func run(frames: [CrashReport.Frame], images: [Int: UsableImage], architecture: String)
            -> (symbols: [Int: [FrameSymbol]], runtimeFailure: String?)
        { ([:], nil) }
    }
#endif
