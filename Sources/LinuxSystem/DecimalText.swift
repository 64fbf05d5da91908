extension Double {
    /// The number with `digits` digits after the point ("2.5", "0.0", "12.35"), for figures in messages: what
    /// printf's "%.Nf" writes, without Foundation's `String(format:)`.
    public func decimalText(digits: Int) -> String {
        guard isFinite, digits >= 0 else { return "\(self)" }
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let units = Int64((abs(self) * Double(scale)).rounded())
        let fraction = String(units % scale)
        let sign = self < 0 && units != 0 ? "-" : ""
        guard digits > 0 else { return sign + String(units) }
        return sign + String(units / scale) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
}

extension BinaryInteger {
    /// The number in at least `width` digits, zeros in front ("07"): printf's "%0Nd" for numbers of 0 or more.
    public func zeroPadded(width: Int) -> String {
        let digits = String(self)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
