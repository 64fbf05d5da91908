import CGStreamer
import CameraErrors
import GStreamer

/// Checks, right after a pipeline file is parsed, that the elements the session looks up by name are of the
/// kind it needs (pipelines/README.md, "The contract"), so a mistake is reported against the user's file —
/// not later against a branch file that merely failed to attach to it.
public enum PipelineContract {
    /// `split` must be a tee: the photo and window branches each ask it for a new source pad.
    public static func checkSplit(_ split: Element, file: String) throws {
        let factory = factoryName(of: split)
        guard factory == "tee" else {
            let kind = factory.map { "a \($0)" } ?? "not a tee"
            throw CameraError.badPipelineFile(file: file, detail: "the element named \"split\" is \(kind), but it must be a tee "
                + "(… ! tee name=split  split. ! queue ! … ! appsink name=preview); see pipelines/README.md")
        }
    }

    /// An element the code uses as an appsink (named `name` in `file`) must be one.
    public static func checkAppSink(_ element: Element, name: String, file: String) throws {
        guard gstcam_is_app_sink(element.pointer) != 0 else {
            throw CameraError.badPipelineFile(file: file, detail: "the element named \"\(name)\" must be an appsink")
        }
    }

    /// A branch file that starts with an unlinked sink pad and ends in an appsink named `sinkName` (the photo,
    /// network and scan branches), parsed with `parameters`: its bin, that appsink, and the bin's input pad.
    /// `purpose` says what the appsink receives, for the error when it is missing. `inputCaps`: what the branch
    /// will be fed, if known (it only makes parsing cheaper: `PipelineParser.parseBin(_:file:inputCaps:)`).
    /// `front`, when given, is parsed in front of the file's first element (e.g. photo-stamp.branch).
    public static func appSinkBranch(_ file: PipelineFile, parameters: [String: String], sinkName: String,
                                     purpose: String, inputCaps: String? = nil,
                                     front: PipelineFile? = nil) throws -> (bin: Element, sink: Element, input: Pad) {
        let description = try file.description(with: parameters)
        let bin = try PipelineParser.parseBin(try front.map { try $0.description(with: [:]) + " ! " + description } ?? description,
                                              file: front.map { "\($0.path) in front of \(file.path)" } ?? file.path,
                                              inputCaps: inputCaps)
        guard let sink = bin.child(named: sinkName) else {
            throw CameraError.missingPipelineElement(file: file.path, name: sinkName, purpose: purpose)
        }
        try checkAppSink(sink, name: sinkName, file: file.path)
        guard let input = bin.staticPad("sink") else {
            throw CameraError.badPipelineFile(file: file.path, detail: "the branch must start with an unlinked sink pad and end in \(sinkName)")
        }
        return (bin, sink, input)
    }

    /// The factory an element was made by ("tee", "videocrop"), nil for one made without a factory.
    static func factoryName(of element: Element) -> String? {
        guard let factory = gst_element_get_factory(element.pointer),
              let name = gst_object_get_name(UnsafeMutableRawPointer(factory).assumingMemoryBound(to: GstObject.self)) else { return nil }
        defer { g_free(name) }
        return String(cString: name)
    }
}
