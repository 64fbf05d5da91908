/// The camera screen cannot run the way it was asked (e.g. `--sink terminal` without a terminal): the caller's
/// mistake rather than the camera's, so the CLI treats it as a usage error (exit status 64).
public struct ScreenRequestError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
