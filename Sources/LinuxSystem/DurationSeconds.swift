extension Duration {
    /// The duration in seconds as a floating-point number (for messages and arithmetic on rates).
    public var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
