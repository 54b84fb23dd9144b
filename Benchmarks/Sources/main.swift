import Foundation

// crash-reporter-benchmarks: every comparison side by side in one run. Build and run
// with scripts/bench.sh (release mode). The numbers go into the README by hand.

let arguments = CommandLine.arguments.dropFirst()
let quick = arguments.contains("--quick")
let crashTest = executableDirectory.appendingPathComponent("crash-test").path
guard FileManager.default.isExecutableFile(atPath: crashTest) else {
    FileHandle.standardError.write(Data("Error: \(crashTest) is missing; run scripts/bench.sh\n".utf8))
    exit(1)
}

print("## Breadcrumbs\n")
BreadcrumbBenchmark.run().forEach { print($0) }
print("\n## Crash: fault to waitpid\n")
try CrashBenchmark.run(binary: crashTest, runs: quick ? 5 : 40).forEach { print($0) }
print("\n## start()\n")
try StartBenchmark.run(binary: crashTest, runs: quick ? 5 : 30).forEach { print($0) }
