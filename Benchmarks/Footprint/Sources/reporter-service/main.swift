import CrashReporter
import FootprintService

// The same service with the reporter, started first thing in `main` as the README says.
Probe.mark("main")
try CrashReporter.start(Options(appName: "footprint", appVersion: "1.0.0"))
Probe.mark("ready")
try HelloServer.run()
