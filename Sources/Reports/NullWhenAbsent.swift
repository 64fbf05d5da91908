/// An optional field that is written as `null` when absent instead of being left out (what synthesized
/// `Encodable` does), so every record of a kind has every key and scripts can read them without checking.
@propertyWrapper
public struct NullWhenAbsent<Value: Encodable & Equatable>: Encodable, Equatable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}
