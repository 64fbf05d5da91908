import CGStreamer

/// Hands each sample of an appsink to a Swift closure on the streaming thread.
public enum AppSink {
    /// Installs `onSample` as the appsink's new-sample callback. The closure gets the pulled sample,
    /// borrowed for the call; it must copy what it keeps and must not throw into C.
    public static func setSampleHandler(_ sink: Element, _ onSample: @escaping @Sendable (OpaquePointer) -> Void) {
        var callbacks = GstAppSinkCallbacks()
        callbacks.new_sample = { sink, context in
            guard let sink, let context else { return GST_FLOW_OK }
            guard let sample = gst_app_sink_pull_sample(sink) else { return GST_FLOW_EOS }
            defer { gst_sample_unref(sample) }
            Unmanaged<SampleHandler>.fromOpaque(context).takeUnretainedValue().body(sample)
            return GST_FLOW_OK
        }
        let box = Unmanaged.passRetained(SampleHandler(onSample)).toOpaque()
        gst_app_sink_set_callbacks(gstcam_as_app_sink(sink.pointer), &callbacks, box) { context in
            guard let context else { return }
            Unmanaged<SampleHandler>.fromOpaque(context).release()
        }
    }
}

extension AppSink {
    /// Hands every sample of the appsink `sink` to the appsrc `source` (of another pipeline, e.g. a decoder that
    /// posts on a bus of its own), on the streaming thread.
    public static func forwardSamples(of sink: Element, to source: Element) {
        setSampleHandler(sink) { sample in _ = gstcam_app_src_push_sample(source.pointer, sample) }
    }
}

private final class SampleHandler: Sendable {
    let body: @Sendable (OpaquePointer) -> Void
    init(_ body: @escaping @Sendable (OpaquePointer) -> Void) { self.body = body }
}
