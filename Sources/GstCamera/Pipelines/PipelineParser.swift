import CGStreamer

/// gst_parse_launch and gst_parse_bin_from_description with their failures as CameraErrors that name the file.
enum PipelineParser {
    /// A whole pipeline (a description with several chains, such as `… ! tee name=split  split. ! …`).
    static func parsePipeline(_ description: String, file: String) throws -> Element {
        let element = try parse(file: file) { context, error in
            gst_parse_launch_full(description, context, GST_PARSE_FLAG_FATAL_ERRORS, &error)
        }
        guard gst_is_pipeline(element.pointer) else {
            throw CameraError.badPipelineFile(file: file, detail: "the description is a single element, not a pipeline")
        }
        return element
    }

    /// A bin whose unlinked end pads become ghost pads ("sink", "src"), for branches added at run time.
    static func parseBin(_ description: String, file: String) throws -> Element {
        try parse(file: file) { context, error in
            gst_parse_bin_from_description_full(description, 1, context, GST_PARSE_FLAG_FATAL_ERRORS, &error)
        }
    }

    private static func parse(
        file: String,
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
            if let missing = missingFactories(context).first {
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
