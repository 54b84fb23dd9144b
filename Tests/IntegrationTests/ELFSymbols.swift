import Foundation
import TestSupport

/// The function symbols of an ELF file, from `nm`, to check that a report's frame lands in
/// the function that crashed: the binary's own symbol table is the judge, not our code.
struct ELFSymbols {
    private var starts: [UInt64] = []
    private var names: [String] = []

    init(file: URL) throws {
        let data = try ProgramRun.output("/usr/bin/nm", ["--defined-only", "-n", file.path])
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 3, "tTwW".contains(parts[1]), let address = UInt64(parts[0], radix: 16) else {
                continue
            }
            starts.append(address)
            names.append(String(parts[2]))
        }
    }

    /// The first symbol whose (mangled) name satisfies `matches`: its start and its name.
    func first(where matches: (String) -> Bool) -> (start: UInt64, name: String)? {
        names.firstIndex(where: matches).map { (starts[$0], names[$0]) }
    }

    /// The symbol whose code contains `address` (a file-relative virtual address).
    func symbol(containing address: UInt64) -> String? {
        var low = 0
        var high = starts.count
        while low < high {
            let mid = (low + high) / 2
            if starts[mid] <= address { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : names[low - 1]
    }
}
