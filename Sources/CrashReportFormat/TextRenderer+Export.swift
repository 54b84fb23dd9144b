extension TextRenderer {
    /// The crashing thread's section, as ``render(_:)`` prints it (its title, then its frames
    /// with the symbols): an exported record's stack trace. Nil for a report without one.
    package func crashingThread(_ report: CrashReport) -> String? {
        guard let index = report.threads.firstIndex(where: \.crashed) else { return nil }
        return thread(report.threads[index], report.callStack(ofThread: index, symbols: symbols), in: report)
    }

    /// Every thread's section, as ``render(_:)`` prints them: a snapshot's or a hang's stacks.
    package func allThreads(_ report: CrashReport) -> String {
        threads(report).joined(separator: "\n\n")
    }
}
