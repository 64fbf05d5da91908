import V4L2
/// The JSON form of a control (`gstcam controls --json`, `gstcam get --json`), documented in docs/controls.md.
extension CameraControl: Encodable {
    private enum Keys: String, CodingKey {
        case name, label, id, type, minimum, maximum, step, `default`, value, menu, flags, `class`, dimensions
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(name, forKey: .name)
        try container.encode(label, forKey: .label)
        try container.encode(hexID, forKey: .id)
        try container.encode(type.description, forKey: .type)
        try container.encode(minimum, forKey: .minimum)
        try container.encode(maximum, forKey: .maximum)
        try container.encode(step, forKey: .step)
        try container.encode(defaultValue, forKey: .default)
        try container.encode(value, forKey: .value)
        try container.encode(menu, forKey: .menu)
        try container.encode(flags.names, forKey: .flags)
        try container.encode(className, forKey: .class)
        try container.encodeIfPresent(dimensions.isEmpty ? nil : dimensions, forKey: .dimensions)
    }

    /// The id as v4l2-ctl prints it: "0x00980900".
    public var hexID: String {
        let digits = String(id, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}

extension ControlValue: Encodable {
    /// Numbers as JSON numbers, strings as strings, rectangles as {left, top, width, height}, arrays as nested
    /// arrays of numbers (one level per dimension), bytes as an array.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case let .integer(number):
            var container = encoder.singleValueContainer()
            try container.encode(number)
        case let .string(text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case let .rectangle(rectangle):
            try rectangle.encode(to: encoder)
        case let .area(area):
            try area.encode(to: encoder)
        case let .array(array):
            try NestedElements(elements: array.elements[...], dimensions: array.dimensions[...]).encode(to: encoder)
        case let .bytes(bytes):
            var container = encoder.singleValueContainer()
            try container.encode(bytes)
        }
    }
}

/// An array control's elements nested by its dimensions: [8][16] becomes 8 arrays of 16 numbers.
private struct NestedElements: Encodable {
    var elements: ArraySlice<Int64>
    var dimensions: ArraySlice<Int>

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        guard let outer = dimensions.first, dimensions.count > 1 else {
            try container.encode(contentsOf: Array(elements))
            return
        }
        let inner = elements.count / max(outer, 1)
        for row in 0..<outer {
            let start = elements.startIndex + row * inner
            try container.encode(NestedElements(elements: elements[start..<min(start + inner, elements.endIndex)],
                                                 dimensions: dimensions.dropFirst()))
        }
    }
}
