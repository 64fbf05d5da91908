import FoundationEssentials

/// The one way gstcam prints JSON for scripts: `Encodable` records (this module), keys sorted, slashes as they
/// are. A line per record for streams of events (`line`), an indented document for whole answers (`document`).
public enum JSONOutput {
    /// One record as one line (photos of a burst, figures once a second, screen events).
    public static func line(_ record: some Encodable) -> String {
        encode(record, formatting: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// A whole answer, indented (`devices`, `controls`, `get`, `gallery`).
    public static func document(_ value: some Encodable) -> String {
        encode(value, formatting: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    private static func encode(_ value: some Encodable, formatting: JSONEncoder.OutputFormatting) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        // Every record here is plain data (strings, numbers, booleans, optionals): encoding cannot fail.
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "null"
    }
}
