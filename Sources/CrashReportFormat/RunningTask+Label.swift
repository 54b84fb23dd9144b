extension CrashReport.RunningTask {
    /// `task 77 "orders", priority medium` as `crashreport show`, the collector's page and the
    /// Sentry event name a thread's task; the name is as the report has it (escape it for the
    /// medium). A priority the standard library has no name for is its number.
    package var label: String {
        var label = "task \(id)"
        if let name, !name.isEmpty { label += " \"\(name)\"" }
        if let priority { label += ", priority \(Self.priorityName(priority))" }
        return label
    }

    /// `TaskPriority`'s name for a raw value (`high` for 25, which `userInitiated` shares; `low`
    /// for 17, which `utility` shares), else the number.
    package static func priorityName(_ raw: Int) -> String {
        switch raw {
        case 25: "high"
        case 21: "medium"
        case 17: "low"
        case 9: "background"
        default: String(raw)
        }
    }
}
