/// The texts `--help` and `--version` print.
enum Help {
    static let version = "0.1.0"

    static let tool = """
        OVERVIEW: Review crash reports written by swift-crash-reporter.

        A crash report is a gzip-compressed JSON file (docs/report-schema.md), usually
        <state dir>/pending/<report id>.crash.

        USAGE: crashreport <subcommand> [options]

        OPTIONS:
          -h, --help              Show this help.
          --version               Show the version.

        SUBCOMMANDS:
          show                    Print one report as a crash log, or as JSON.

          See 'crashreport <subcommand> --help' for the options of a subcommand.

        EXIT STATUS:
          0 success, 1 the report could not be read (missing, damaged, not a report),
          64 the command line is wrong.
        """

    static func text(for subcommand: Subcommand) -> String {
        switch subcommand {
        case .show:
            """
            OVERVIEW: Print one crash report.

            The report is validated against schema version 1 before it is printed; a damaged or
            foreign file is refused with a one-line reason.

            USAGE: \(subcommand.usage)

            ARGUMENTS:
              FILE                    A .crash file.

            OPTIONS:
              --json                  Print the report as JSON (pretty, sorted keys) instead of a crash log.
              -h, --help              Show this help.
            """
        }
    }

    /// The short usage for an error message.
    static func usage(for subcommand: Subcommand?) -> String {
        "Usage: \(subcommand?.usage ?? "crashreport <subcommand> [options]")\n"
            + "See 'crashreport \(subcommand.map { $0.rawValue + " " } ?? "")--help'."
    }
}
