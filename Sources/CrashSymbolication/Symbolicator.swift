import CrashReportFormat
import CrashReporterSupport

/// Turns a report's raw addresses into function names, source locations and inlined frames,
/// using the binaries that are still on this machine.
///
/// An image is used only when its file is on disk (a leading `~` is the given home directory)
/// **and** its GNU build id equals the one in the report: a rebuilt or upgraded binary at the
/// same path would give plausible but wrong answers, so it gives none. A debug file with the
/// image's build id in one of ``debugDirectories`` is used instead of the binary (a stripped
/// binary has no symbols of its own). Frames in other images keep their raw address (the
/// report always keeps addresses and build ids, for a server).
///
/// The symbols come from each file's symbol table, its DWARF line program and inlined-call
/// entries, read by the module's own reader (``DebugImage``) from the file mapped into memory:
/// only the compile units that hold the report's addresses are read, so a report costs
/// milliseconds whatever the size of the binary, and no toolchain is needed where the service
/// runs. Names are demangled by the Swift runtime's demangler. See docs/symbolication.md.
public struct Symbolicator: Sendable {
    /// What replaces a leading `~` in an image path; `nil` leaves such images unresolved.
    public var homeDirectory: String?
    /// Where debug files are looked for by build id and by name (``DebugDirectories``).
    public var debugDirectories: DebugDirectories
    /// The files kept open between reports.
    var cache = DebugImageCache.shared
    /// `homeDirectory` defaults to `$HOME`, the directory the reporter shortened to `~`.
    public init(
        homeDirectory: String? = Symbolicator.environmentHome(),
        debugDirectories: DebugDirectories = DebugDirectories()
    ) {
        self.homeDirectory = homeDirectory
        self.debugDirectories = debugDirectories
    }

    /// Closes the files that symbolication keeps open between reports (the service's worker, at
    /// the end of a delivery pass: nothing read for a report stays in the service).
    public static func releaseCachedFiles() {
        DebugImageCache.shared.removeAll()
    }

    /// Symbols for the crash's frames and every thread's, innermost inlined call first (the
    /// shape ``TextRenderer`` takes).
    public func symbolicate(_ report: CrashReport) -> ReportSymbols {
        symbolication(of: report).symbols
    }

    /// Symbols plus what happened to each image and the runtime-failure reason.
    public func symbolication(of report: CrashReport) -> Symbolication {
        // The crash's frames, then each thread's, then each thread's async frames, looked up in
        // one pass: the runtime looks up each distinct frame once, and the crashing thread's
        // frames are the crash's again.
        let crashFrames = report.crash?.frames ?? []
        let stacks = [crashFrames] + report.threads.map(\.frames) + report.threads.map(\.asyncFrames)
        let allFrames = stacks.flatMap { $0 }
        var statuses: [Int: Symbolication.ImageStatus] = [:]
        var usable: [Int: UsableImage] = [:]
        var notes: [String] = []
        // The system's debug directory last, as gdb and the runtime's own backtracer look there:
        // a distribution's `-dbg` packages name the C library's frames.
        var searched = debugDirectories
        if !searched.paths.contains(DebugDirectories.system) { searched.paths.append(DebugDirectories.system) }
        for index in Set(allFrames.compactMap(\.imageIndex)).sorted()
        where report.images.indices.contains(index) {
            let image = report.images[index]
            var (status, file) = resolve(image)
            if status != .noBuildID {
                var binary: String?
                if case .matched(let path) = status { binary = path }
                let lookup = searched.lookUp(image, binary: binary)
                notes += lookup.notes
                if let found = lookup.found {
                    (status, file) = (.debugFile(path: found.path), found.file)
                }
            }
            statuses[index] = status
            switch status {
            case .matched(let path), .debugFile(let path):
                if let file {
                    usable[index] = UsableImage(image: image, path: path, identity: file.identity)
                }
            default:
                break
            }
        }
        guard !usable.isEmpty else {
            return Symbolication(symbols: ReportSymbols(), runtimeFailure: nil, images: statuses, notes: notes)
        }
        // Each image's distinct addresses, looked up in one go: a deep recursion repeats one
        // return address hundreds of times, and the crashing thread's frames are the crash's again.
        var addresses: [Int: Set<UInt64>] = [:]
        for frame in allFrames {
            guard let index = frame.imageIndex, let image = usable[index],
                let offset = image.image.offset(of: frame.lookupAddress)
            else { continue }
            addresses[index, default: []].insert(offset)
        }
        let images = addresses.keys.sorted()
        let answers = cache.symbols(
            for: images.map { index in
                DebugImageCache.Request(
                    path: usable[index]!.path, identity: usable[index]!.identity,
                    addresses: addresses[index]!.sorted())
            })
        let found = Dictionary(uniqueKeysWithValues: zip(images, answers))
        var flat: [Int: [FrameSymbol]] = [:]
        for (index, frame) in allFrames.enumerated() {
            guard let image = frame.imageIndex, let offset = usable[image]?.image.offset(of: frame.lookupAddress),
                let symbols = found[image]?[offset]
            else { continue }
            flat[index] = symbols
        }
        // Only a crash's first frame is a trap the compiler may have named.
        var runtimeFailure: String?
        if crashFrames.first?.trust == .context {
            runtimeFailure = flat[0]?.first { $0.function.hasPrefix(RuntimeFrames.failurePrefix) }?.function
        }
        // Back from one flat list to each stack's own frame indices.
        var perStack: [[Int: [FrameSymbol]]] = []
        var start = 0
        for stack in stacks {
            var symbols: [Int: [FrameSymbol]] = [:]
            for offset in stack.indices {
                if let found = flat[start + offset] { symbols[offset] = found }
            }
            perStack.append(symbols)
            start += stack.count
        }
        var threads: [Int: [Int: [FrameSymbol]]] = [:]
        var asyncFrames: [Int: [Int: [FrameSymbol]]] = [:]
        for (index, symbols) in perStack.dropFirst().enumerated() where !symbols.isEmpty {
            if index < report.threads.count {
                threads[index] = symbols
            } else {
                asyncFrames[index - report.threads.count] = symbols
            }
        }
        return Symbolication(
            symbols: ReportSymbols(crash: perStack[0], threads: threads, asyncFrames: asyncFrames),
            runtimeFailure: runtimeFailure, images: statuses, notes: notes)
    }

