import CrashReporterSupport

/// Whether a debug file can be handed to the Swift runtime's symbolicator without ending the
/// process that asks: the runtime's DWARF reader traps (`SIGILL`) on a signed LEB128 of nine
/// bytes with its sign bit set (Debian's `libc6-dbg` holds such `DW_FORM_sdata` constants), and
/// it reads every entry of every unit on its first inline lookup in a file. ``DWARFInfo`` walks
/// the same entries first, in Swift, and a file with such a value (or DWARF it cannot read:
/// malformed, or compressed with other than zlib) is passed over with a note. Verdicts are kept
/// per file (device, inode, size, modification time), so each file is walked once per process.
/// See docs/decisions.md.
enum RuntimeDWARFCheck {
    /// By file: the reason it is refused, or "" for a file the runtime can take.
    private static let verdicts = Monitor<[ELFImageFile.Identity: String]>([:])

    /// Why the runtime cannot take the file at `path`; nil when it can.
    static func problem(path: String, identity: ELFImageFile.Identity) -> String? {
        if let known = verdicts.withLock({ $0[identity] }) { return known.isEmpty ? nil : known }
        let verdict: String
        do {
            var info = try DWARFInfo(path: path)
            info.checkEveryEntry()
            verdict =
                info.runtimeHazard.map { "its DWARF holds \($0), which the Swift runtime's reader traps on" } ?? ""
        } catch {
            switch error {
            case .unsupported(let reason) where reason == DWARFInfo.noDWARF: verdict = ""
            case .unsupported(let reason): verdict = reason
            case .unreadable(let reason): verdict = "its sections cannot be read (\(reason))"
            case .malformed: verdict = "its DWARF is malformed"
            }
        }
        verdicts.update { $0[identity] = verdict }
        return verdict.isEmpty ? nil : verdict
    }
}
