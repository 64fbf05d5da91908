extension Duration {
    /// The duration in seconds as a floating-point number (for messages and arithmetic on rates).
    public var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }

    /// The duration in whole nanoseconds (GStreamer's clock times, dispatch timeouts).
    public var inNanoseconds: Int64 { components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000 }
}
