import Glibc
import GstCamera
import LinuxSystem
import Reports
import Screen

/// gstcam's command line, shared by its two executables: usage errors exit 64, failures exit 1 (see ExitStatus).
/// `gstcam` runs every command but `serve` itself, `gstcam-serve` runs `serve` too: only serving needs libsoup,
/// gst-rtsp-server and webrtc, whose loading cost every cold photo 3 MiB and 4 ms (docs/benchmarks.md).
package enum GstcamMain {
    /// Runs `run(_:serve:)` on a pool thread while the calling thread, main.swift's, waits for the exit. An async
    /// main would park the main thread in dispatch_main(), which ends it with pthread_exit: that unwinds the
    /// thread's stack, and libgcc's unwinder then reads the binary's unwind tables, ~0.4 MiB of resident memory
    /// for every command (docs/benchmarks.md). Only dispatch_main() would serve the main queue and the main actor,
    /// and nothing in gstcam runs on them.
    package static func start(_ words: [String], serve: any Command.Type) -> Never {
        Task.detached { await run(words, serve: serve) }
        while true { pause() }
    }

    /// Runs the command `words` (the arguments after argv[0]) name and exits with its status. Call
    /// `Interrupt.install()` first.
    package static func run(_ words: [String], serve: any Command.Type) async -> Never {
        let commands = Commands(serve: serve)
        var words = words
        guard let first = words.first else {
            Standard.error.write(overview(commands) + "\n")
            exit(ExitStatus.usage.rawValue)
        }
        words.removeFirst()

        switch first {
        case "--version", "version":
            guard words.isEmpty || words == ["--json"] else { fail("\(first) takes no arguments but --json", status: .usage) }
            printVersion(json: !words.isEmpty)
            exit(0)
        case "-h", "--help":
            print(overview(commands))
            exit(0)
        case "help":
            guard let name = words.first else { print(overview(commands)); exit(0) }
            if name == "version" || name == "--version" {
                print("OVERVIEW: Print gstcam's version and the GStreamer version in use.\n\nUSAGE: gstcam --version [--json]\n       gstcam version [--json]")
                exit(0)
            }
            guard let command = commands.named(name) else { fail("no command named \"\(name)\"; run gstcam --help", status: .usage) }
            printHelp(for: command)
            exit(0)
        default:
            guard let command = commands.named(first) else {
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
    }

    private static func overview(_ commands: Commands) -> String {
        """
        OVERVIEW: gstcam — photos and live preview from V4L2 cameras, built on GStreamer.

        USAGE: gstcam <command> [options]

        COMMANDS:
        \(commands.all.map { "  " + $0.name + String(repeating: " ", count: max(1, 10 - $0.name.count)) + $0.summary }.joined(separator: "\n"))
          help      Show help for a command: gstcam help <command>
          version   Print gstcam's version and the GStreamer version in use (also --version; --json)

        Run `gstcam <command> --help` for a command's options.
        """
    }

    private static func printHelp(for command: any Command.Type) {
        print("OVERVIEW: \(command.summary)\n\n\(command.usage)")
    }

    private static func printVersion(json: Bool) {
        if json {
            print(JSONOutput.line(VersionRecord(version: GstCameraVersion.string, gstreamer: GstCameraVersion.gstreamerNumber)))
        } else {
            print("gstcam \(GstCameraVersion.string)\n\(GstCameraVersion.gstreamer)")
        }
    }

    private static func fail(_ message: String, status: ExitStatus) -> Never {
        Standard.error.write("gstcam: \(message)\n")
        exit(status.rawValue)
    }
}
