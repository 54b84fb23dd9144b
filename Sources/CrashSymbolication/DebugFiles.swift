import CrashReportFormat
import CrashReporterSupport

/// Where the symbols of a stripped image are: the directories that hold debug files
/// (`objcopy --only-keep-debug`), looked up the way gdb, elfutils and debuginfod do:
///
/// 1. `DIR/.build-id/ab/cdef….debug`: the first byte of the build id in hex, then the rest;
/// 2. `DIR/NAME.debug`: the image's file name with `.debug` added;
/// 3. `DIR/LINK`: the name in the binary's `.gnu_debuglink`, when the binary is on this machine
///    and names another file; such a candidate must also have the CRC-32 the link gives.
///
/// A candidate is used only when its own `NT_GNU_BUILD_ID` equals the report's build id for the
/// image; one from another build is passed over with a note, as a binary from another build is.
///
/// When none of them has it and the image's own file has no DWARF, ``debuginfod`` servers are
/// asked, and what they send is checked the same way.
/// See docs/symbolication.md.
public struct DebugDirectories: Sendable, Equatable {
    /// Where the system's package manager puts debug files (Debian's `-dbgsym`, Fedora's `-debuginfo`).
    public static let system = "/usr/lib/debug"

    /// The directories, in the order they are searched.
    public var paths: [String]
    /// The servers asked after the directories; nil: none.
    public var debuginfod: Debuginfod?

    public init(_ paths: [String] = [], debuginfod: Debuginfod? = nil) {
        var unique: [String] = []
        for path in paths where !path.isEmpty && !unique.contains(path) { unique.append(path) }
        self.paths = unique
        self.debuginfod = debuginfod
    }

    /// Whether there is nowhere to look.
    public var isEmpty: Bool { paths.isEmpty && debuginfod == nil }

    /// `given` (e.g. `--debug-dir` options) first, then the directories in `CRASH_REPORTER_DEBUG_DIRS`.
    public init(_ given: [String], environment: [String: String]) {
        let listed = EnvironmentSettings(environment).list(.debugDirectories)
        self.init(given + listed)
    }

    /// The candidate files for `image`, in the order they are tried; `link` is the name in the
    /// binary's `.gnu_debuglink`.
    public func candidates(for image: CrashReport.Image, link: String? = nil) -> [String] {
        let buildID = image.buildID.lowercased()
        let name = image.name
        return paths.flatMap { directory -> [String] in
            let base = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
            var files: [String] = []
            if buildID.count > 2, buildID.allSatisfy(\.isHexDigit) {
                files.append("\(base)/.build-id/\(buildID.prefix(2))/\(buildID.dropFirst(2)).debug")
            }
            if !name.isEmpty, !name.contains("/"), name != "." && name != ".." {
                files.append("\(base)/\(name).debug")
            }
            if let link, link != "\(name).debug" { files.append("\(base)/\(link)") }
            return files
        }
    }

    /// What looking for `image`'s debug file found.
    struct Lookup {
        /// The first candidate with the image's build id, and what it holds.
        var found: (path: String, file: ELFImageFile)?
        /// Candidates that are there but could not be used, each with its reason.
        var notes: [String] = []
    }

    /// The first candidate for `image` whose build id is the report's; `binary` is the image's
    /// file on this machine, when it is the report's build (its `.gnu_debuglink` is read). When
    /// no directory has one and `binary` has no DWARF of its own, ``debuginfod``'s file.
    func lookUp(_ image: CrashReport.Image, binary: String? = nil) -> Lookup {
        var lookup = Lookup()
        let wanted = image.buildID.lowercased()
        guard !wanted.isEmpty else { return lookup }
        let link = binary.flatMap { DebugLink.of(binaryAt: $0) }
        for path in candidates(for: image, link: link?.name) {
            if let file = usable(path, for: image, link: link, notes: &lookup.notes) {
                lookup.found = (path, file)
                return lookup
            }
        }
        guard let debuginfod, !(binary.map(Self.hasDWARF) ?? false) else { return lookup }
        let remote = debuginfod.debugFile(for: image)
        lookup.notes += remote.notes
        if let path = remote.path, let file = usable(path, for: image, link: nil, notes: &lookup.notes) {
            lookup.found = (path, file)
        }
        return lookup
    }

    /// The file at `path` when it has `image`'s build id (and `link`'s CRC-32, when it is found
    /// by the link's name); else nil, with a note for a file
    /// that is there but cannot be used.
    private func usable(
        _ path: String, for image: CrashReport.Image, link: DebugLink?, notes: inout [String]
    ) -> ELFImageFile? {
        let wanted = image.buildID.lowercased()
        do {
            let file = try ELFImageFile.inspect(path: path)
            guard file.buildID == wanted else {
                let onDisk = file.buildID.isEmpty ? "no build id" : "build id \(file.buildID)"
                notes.append("\(path): \(onDisk), not the report's \(wanted) for \(image.name); ignored")
                return nil
            }
            if let link, path.hasSuffix("/" + link.name), !path.hasSuffix("/\(image.name).debug"),
                let crc = DebugLink.crc32(ofFileAt: path), crc != link.crc
            {
                let expected = String(link.crc, radix: 16)
                notes.append(
                    "\(path): CRC-32 \(String(crc, radix: 16)), not \(expected) as the binary's .gnu_debuglink says; ignored"
                )
                return nil
            }
            return file
        } catch {
            switch error {
            case .missing: break
            case .notAFile: notes.append("\(path): not a regular file; ignored")
            case .unreadable(let reason): notes.append("\(path): \(reason); ignored")
            case .notELF: notes.append("\(path): not an ELF file; ignored")
            case .unsupported(let reason): notes.append("\(path): \(reason); ignored")
            }
            return nil
        }
    }

    /// Whether the file at `path` has DWARF of its own (a `.debug_info` with bytes).
    static func hasDWARF(_ path: String) -> Bool {
        guard let sections = try? ELFSections(path: path) else { return false }
        guard let info = sections.sections[".debug_info"] else { return false }
        return !info.noBits && info.size > 0
    }
}