    /// The path of an image's file on this machine: `~` expanded, `nil` for the vDSO and other
    /// images without a path.
    public func localPath(of image: CrashReport.Image) -> String? {
        let path = image.path
        if path.hasPrefix("/") { return path }
        if path == "~" || path.hasPrefix("~/"), let home = homeDirectory, home.hasPrefix("/") {
            let trimmed = home.hasSuffix("/") ? String(home.dropLast()) : home
            return trimmed + path.dropFirst()
        }
        return nil
    }

    func resolve(_ image: CrashReport.Image) -> (Symbolication.ImageStatus, ELFImageFile?) {
        guard !image.buildID.isEmpty else { return (.noBuildID, nil) }
        guard let path = localPath(of: image) else { return (.noFile, nil) }
        do {
            let file = try ELFImageFile.inspect(path: path)
            guard file.buildID == image.buildID.lowercased() else {
                return (.buildIDMismatch(path: path, onDisk: file.buildID), nil)
            }
            return (.matched(path: path), file)
        } catch {
            switch error {
            case .missing: return (.missing(path: path), nil)
            case .notAFile: return (.unreadable(path: path, reason: "not a regular file"), nil)
            case .unreadable(let reason): return (.unreadable(path: path, reason: reason), nil)
            case .notELF: return (.unreadable(path: path, reason: "not an ELF file"), nil)
            case .unsupported(let reason): return (.unreadable(path: path, reason: reason), nil)
            }
        }
    }

    public static func environmentHome() -> String? {
        EnvironmentSettings.current().raw(.home)
    }
}

/// The result of symbolicating one report.
public struct Symbolication: Sendable, Equatable {
    /// What the symbolicator found for one of the report's images (those that frames point into).
    public enum ImageStatus: Sendable, Equatable {
        /// The file is there with the report's build id: its frames were symbolicated.
        case matched(path: String)
        /// A debug file with the report's build id, found in a debug directory: its frames were
        /// symbolicated from it (whatever is at the image's own path).
        case debugFile(path: String)
        /// The report has no build id for the image, so no file can be trusted for it.
        case noBuildID
        /// The image has no file path (the vDSO), or it starts with `~` and no home is known.
        case noFile
        /// No file at the path.
        case missing(path: String)
        /// A file from a different build is at the path (`onDisk` is empty when it has no build id).
        case buildIDMismatch(path: String, onDisk: String)
        /// The file could not be read as an ELF image.
        case unreadable(path: String, reason: String)
    }

    /// Symbols for the crash's and each thread's frames, by frame index, innermost inlined
    /// call first, all but the last `inlined`.
    public var symbols: ReportSymbols
    /// The reason the compiler recorded for a `-O` trap in the crashing frame, e.g.
    /// `Swift runtime failure: Unexpectedly found nil while unwrapping an Optional value`:
    /// the name of the pseudo-function that the trap instruction is "inlined" from. `nil` when
    /// frame 0 is not such a trap or its image has no debug information.
    public var runtimeFailure: String?
    /// By image index, for each image that a frame (of the crash or of any thread) points into.
    public var images: [Int: ImageStatus]
    /// Debug files found in the debug directories that could not be used (another build's, or
    /// unreadable), one line each, for a tool to show.
    public var notes: [String]

    public init(
        symbols: ReportSymbols, runtimeFailure: String?, images: [Int: ImageStatus], notes: [String] = []
    ) {
        self.symbols = symbols
        self.runtimeFailure = runtimeFailure
        self.images = images
        self.notes = notes
    }
}

/// An image whose file on disk was checked against the report's build id.
struct UsableImage: Sendable {
    var image: CrashReport.Image
    var path: String
    var identity: ELFImageFile.Identity
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension TextRenderer {
    /// Renders with what a symbolicator found.
    public init(symbolication: Symbolication) {
        self.init(symbols: symbolication.symbols, runtimeFailure: symbolication.runtimeFailure)
    }
}
