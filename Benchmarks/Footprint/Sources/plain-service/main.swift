import FootprintService

// The service without the reporter: `main` is marked where the other one returns from start().
Probe.mark("main")
Probe.mark("ready")
try HelloServer.run()
