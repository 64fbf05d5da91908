import Glibc
import GstCamera
import LinuxSystem
import Reports
import Screen

// gstcam: a camera on the command line. Usage errors exit 64, failures exit 1 (see ExitStatus).

Interrupt.install()

let overview = """
OVERVIEW: gstcam — photos and live preview from V4L2 cameras, built on GStreamer.

USAGE: gstcam <command> [options]

COMMANDS:
\(Commands.all.map { "  " + $0.name + String(repeating: " ", count: max(1, 10 - $0.name.count)) + $0.summary }.joined(separator: "\n"))
  help      Show help for a command: gstcam help <command>
  version   Print gstcam's version and the GStreamer version in use (also --version; --json)

Run `gstcam <command> --help` for a command's options.
"""

func printHelp(for command: any Command.Type) {
    print("OVERVIEW: \(command.summary)\n\n\(command.usage)")
}

func printVersion(json: Bool) {
    if json {
        print(JSONOutput.line(VersionRecord(version: GstCameraVersion.string, gstreamer: GstCameraVersion.gstreamerNumber)))
    } else {
        print("gstcam \(GstCameraVersion.string)\n\(GstCameraVersion.gstreamer)")
    }
}

func fail(_ message: String, status: ExitStatus) -> Never {
    Standard.error.write("gstcam: \(message)\n")
    exit(status.rawValue)
}

var words = Array(CommandLine.arguments.dropFirst())
guard let first = words.first else {
    Standard.error.write(overview + "\n")
    exit(ExitStatus.usage.rawValue)
}
words.removeFirst()

switch first {
case "--version", "version":
    guard words.isEmpty || words == ["--json"] else { fail("\(first) takes no arguments but --json", status: .usage) }
    printVersion(json: !words.isEmpty)
    exit(0)
case "-h", "--help":
    print(overview)
    exit(0)
case "help":
    guard let name = words.first else { print(overview); exit(0) }
    if name == "version" || name == "--version" {
        print("OVERVIEW: Print gstcam's version and the GStreamer version in use.\n\nUSAGE: gstcam --version [--json]\n       gstcam version [--json]")
        exit(0)
    }
    guard let command = Commands.named(name) else { fail("no command named \"\(name)\"; run gstcam --help", status: .usage) }
    printHelp(for: command)
    exit(0)
default:
    guard let command = Commands.named(first) else {
        fail("unknown command \"\(first)\"; run gstcam --help", status: .usage)
    }
    var arguments = Arguments(words)
    if arguments.takeHelp() {
        printHelp(for: command)
        exit(0)
    }
    do {
        try await command.run(&arguments)
        exit(0)
    } catch let error as UsageError {
        fail("\(error)\nRun `gstcam \(command.name) --help` for usage.", status: .usage)
    } catch let error as ScreenRequestError {
        fail("\(error)\nRun `gstcam \(command.name) --help` for usage.", status: .usage)
    } catch let request as ExitRequest {
        exit(request.status.rawValue)
    } catch {
        fail("\(error)", status: .failure)
    }
}
