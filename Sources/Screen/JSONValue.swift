import FoundationEssentials

/// One JSON value of the camera screen's line protocol (RemoteProtocol.swift), read and written with
/// FoundationEssentials' JSONDecoder/JSONEncoder: full Foundation's JSONSerialization would link CoreFoundation
/// and ICU into gstcam (3.6 MB more peak memory for every command, issue 13).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public var string: String? { if case let .string(text) = self { text } else { nil } }
    public var bool: Bool? { if case let .bool(flag) = self { flag } else { nil } }
    public var double: Double? { if case let .number(number) = self { number } else { nil } }
    /// The number, when it is a whole one.
    public var int: Int? { double.flatMap { Int(exactly: $0) } }
    public var int64: Int64? { double.flatMap { Int64(exactly: $0) } }
    public var array: [JSONValue]? { if case let .array(items) = self { items } else { nil } }
    public var object: [String: JSONValue]? { if case let .object(fields) = self { fields } else { nil } }

    /// A value that may be missing: JSON's null for nil.
    public static func optional<T: JSONRepresentable>(_ value: T?) -> JSONValue { value?.json ?? .null }

    /// The object a line holds, nil when the line is not one JSON object.
    static func object(parsing line: String) -> [String: JSONValue]? {
        (try? JSONDecoder().decode(JSONValue.self, from: Data(line.utf8)))?.object
    }

    /// The object on one line: keys sorted (stable replies), slashes as they are.
    static func line(_ object: [String: JSONValue]) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(JSONValue.object(object))).map { String(decoding: $0, as: UTF8.self) }
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let items = try? container.decode([JSONValue].self) {
            self = .array(items)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case let .bool(flag): try container.encode(flag)
        case let .number(number): try container.encode(number)  // JSONEncoder writes whole ones as integers: "width":1280
        case let .string(text): try container.encode(text)
        case let .array(items): try container.encode(items)
        case let .object(fields): try container.encode(fields)
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(Dictionary(elements) { _, last in last }) }
    public init(nilLiteral: ()) { self = .null }
}

/// A Swift value with a JSON form.
public protocol JSONRepresentable {
    var json: JSONValue { get }
}

extension String: JSONRepresentable { public var json: JSONValue { .string(self) } }
extension Bool: JSONRepresentable { public var json: JSONValue { .bool(self) } }
extension Double: JSONRepresentable { public var json: JSONValue { .number(self) } }
extension Int: JSONRepresentable { public var json: JSONValue { .number(Double(self)) } }
extension Int64: JSONRepresentable { public var json: JSONValue { .number(Double(self)) } }
extension Array: JSONRepresentable where Element: JSONRepresentable { public var json: JSONValue { .array(map(\.json)) } }
