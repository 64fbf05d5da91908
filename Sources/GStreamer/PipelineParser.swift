import CGStreamer
import CameraErrors

/// gst_parse_launch and gst_parse_bin_from_description with their failures as CameraErrors that name the file.
public enum PipelineParser {
    /// A whole pipeline (a description with several chains, such as `… ! tee name=split  split. ! …`).
    public static func parsePipeline(_ description: String, file: String) throws -> Element {
        let element = try parse(description, file: file) { context, error in
            gst_parse_launch_full(description, context, GST_PARSE_FLAG_FATAL_ERRORS, &error)
        }
        guard gst_is_pipeline(element.pointer) else {
            throw CameraError.badPipelineFile(file: file, detail: "the description is a single element, not a pipeline")
        }
        return element
    }

    /// A bin whose unlinked end pads become ghost pads ("sink", "src"), for branches added at run time.
    ///
    /// `inputCaps`, what the branch will be fed when known ("video/x-raw,format=YUY2"), only makes parsing cheaper.
    /// GStreamer checks each link it parses with caps queries that run up the part of the chain already linked,
    /// which at a branch's open end is unconstrained: every videoscale, videoconvert and textoverlay on the way
    /// multiplies every format it takes by every other, again for each later link. Parsed behind a capsfilter
    /// with those caps, display.branch costs 2.9 ms of CPU to parse instead of 8.8 (scripts/parse-timing).
    /// The capsfilter is taken out again, so the bin takes what it would have taken without it; should the
    /// branch refuse those caps at parse time, it is parsed again without them, failing as it would have.
    public static func parseBin(_ description: String, file: String, inputCaps: String? = nil) throws -> Element {
        if let inputCaps, let bin = try? parseBin(description, file: file, behind: inputCaps) { return bin }
        return try parse(description, file: file) { context, error in
            gst_parse_bin_from_description_full(description, 1, context, GST_PARSE_FLAG_FATAL_ERRORS, &error)
        }
    }

    /// `value` escaped for the inside of a double-quoted string of a description (its backslashes and quotes).
    public static func escapedForQuotes(_ value: String) -> String {
        value.flatMap { $0 == "\\" || $0 == "\"" ? ["\\", $0] : [$0] }.map(String.init).joined()
    }

    /// The name of the capsfilter `parseBin(_:file:inputCaps:)` parses a branch behind.
    static let parseInputName = "gstcam-parse-input"

    private static func parseBin(_ description: String, file: String, behind inputCaps: String) throws -> Element? {
        let fed = "capsfilter name=\(parseInputName) caps=\"\(escapedForQuotes(inputCaps))\" ! \(description)"
        let bin = try parse(fed, file: file) { context, error in
            gst_parse_bin_from_description_full(fed, 1, context, GST_PARSE_FLAG_FATAL_ERRORS, &error)
        }
        guard let filter = bin.child(named: parseInputName), let filterInput = filter.staticPad("sink"),
              let start = filter.staticPad("src")?.peer else { return nil }
        let ghost = bin.staticPad("sink")
        let ghostedFilter = ghost.map { gstcam_ghost_pad_targets($0.pointer, filterInput.pointer) != 0 } ?? false
        guard bin.remove(filter) else { return nil }
        if let ghost, ghostedFilter, gstcam_ghost_pad_set_target(ghost.pointer, start.pointer) == 0 { return nil }
        return bin
    }

    private static func parse(
        _ description: String, file: String,
        _ call: (OpaquePointer?, inout UnsafeMutablePointer<GError>?) -> UnsafeMutablePointer<GstElement>?
    ) throws -> Element {
        GStreamerRuntime.ensureInitialized()
        let context = gst_parse_context_new()
        defer { gst_parse_context_free(context) }
        var error: UnsafeMutablePointer<GError>?
        let element = call(context, &error)
        if let error {
            defer { g_error_free(error) }
            if let element { gst_object_unref(element) }
            let missing = missingFactories(context)
            if let reason = notAPipeline(description, missing: missing) {
                throw CameraError.badPipelineFile(file: file, detail: "this is not a GStreamer pipeline description: \(reason); "
                    + "see pipelines/README.md for the syntax")
            }
            if let missing = missing.first {
                throw CameraError.missingElement(factory: missing, package: ElementPackages.package(for: missing), file: file)
            }
            let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
            throw CameraError.badPipelineFile(file: file, detail: "GStreamer cannot parse it: \(message)")
        }
        guard let element else {
            throw CameraError.badPipelineFile(file: file, detail: "GStreamer returned no pipeline")
        }
        return Element(owning: element)
    }

    /// Why a description that failed to parse is not a pipeline at all (a text file, /etc/passwd), so that its
    /// first word is not reported as an element to install; nil when it looks like one with a real mistake.
    static func notAPipeline(_ description: String, missing: [String]) -> String? {
        if !description.contains("!") {
            return "no \"!\" links one element to the next"
        }
        let factoryCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
        if let word = missing.first(where: { !$0.allSatisfy(factoryCharacters.contains) || $0.first?.isNumber == true }) {
            let shown = word.count > 40 ? String(word.prefix(40)) + "…" : word
            return "\"\(shown.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? "?" : String($0) }.joined())\" is not an element name"
        }
        return nil
    }

    private static func missingFactories(_ context: OpaquePointer?) -> [String] {
        guard let list = gst_parse_context_get_missing_elements(context) else { return [] }
        defer { g_strfreev(list) }
        var names: [String] = []
        var index = 0
        while let name = list[index] {
            names.append(String(cString: name))
            index += 1
        }
        return names
    }
}

private func gst_is_pipeline(_ element: UnsafeMutablePointer<GstElement>) -> Bool {
    g_type_check_instance_is_a(UnsafeMutableRawPointer(element).assumingMemoryBound(to: GTypeInstance.self),
                               gst_pipeline_get_type()) != 0
}
