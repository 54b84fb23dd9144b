/// The function symbols of an ELF file (`.symtab`, else `.dynsym`) that hold given addresses:
/// one pass over the table per lookup, keeping nothing but the answers, so that a binary of
/// hundreds of thousands of symbols costs a few milliseconds and no memory of its own.
enum ELFSymbolTable {
    struct Symbol: Equatable {
        var name: String
        var start: UInt64
    }

    /// For each of `addresses` (ELF virtual addresses), the function symbol whose extent holds
    /// it; where several do (aliases), a global one before a weak one before a local one, then
    /// the first in the table. A symbol without a size holds the addresses up to the next one.
    static func symbols(in file: ELFSections, at addresses: [UInt64]) -> [UInt64: Symbol] {
        let wanted = Array(Set(addresses)).sorted()
        guard !wanted.isEmpty else { return [:] }
        for name in [".symtab", ".dynsym"] {
            guard let table = file.sections[name], table.type == 2 || table.type == 11,
                let strings = file.linked(to: table), let entries = file.bytes(of: table),
                let names = file.bytes(of: strings)
            else { continue }
            defer {
                file.release(table)
                file.release(strings)
            }
            var sized: [Int: Candidate] = [:]
            var unsized: [Int: Candidate] = [:]
            var released = 0
            for index in 0..<(entries.count / 24) {
                let base = index * 24
                if base - released >= ELFSections.scanWindow {
                    file.release(table, bytes: released..<base)
                    released = base
                }
                let info = entries[base + 4]
                let type = info & 0xf
                guard type == 2 || type == 10, entries.littleEndian(UInt16.self, at: base + 6) != 0 else { continue }
                let start = entries.littleEndian(UInt64.self, at: base + 8)
                let size = entries.littleEndian(UInt64.self, at: base + 16)
                let candidate = Candidate(
                    start: start, rank: [1: 0, 2: 1][Int(info >> 4)] ?? 2,
                    name: entries.littleEndian(UInt32.self, at: base))
                var slot = firstIndex(in: wanted, notBelow: start)
                if size > 0 {
                    let end = start &+ size
                    while slot < wanted.count, wanted[slot] < end {
                        candidate.replace(&sized[slot])
                        slot += 1
                    }
                } else {
                    while slot < wanted.count {
                        candidate.replace(&unsized[slot])
                        slot += 1
                    }
                }
            }
            let best = sized.merging(unsized) { known, _ in known }
            guard !best.isEmpty else { continue }
            var found: [UInt64: Symbol] = [:]
            for (slot, symbol) in best {
                guard let name = DWARFBytes.string(in: names, at: UInt64(symbol.name)), !name.isEmpty else { continue }
                found[wanted[slot]] = Symbol(name: name, start: symbol.start)
            }
            return found
        }
        return [:]
    }

    private struct Candidate {
        var start: UInt64
        /// Global 0, weak 1, local 2.
        var rank: Int
        var name: UInt32

        /// Puts itself in `known`'s place when it starts closer to the address, or at the same
        /// place with a better binding.
        func replace(_ known: inout Candidate?) {
            guard let current = known else { return known = self }
            if start > current.start || (start == current.start && rank < current.rank) { known = self }
        }
    }

    /// The index of the first of `sorted` at or above `value`.
    private static func firstIndex(in sorted: [UInt64], notBelow value: UInt64) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
