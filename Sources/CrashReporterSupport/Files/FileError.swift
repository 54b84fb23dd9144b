/// A file operation that failed, as one line: `cannot write /x/y: no space left on device`.
package struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done to the path: the verb of the message.
    package enum Action: String, Sendable {
        case read
        case write
        case create
        case append
        case remove
        case rename
        case list
        case inspect
        case sync
        case createDirectory = "create directory"
    }

    package enum Reason: Sendable, Equatable {
        /// A system call failed with this `errno`.
        case system(errno: Int32)
        /// A reader refuses directories, FIFOs, devices and sockets.
        case notRegularFile
        /// A reader's size limit, in bytes, was passed.
        case tooLarge(limit: Int)
    }

    package var action: Action
    package var path: String
    package var reason: Reason

    package init(_ action: Action, _ path: String, _ reason: Reason) {
        self.action = action
        self.path = path
        self.reason = reason
    }

    /// The error for the `errno` a call just set.
    package init(_ action: Action, _ path: String, errno code: Int32) {
        self.init(action, path, .system(errno: code))
    }

    /// The error for a failed system call.
    package init(_ action: Action, _ path: String, _ error: SystemCallError) {
        self.init(action, path, .system(errno: error.errno))
    }

    /// The `errno` of a failed system call; `nil` for the reader's own refusals.
    package var errno: Int32? {
        if case .system(let code) = reason { return code }
        return nil
    }

    package var description: String {
        let why =
            switch reason {
            case .system(let code): Errno.text(code)
            case .notRegularFile: "not a regular file"
            case .tooLarge(let limit): "larger than \(ByteCount.text(limit))"
            }
        return "cannot \(action.rawValue) \(path): \(why)"
    }
}
