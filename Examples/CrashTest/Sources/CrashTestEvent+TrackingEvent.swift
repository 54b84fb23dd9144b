import Tracking

// How each CrashTestEvent is named and described for breadcrumbs and the events API, in one
// place. Names are snake_case, object_action (docs/events-api.md).

extension CrashTestEvent: TrackingEvent {
    var name: String {
        switch self {
        case .appLaunched: "app_launched"
        case .stepCompleted: "step_completed"
        case .noteAdded: "note_added"
        case .crashRequested: "crash_requested"
        case .runFinished: "run_finished"
        case .crashReportingChanged: "crash_reporting_changed"
        case .heartbeat: "heartbeat"
        }
    }

    var parameters: [String: TrackingValue] {
        switch self {
        case .appLaunched(let command): ["command": .string(command.rawValue)]
        case .stepCompleted(let index): ["index": .int(index)]
        case .noteAdded(let text): ["text": .string(text)]
        case .crashRequested(let kind): ["kind": .string(kind.rawValue)]
        case .runFinished(let steps, let delivered): ["steps": .int(steps), "reports_delivered": .int(delivered)]
        case .crashReportingChanged(let enabled): ["enabled": .bool(enabled)]
        case .heartbeat(let sequence): ["sequence": .int(sequence)]
        }
    }
}
