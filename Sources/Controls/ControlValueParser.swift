import CameraErrors
import V4L2
/// Turns what a person typed after `NAME=` into the value to write, checking it against the control's range:
/// a number ("128", "-3", "0x1f"), a percentage of the range ("60%"), a menu item by name or index
/// ("manual_mode", "Manual Mode", "1"), true/false/on/off/yes/no for booleans, "left,top,WxH" for rectangles,
/// numbers separated by spaces or commas for arrays (one number sets every element).
/// What the person typed appears in errors with control characters escaped.
enum ControlValueParser {
    static func parse(_ text: String, for control: CameraControl) throws(CameraError) -> ControlValue {
        let trimmed = text.trimmingWhitespace
        let shown = PrintableText.escaping(text)
        if control.isArray { return .array(try array(trimmed, shown: shown, for: control)) }
        switch control.type {
        case .string:
            let length = Int64(text.utf8.count)
            let step = Int64(clamping: max(control.step, 1))
            guard length >= control.minimum && length <= control.maximum && (length - control.minimum) % step == 0 else {
                let steps = step > 1 ? " in steps of \(step)" : ""
                throw .controlBadValue(name: control.name, value: shown,
                                       expected: "text of \(control.minimum)…\(control.maximum) bytes\(steps)")
            }
            return .string(text)
        case .button:
            return .integer(1)  // any write presses a button
        case .boolean:
            switch trimmed.lowercased() {
            case "1", "true", "on", "yes": return .integer(1)
            case "0", "false", "off", "no": return .integer(0)
            default: throw .controlBadValue(name: control.name, value: shown, expected: "true or false (on/off, 1/0)")
            }
        case .menu, .integerMenu:
            return .integer(try menuIndex(trimmed, shown: shown, for: control))
        case .area:
            let parts = trimmed.lowercased().split(separator: "x").map { $0.trimmingWhitespace }
            guard parts.count == 2, let width = UInt32(parts[0]), let height = UInt32(parts[1]) else {
                throw .controlBadValue(name: control.name, value: shown, expected: "WIDTHxHEIGHT (e.g. 1000x2000)")
            }
            return .area(ControlArea(width: width, height: height))
        case .rectangle:
            guard let rectangle = rectangle(trimmed) else {
                throw .controlBadValue(name: control.name, value: shown, expected: "left,top,WIDTHxHEIGHT (e.g. 0,0,640x480)")
            }
            return .rectangle(rectangle)
        case .bitmask:
            guard let number = integer(trimmed), number >= 0, number <= UInt32.max else {
                throw .controlBadValue(name: control.name, value: shown, expected: "a bit mask such as 0x9")
            }
            // A bitmask's maximum is the set of bits it has, not the top of a range.
            let outside = UInt64(number) & ~UInt64(control.maximum)
            guard outside == 0 else {
                throw .controlBadValue(name: control.name, value: shown,
                                       expected: "bits of the mask \(CameraControl.bitmaskText(control.maximum)) only "
                                           + "(\(CameraControl.bitmaskText(Int64(outside))) is not in it)")
            }
            return .integer(number)
        default:
            guard control.acceptsPercentage || control.type == .integer || control.type == .integer64 else {
                throw .controlBadValue(name: control.name, value: shown, expected: "no value: gstcam cannot set \(control.type) controls")
            }
            if trimmed.hasSuffix("%") {
                guard let percent = Double(trimmed.dropLast().trimmingWhitespace), percent.isFinite else {
                    throw .controlBadValue(name: control.name, value: shown, expected: "a percentage such as 60%")
                }
                guard (0...100).contains(percent) else {
                    throw .controlOutOfRange(name: control.name, value: shown, minimum: control.minimum,
                                             maximum: control.maximum, step: Int64(clamping: control.step))
                }
                return .integer(value(atPercent: percent, minimum: control.minimum, maximum: control.maximum, step: control.step))
            }
            guard let number = integer(trimmed) else {
                if isWholeNumber(trimmed) {   // beyond Int64, so beyond any control's range
                    throw .controlOutOfRange(name: control.name, value: shown, minimum: control.minimum,
                                             maximum: control.maximum, step: Int64(clamping: control.step))
                }
                throw .controlBadValue(name: control.name, value: shown,
                                       expected: "a whole number in \(control.minimum)…\(control.maximum) or a percentage such as 60%")
            }
            guard number >= control.minimum && number <= control.maximum else {
                throw .controlOutOfRange(name: control.name, value: shown, minimum: control.minimum,
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
        // Int64(Double) traps beyond ±2^63: the ends of a 64-bit range are returned exactly.
        if result >= Double(maximum) { return maximum }
        if result <= Double(minimum) { return minimum }
        return Int64(result)
    }

    /// Digits with an optional sign (or 0x and hex digits), whatever their size.
    static func isWholeNumber(_ text: String) -> Bool {
        var digits = Substring(text.lowercased())
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        let hex = digits.hasPrefix("0x")
        if hex { digits = digits.dropFirst(2) }
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && (hex ? $0.isHexDigit : $0.isNumber) }
    }

    /// Decimal with an optional sign, or hexadecimal with 0x.
    static func integer(_ text: String) -> Int64? {
        let lower = text.lowercased()
        if lower.hasPrefix("0x") { return Int64(lower.dropFirst(2), radix: 16) }
        if lower.hasPrefix("-0x") { return Int64(lower.dropFirst(3), radix: 16).map { -$0 } }
        return Int64(lower.hasPrefix("+") ? String(lower.dropFirst()) : lower)
    }

    /// A menu item by name (compared as control names are: "Manual Mode" = "manual_mode" = "manual mode"), by
    /// index, or — for integer menus — by the item's number. A number that is no item (a menu may have holes:
    /// auto_exposure often has only 1 and 3) is refused with the items it has.
    static func menuIndex(_ text: String, shown: String? = nil, for control: CameraControl) throws(CameraError) -> Int64 {
        let shown = shown ?? PrintableText.escaping(text)
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
            throw notMenuItem(shown, for: control)
        }
        let choices = control.menu.map { "\(ControlName.from(label: $0.name)) (\($0.index))" }.joined(separator: ", ")
        throw .controlBadValue(name: control.name, value: shown, expected: "one of: \(choices)")
    }

    /// The error for a number that selects no item of the menu, listing the items there are.
    static func notMenuItem(_ shown: String, for control: CameraControl) -> CameraError {
        .controlNotMenuItem(name: control.name, value: shown,
                            items: control.menu.map { "\($0.index) \(PrintableText.escaping($0.name))" })
    }

    /// An array control's elements: one number for every element, or as many numbers as it has elements
    /// (separated by spaces or commas, brackets ignored), each in the control's range.
    static func array(_ text: String, shown: String, for control: CameraControl) throws(CameraError) -> ControlArray {
        let count = control.elementCount
        if text.hasSuffix("%"), let percent = Double(text.dropLast().trimmingWhitespace), percent.isFinite {
            guard (0...100).contains(percent) else {
                throw .controlOutOfRange(name: control.name, value: shown, minimum: control.minimum,
                                         maximum: control.maximum, step: Int64(clamping: control.step))
            }
            let number = value(atPercent: percent, minimum: control.minimum, maximum: control.maximum, step: control.step)
            return ControlArray(dimensions: control.dimensions.isEmpty ? [count] : control.dimensions,
                                elements: Array(repeating: number, count: count))
        }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "[" || $0 == "]" || $0 == "\t" })
        let numbers = words.compactMap { integer(String($0)) }
        guard !words.isEmpty, numbers.count == words.count, numbers.count == 1 || numbers.count == count else {
            throw .controlBadValue(name: control.name, value: shown,
                                   expected: "one number (or percentage) for all \(count) elements, or \(count) numbers "
                                       + "separated by spaces, each in \(control.minimum)…\(control.maximum)")
        }
        for number in numbers where number < control.minimum || number > control.maximum {
            throw .controlOutOfRange(name: control.name, value: numbers.count == 1 ? shown : String(number),
                                     minimum: control.minimum, maximum: control.maximum, step: Int64(clamping: control.step))
        }
        let dimensions = control.dimensions.isEmpty ? [count] : control.dimensions
        return ControlArray(dimensions: dimensions, elements: numbers.count == 1 ? Array(repeating: numbers[0], count: count) : numbers)
    }

    /// "left,top,WIDTHxHEIGHT" or "left,top,width,height".
    static func rectangle(_ text: String) -> ControlRectangle? {
        let parts = text.split(whereSeparator: { $0 == "," || $0 == "x" || $0 == "X" }).map { $0.trimmingWhitespace }
        guard parts.count == 4, let left = Int32(parts[0]), let top = Int32(parts[1]),
              let width = UInt32(parts[2]), let height = UInt32(parts[3]) else { return nil }
        return ControlRectangle(left: left, top: top, width: width, height: height)
    }
}
