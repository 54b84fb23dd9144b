/// The functions the compiler makes to forward a call to another: a closure's context applied
/// (`partial apply for …`), a function's calling convention changed (`reabstraction thunk …`,
/// `thunk for …`), a protocol requirement or a class method dispatched (`protocol witness for …`,
/// `dispatch thunk of …`), a closure made callable from C (`@objc closure #1 in …`, the entry a C
/// library such as NIO's HTTP parser calls). Each sits between two frames of a stack and says nothing the frame it
/// forwards to does not say, so people are shown it folded into that frame and signatures leave
/// it out (docs/grouping.md). A `merged …` function is the code of several identical functions,
/// not a forwarder: it stays a frame.
package enum CompilerThunks {
    /// The demangled names' beginnings, as the Swift demangler writes them.
    static let prefixes = [
        "partial apply for ", "partial apply forwarder for ", "reabstraction thunk", "thunk for ",
        "protocol witness for ", "dispatch thunk of ", "@objc thunk for ", "dynamic thunk for ",
        "vtable thunk for ", "@objc ",
    ]

    /// `function` (a demangled name) is a compiler thunk.
    package static func isThunk(_ function: String) -> Bool {
        prefixes.contains { function.hasPrefix($0) }
    }
}

extension CallStack {
    /// The frame at `index` is nothing but compiler thunks: it has names and every one of them
    /// is a thunk (``CompilerThunks``).
    package func isThunk(_ index: Int) -> Bool {
        guard let found = symbols[index], !found.isEmpty else { return false }
        return found.allSatisfy { CompilerThunks.isThunk($0.function) }
    }

    /// ``lines`` with each thunk frame folded into the frame before it (innermost first: the
    /// frame it forwards to), and by frame index how many thunk frames were folded into it. A
    /// thunk stays a line of its own when no frame line comes right before it (the innermost
    /// frame, after a gap) or when it is part of a repeated cycle, whose count it is.
    package func foldingThunks() -> (lines: [StackLine], folded: [Int: Int]) {
        var inCycle = Set<Int>()
        for (position, line) in lines.enumerated() {
            if case .repeats(let length, _) = line { inCycle.formUnion(max(0, position - length)..<position) }
        }
        var kept: [StackLine] = []
        var folded: [Int: Int] = [:]
        for (position, line) in lines.enumerated() {
            if case .frame(let index, let count) = line, !inCycle.contains(position), isThunk(index),
                case .frame(let target, _)? = kept.last
            {
                folded[target, default: 0] += count
                continue
            }
            kept.append(line)
        }
        return (kept, folded)
    }
}
