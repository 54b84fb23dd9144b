import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

@main
enum CrashCollector {
    static func main() {
        let command: Command
        do {
            command = try parseArguments(
                Array(CommandLine.arguments.dropFirst()),
                environment: ProcessInfo.processInfo.environment)
        } catch {
            Log.write("Error: \(error.message)\n\(Help.usage)\n")
            exit(64)
        }
        switch command {
        case .help:
            print(Help.text)
            exit(0)
        case .version:
            print(Help.version)
            exit(0)
        case .serve(let configuration):
            exit(serve(configuration))
        }
    }

    static func serve(_ configuration: Configuration) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let server: Server
        do {
            let collector = try Collector(configuration: configuration)
            server = try Server(collector: collector)
        } catch {
            Log.error("\(error)")
            return 1
        }
        // SIGTERM and SIGINT are taken from their default action and delivered to a queue,
        // which asks the accept loop to stop; open requests are finished first.
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGTERM, SIGINT] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { server.stop() }
            source.resume()
            sources.append(source)
        }
        // One line, written unbuffered: tests and scripts wait for it to learn the port.
        let ready = "crash-collector listening on http://\(configuration.host):\(server.port)\n"
        try? FileHandle.standardOutput.write(contentsOf: Data(ready.utf8))
        server.run()
        Log.info("stopped")
        _ = sources
        return 0
    }
}
