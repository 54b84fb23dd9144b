/// The texts `--help` and `--version` print.
enum Help {
    static let version = "0.1.0"

    static let tool = """
        OVERVIEW: Review and deliver crash reports written by swift-crash-reporter.

        A crash report is a gzip-compressed JSON file (docs/report-schema.md) in a service's state
        directory: pending/ until delivered, then delivered/ (or rejected/ with the reason).

        USAGE: crashreport <subcommand> [options]

        OPTIONS:
          -h, --help              Show this help.
          --version               Show the version.

        SUBCOMMANDS:
          list                    List the reports of a state directory.
          show                    Print one report as a symbolicated crash log, or as JSON.
          export                  Print one report as JSON or as a Sentry envelope.
          upload                  Deliver a state directory's pending reports now.
          stats                   Group the reports by crash signature.

          See 'crashreport <subcommand> --help' for the options of a subcommand.

        ENVIRONMENT:
          CRASH_REPORTER_DIR      The state directory when none is given.
          CRASH_REPORTER_URL, SENTRY_DSN, SENTRY_RELEASE, SENTRY_ENVIRONMENT
                                  Where and how `upload` delivers when no option says.
          CRASH_REPORTER_RETRY_BASE_SECONDS, CRASH_REPORTER_UPLOAD_TIMEOUT_SECONDS,
          CRASH_REPORTER_DISABLED
                                  Read by `upload` as the service reads them.
          SSL_CERT_FILE, SSL_CERT_DIR, https_proxy, http_proxy, no_proxy
                                  Trust and proxies for https uploads.

        EXIT STATUS:
          0 success, 1 failure (a report missing or damaged, nowhere to upload, another process
          delivering, an invalid setting), 64 the command line is wrong.
        """

    static func text(for subcommand: Subcommand) -> String {
        let body: String
        switch subcommand {
        case .list:
            body = """
                OVERVIEW: List the reports of a state directory: status, id, time, signal, top frame.

                USAGE: \(subcommand.usage)

                ARGUMENTS:
                  DIR                     The state directory (default: CRASH_REPORTER_DIR).

                OPTIONS:
                  --json                  Print the list as JSON.
                """
        case .show:
            body = """
                OVERVIEW: Print one crash report.

                The report is validated against schema version 1 first; a damaged or foreign file is
                refused with a one-line reason. Frames are symbolicated when the binary with the same
                build id is on this machine.

                USAGE: \(subcommand.usage)

                ARGUMENTS:
                  ID|FILE                 A report id (looked up in the state directory) or a .crash file.

                OPTIONS:
                  --json                  Print the report as JSON (pretty, sorted keys).
                  --no-symbols            Do not symbolicate.
                  --dir DIR               The state directory to look the id up in (default: CRASH_REPORTER_DIR).
                """
        case .export:
            body = """
                OVERVIEW: Print one report in a format for other tools.

                USAGE: \(subcommand.usage)

                ARGUMENTS:
                  ID|FILE                 A report id or a .crash file.

                OPTIONS:
                  --format json           The report as JSON.
                  --format sentry-envelope
                                          The Sentry envelope the Sentry transport sends.
                  --dir DIR               The state directory to look the id up in.
                """
        case .upload:
            body = """
                OVERVIEW: Deliver the pending reports of a state directory once, with the service's own
                rules (retries, Retry-After, rejections, the directory lock), e.g. from a cron job.

                USAGE: \(subcommand.usage)

                ARGUMENTS:
                  DIR                     The state directory (default: CRASH_REPORTER_DIR).

                OPTIONS:
                  --url URL               Plain HTTP endpoint (default: CRASH_REPORTER_URL).
                  --dsn DSN               Sentry DSN (default: SENTRY_DSN).
                """
        case .stats:
            body = """
                OVERVIEW: Group the reports by signature (signal and the top frames of the app's own
                code), with counts, first and last seen, and app versions.

                USAGE: \(subcommand.usage)

                ARGUMENTS:
                  DIR                     The state directory (default: CRASH_REPORTER_DIR).

                OPTIONS:
                  --json                  Print the groups as JSON.
                """
        }
        return body + "\n  -h, --help              Show this help."
    }

    /// The short usage for an error message.
    static func usage(for subcommand: Subcommand?) -> String {
        "Usage: \(subcommand?.usage ?? "crashreport <subcommand> [options]")\n"
            + "See 'crashreport \(subcommand.map { $0.rawValue + " " } ?? "")--help'."
    }
}
