import Glibc
import LinuxSystem


/// Where `gstcam preview` shows the camera.
public enum PreviewOutput: Equatable, Sendable {
    /// A window made by a GStreamer video sink, with the camera screen drawn into it.
    case window(sink: String)
    /// Half-block characters in this terminal.
    case terminal
    /// Nothing shown: figures only.
    case none

    /// Sinks that open a window and so need a display that answers; other sinks (fakesink, kmssink, …) do not.
    static let x11Sinks: Set = ["ximagesink", "xvimagesink"]
    static let anyDisplaySinks: Set = ["autovideosink", "glimagesink", "gtksink", "gtkglsink"]

    /// `--sink` as given (a window sink only when its display answers), else a window when an X or Wayland
    /// display answers (the first of WindowSink's list that opens it), else the terminal when stdin and stdout
    /// are terminals, else figures only, except that a display that is set but does not answer is an error
    /// off a terminal: the user expected a window.
    public static func choose(sink: String?, environment: [String: String],
                       onTerminal: Bool = isatty(0) != 0 && isatty(1) != 0) throws -> PreviewOutput {
        switch sink {
        case "terminal": return .terminal
        case "none": return .none
        case let sink?:
            try requireDisplay(for: sink, environment: environment)
            return .window(sink: sink)
        case nil:
            switch DisplayCheck.check(environment) {
            case .noDisplay:
                return onTerminal ? .terminal : .none
            case let .answers(server):
                let problem: String
                switch WindowSink.choose(for: server) {
                case let .success(sink): return .window(sink: sink)
                case let .failure(failure):
                    problem = "no video sink could open a window on \(Self.describe(server)) (\(failure.reasons.joined(separator: "; ")))"
                }
                guard onTerminal else { throw DisplayUnavailable(problem: problem, sink: nil) }
                Standard.error.write("gstcam: \(problem); showing the camera in this terminal.\n")
                return .terminal
            case let outcome:
                let problem = outcome.problem ?? "the display does not answer"
                guard onTerminal else { throw DisplayUnavailable(problem: problem, sink: nil) }
                Standard.error.write("gstcam: \(problem); showing the camera in this terminal instead of a window.\n")
                return .terminal
            }
        }
    }

    private static func describe(_ server: DisplayServer) -> String {
        switch server {
        case let .x11(display): "DISPLAY=\(display)"
        case let .wayland(display): "WAYLAND_DISPLAY=\(display)"
        }
    }

    /// Throws when `sink` opens a window and its display does not answer (ximagesink would only say that it
    /// "refused the state change", autovideosink may crash).
    private static func requireDisplay(for sink: String, environment: [String: String]) throws {
        let outcome: DisplayCheck.Outcome
        if x11Sinks.contains(sink) {
            var x11Only = environment
            x11Only["WAYLAND_DISPLAY"] = nil
            outcome = DisplayCheck.check(x11Only)
        } else if sink == "waylandsink" {
            var waylandOnly = environment
            waylandOnly["DISPLAY"] = nil
            outcome = DisplayCheck.check(waylandOnly)
        } else if anyDisplaySinks.contains(sink) {
            outcome = DisplayCheck.check(environment)
        } else {
            return
        }
        switch outcome {
        case .answers: return
        case .noDisplay:
            throw DisplayUnavailable(problem: sink == "waylandsink" ? "WAYLAND_DISPLAY is not set" : "DISPLAY is not set", sink: sink)
        case .silent:
            throw DisplayUnavailable(problem: outcome.problem ?? "the display does not answer", sink: sink)
        }
    }
}

/// No window can be opened: which display, why, and what to do.
struct DisplayUnavailable: Error, CustomStringConvertible {
    let problem: String
    /// The sink asked for with --sink, if any.
    let sink: String?

    var description: String {
        (sink.map { "--sink \($0) cannot open a window: " } ?? "no window can be opened: ") + problem
            + ". Start the display server or point DISPLAY (or WAYLAND_DISPLAY) at one that runs; or show the camera "
            + "in a terminal (--sink terminal) or not at all (--sink none)."
    }
}
