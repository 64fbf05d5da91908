/// One `gstcam` subcommand: its help text and how it runs. Each command lives in its own file and is
/// listed once in `Commands.all`.
package protocol Command: Sendable {
    /// The word after `gstcam`.
    static var name: String { get }
    /// One line for the overview.
    static var summary: String { get }
    /// USAGE and OPTIONS sections, printed by `gstcam help NAME` and `gstcam NAME --help`.
    static var usage: String { get }
    /// Runs the command; throws `UsageError` for bad arguments (exit 64) and anything else for failures (exit 1).
    static func run(_ arguments: inout Arguments) async throws
}

/// A mistake in how the command was called: printed to stderr with exit status 64 (EX_USAGE).
package struct UsageError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// The process exit statuses gstcam uses.
package enum ExitStatus: Int32 {
    case success = 0
    case failure = 1
    /// The user cancelled an interactive command (e.g. closed the picker).
    case cancelled = 2
    /// Stopped by Ctrl-C or SIGTERM (128 + SIGINT, as shells report it).
    case interrupted = 130
    case usage = 64
}

/// Raised by a command that has already printed what it needs to and only wants a given exit status.
package struct ExitRequest: Error {
    package let status: ExitStatus
    package init(status: ExitStatus) { self.status = status }
}
