/// Turns what a person typed after `NAME=` into the value to write, checking it against the control's range:
/// a number ("128", "-3", "0x1f"), a percentage of the range ("60%"), a menu item by name or index
/// ("manual_mode", "Manual Mode", "1"), true/false/on/off/yes/no for booleans, "left,top,WxH" for rectangles.
enum ControlValueParser {
    static func parse(_ text: String, for control: CameraControl) throws(CameraError) -> ControlValue {
        let trimmed = text.trimmingWhitespace
        switch control.type {
        case .string:
            let length = Int64(text.utf8.count)
            guard length >= control.minimum && length <= control.maximum else {
                throw .controlBadValue(name: control.name, value: text,
                                       expected: "text of \(control.minimum)…\(control.maximum) bytes")
            }
            return .string(text)
        case .button:
            return .integer(1)  // any write presses a button
        case .boolean:
            switch trimmed.lowercased() {
            case "1", "true", "on", "yes": return .integer(1)
            case "0", "false", "off", "no": return .integer(0)
            default: throw .controlBadValue(name: control.name, value: text, expected: "true or false (on/off, 1/0)")
            }
        case .menu, .integerMenu:
            return .integer(try menuIndex(trimmed, for: control))
        case .rectangle:
            guard let rectangle = rectangle(trimmed) else {
                throw .controlBadValue(name: control.name, value: text, expected: "left,top,WIDTHxHEIGHT (e.g. 0,0,640x480)")
            }
            return .rectangle(rectangle)
        case .bitmask:
            guard let number = integer(trimmed), number >= 0, number <= UInt32.max else {
                throw .controlBadValue(name: control.name, value: text, expected: "a bit mask such as 0x9")
            }
            guard UInt64(number) & ~UInt64(control.maximum) == 0 else {
                throw .controlOutOfRange(name: control.name, value: text, minimum: 0, maximum: control.maximum, step: 1)
            }
            return .integer(number)
        default:
            guard control.acceptsPercentage || control.type == .integer || control.type == .integer64 else {
                throw .controlBadValue(name: control.name, value: text, expected: "no value: gstcam cannot set \(control.type) controls")
            }
            if trimmed.hasSuffix("%") {
                guard let percent = Double(trimmed.dropLast().trimmingWhitespace), percent.isFinite else {
                    throw .controlBadValue(name: control.name, value: text, expected: "a percentage such as 60%")
                }
                guard (0...100).contains(percent) else {
                    throw .controlOutOfRange(name: control.name, value: text, minimum: control.minimum,
                                             maximum: control.maximum, step: Int64(clamping: control.step))
                }
                return .integer(value(atPercent: percent, minimum: control.minimum, maximum: control.maximum, step: control.step))
            }
            guard let number = integer(trimmed) else {
                throw .controlBadValue(name: control.name, value: text,
                                       expected: "a whole number in \(control.minimum)…\(control.maximum) or a percentage such as 60%")
            }
            guard number >= control.minimum && number <= control.maximum else {
                throw .controlOutOfRange(name: control.name, value: text, minimum: control.minimum,
                                         maximum: control.maximum, step: Int64(clamping: control.step))
            }
            return .integer(number)
        }
    }

    /// The value `percent` of the way from `minimum` to `maximum`, on the control's step grid (counted from
    /// `minimum`, as drivers do), rounded to the nearest step and never past `maximum`.
    /// Brightness 0…255 step 1 at 60% → 153; 50% of -64…64 → 0.
    static func value(atPercent percent: Double, minimum: Int64, maximum: Int64, step: UInt64) -> Int64 {
        let step = Double(max(step, 1))
        let span = Double(maximum) - Double(minimum)
        let steps = (span * percent / 100 / step).rounded()
        var result = Double(minimum) + steps * step
        if result > Double(maximum) { result -= step }
        return Int64(max(Double(minimum), min(Double(maximum), result)))
    }

    /// Decimal with an optional sign, or hexadecimal with 0x.
    static func integer(_ text: String) -> Int64? {
        let lower = text.lowercased()
        if lower.hasPrefix("0x") { return Int64(lower.dropFirst(2), radix: 16) }
        if lower.hasPrefix("-0x") { return Int64(lower.dropFirst(3), radix: 16).map { -$0 } }
        return Int64(lower.hasPrefix("+") ? String(lower.dropFirst()) : lower)
    }

    /// A menu item by name (compared as control names are: "Manual Mode" = "manual_mode" = "manual mode"), by
    /// index, or — for integer menus — by the item's number.
    static func menuIndex(_ text: String, for control: CameraControl) throws(CameraError) -> Int64 {
        let wanted = ControlName.from(label: text)
        if let item = control.menu.first(where: { ControlName.from(label: $0.name) == wanted && !wanted.isEmpty }) {
            return item.index
        }
        if control.type == .integerMenu, let number = integer(text),
           let item = control.menu.first(where: { $0.name == String(number) }) {
            return item.index
        }
        if let number = integer(text) {
            if control.menu.contains(where: { $0.index == number }) { return number }
            throw .controlOutOfRange(name: control.name, value: text, minimum: control.minimum,
                                     maximum: control.maximum, step: 1)
        }
        let choices = control.menu.map { "\(ControlName.from(label: $0.name)) (\($0.index))" }.joined(separator: ", ")
        throw .controlBadValue(name: control.name, value: text, expected: "one of: \(choices)")
    }

    /// "left,top,WIDTHxHEIGHT" or "left,top,width,height".
    static func rectangle(_ text: String) -> ControlRectangle? {
        let parts = text.split(whereSeparator: { $0 == "," || $0 == "x" || $0 == "X" }).map { $0.trimmingWhitespace }
        guard parts.count == 4, let left = Int32(parts[0]), let top = Int32(parts[1]),
              let width = UInt32(parts[2]), let height = UInt32(parts[3]) else { return nil }
        return ControlRectangle(left: left, top: top, width: width, height: height)
    }
}
