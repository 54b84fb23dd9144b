import Glibc

/// The process's environment, name and home directory, without `ProcessInfo`.
package enum ProcessEnvironment {
    /// Every `NAME=value` of `environ`, read now (so it includes `setenv` calls made so far).
    /// An entry without `=` is skipped; for a repeated name the first one wins, as `getenv`.
    package static func current() -> [String: String] {
        var variables: [String: String] = [:]
        let start: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        guard var entry = start else { return variables }
        // Bytes, not String indices: `start()` reads the environment on the service's critical
        // path, and slicing a String validates every index it is given.
        while let pointer = entry.pointee {
            if let equals = strchr(pointer, Int32(UInt8(ascii: "="))) {
                let name = UnsafeRawBufferPointer(start: pointer, count: equals - pointer)
                let key = String(decoding: name, as: UTF8.self)
                if variables[key] == nil { variables[key] = String(cString: equals + 1) }
            }
            entry += 1
        }
        return variables
    }

    /// The last path component of `argv[0]` (`my-service` for `/usr/bin/my-service`), or
    /// `process` when there is none.
    package static var processName: String {
        guard let first = CommandLine.arguments.first,
            let name = first.split(separator: "/").last, !name.isEmpty
        else { return "process" }
        return String(name)
    }

    /// The home directory of this user in the password database (`getpwuid_r`), when it is
    /// an absolute path. `EnvironmentSettings.homeDirectory` asks `$HOME` first.
    package static func passwordDatabaseHome() -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        let status = getpwuid_r(getuid(), &entry, &buffer, buffer.count, &result)
        guard status == 0, result != nil, let directory = entry.pw_dir else { return nil }
        let home = String(cString: directory)
        return home.hasPrefix("/") ? home : nil
    }
}
