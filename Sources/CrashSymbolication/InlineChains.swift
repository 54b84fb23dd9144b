import CrashReportFormat
import CrashReporterSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The inlined calls at an address, for the levels the runtime's symbolicator leaves out: where
/// inlined calls begin at the same address (an `Array.subscript.getter` with its
/// `_checkSubscript` and the `Swift runtime failure: Index out of range` trap inside it), the
/// runtime keeps the outermost only (docs/decisions.md).
///
/// Read either from the file's own DWARF, in Swift (``debugInformation``: what the service's
/// worker uses, where no toolchain is), or by the toolchain's `llvm-symbolizer` where one is on
/// the machine (the tools, `crashreport` and `crash-collector`, prefer it and fall back to the
/// DWARF reader).
public struct InlineChains: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// `llvm-symbolizer` at this path.
        case symbolizer(executable: String)
        /// The image's (or its debug file's) `DW_TAG_inlined_subroutine` entries (``DWARFInfo``).
        case debugInformation
    }

    public var source: Source

    /// The `llvm-symbolizer` executable, for ``Source/symbolizer(executable:)``.
    public var executable: String? {
        if case .symbolizer(let executable) = source { return executable }
        return nil
    }

    public init(executable: String) {
        self.source = .symbolizer(executable: executable)
    }

    public init(source: Source) {
        self.source = source
    }

    /// Chains from the debug information itself: no external tool.
    public static let debugInformation = InlineChains(source: .debugInformation)

    /// The toolchain's `llvm-symbolizer` (beside `swift` on `PATH`), else the first on `PATH`;
    /// nil when there is none.
    public static func find(environment: [String: String]) -> InlineChains? {
        let directories = EnvironmentSettings(environment).list(.path)
        let beside = directories.filter { access($0 + "/swift", X_OK) == 0 }
        for directory in beside + directories where access(directory + "/llvm-symbolizer", X_OK) == 0 {
            return InlineChains(executable: directory + "/llvm-symbolizer")
        }
        return nil
    }

    /// One level of an address's inline chain, innermost first; the last is the function itself.
    struct Level: Equatable {
        /// The linkage name, or the name when there is none (the runtime-failure pseudo-function).
        var name: String
        var file: String?
        var line: Int?
    }

    /// The chains at `offsets` (ELF virtual addresses) of `file`; empty when the symbolizer
    /// cannot be run or says nothing, or the file's DWARF cannot be read.
    func chains(file: String, offsets: [UInt64]) -> [UInt64: [Level]] {
        guard !offsets.isEmpty else { return [:] }
        guard let executable else { return (try? DWARFInfo(path: file))?.chains(at: offsets) ?? [:] }
        guard let output = run(executable, file: file, offsets: offsets),
            let answers = try? JSON.parse(output).arrayValue
        else { return [:] }
        var chains: [UInt64: [Level]] = [:]
        for (offset, answer) in zip(offsets, answers) {
            let levels = (answer["Symbol"]?.arrayValue ?? []).compactMap { symbol -> Level? in
                guard let name = symbol["FunctionName"]?.stringValue, !name.isEmpty, name != "??" else { return nil }
                var path = symbol["FileName"]?.stringValue ?? ""
                if path.hasSuffix("<compiler-generated>") { path = "<compiler-generated>" }
                let line = symbol["Line"]?.numberValue?.exactly(Int.self) ?? 0
                return Level(name: name, file: path.isEmpty ? nil : path, line: line > 0 ? line : nil)
            }
            if !levels.isEmpty { chains[offset] = levels }
        }
        return chains
    }

    /// `llvm-symbolizer --obj=FILE --inlining --functions=linkage --output-style=JSON OFFSETS…`'s
    /// standard output; nil when it cannot be started or fails.
    private func run(_ executable: String, file: String, offsets: [UInt64]) -> [UInt8]? {
        let arguments =
            [executable, "--obj=\(file)", "--inlining", "--functions=linkage", "--output-style=JSON"]
            + offsets.map { "0x" + String($0, radix: 16) }
        var pipes: [Int32] = [0, 0]
        guard pipe(&pipes) == 0 else { return nil }
        for end in pipes { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipes[1], 1)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let cArguments = arguments.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        let started = posix_spawn(&pid, executable, &actions, nil, cArguments, nil)
        close(pipes[1])
        defer { close(pipes[0]) }
        guard started == 0 else { return nil }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = SystemCall.retryingInterrupts {
                buffer.withUnsafeMutableBytes { read(pipes[0], $0.baseAddress, $0.count) }
            }
            if count <= 0 { break }
            output += buffer.prefix(count)
        }
        var status: Int32 = 0
        _ = SystemCall.retryingInterrupts { waitpid(pid, &status, 0) }
        return status == 0 ? output : nil
    }

    /// `symbols` (by index in `frames`) with the levels the runtime left out put back: one
    /// symbolizer run per image, for the distinct addresses that have symbols.
    func complete(_ symbols: [Int: [FrameSymbol]], frames: [CrashReport.Frame], images: [Int: UsableImage])
        -> [Int: [FrameSymbol]]
    {
        var offsetsByImage: [Int: Set<UInt64>] = [:]
        for (index, frame) in frames.enumerated() where symbols[index] != nil {
            guard let image = frame.imageIndex, let usable = images[image],
                let offset = usable.image.offset(of: frame.lookupAddress)
            else { continue }
            offsetsByImage[image, default: []].insert(offset)
        }
        var chainsByImage: [Int: [UInt64: [Level]]] = [:]
        for (image, offsets) in offsetsByImage {
            chainsByImage[image] = chains(file: images[image]!.path, offsets: offsets.sorted())
        }
        var completed = symbols
        for (index, found) in symbols {
            let frame = frames[index]
            guard let image = frame.imageIndex, let usable = images[image],
                let offset = usable.image.offset(of: frame.lookupAddress), let chain = chainsByImage[image]?[offset]
            else { continue }
            completed[index] = Self.merge(found, chain: chain, demangle: RuntimeDemangling.name(of:))
        }
        return completed
    }

    /// `symbols` (the runtime's, innermost first) with the inlined levels of `chain` that the
    /// runtime left out put back; unchanged when the chain has no more levels, or does not end
    /// in the same function. A level the runtime found too keeps the runtime's answer (a chain
    /// read from DWARF has names only).
    static func merge(_ symbols: [FrameSymbol], chain: [Level], demangle: (String) -> String) -> [FrameSymbol] {
        guard chain.count > symbols.count, let real = symbols.last,
            demangle(chain[chain.count - 1].name) == real.function
        else { return symbols }
        let known = symbols.dropLast()
        let inlined = chain.dropLast().map { level -> FrameSymbol in
            let function = demangle(level.name)
            if level.file == nil, let found = known.first(where: { $0.function == function }) { return found }
            let failure = function.hasPrefix(RuntimeFrames.failurePrefix)
            return FrameSymbol(
                function: function, file: failure ? nil : level.file, line: failure ? nil : level.line, inlined: true,
                mangledName: function != level.name ? level.name : nil)
        }
        return inlined + [real]
    }
}
