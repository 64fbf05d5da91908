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

    /// The factory an element was made by ("tee", "videocrop"), nil for one made without a factory.
    static func factoryName(of element: Element) -> String? {
        guard let factory = gst_element_get_factory(element.pointer),
              let name = gst_object_get_name(UnsafeMutableRawPointer(factory).assumingMemoryBound(to: GstObject.self)) else { return nil }
        defer { g_free(name) }
        return String(cString: name)
    }
}
