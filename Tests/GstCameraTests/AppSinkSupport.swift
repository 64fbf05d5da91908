import CGStreamer
import Testing
import GStreamer

/// The next sample the appsink `sink` receives (within 5 s); the caller unrefs it.
private func nextSample(of sink: Element) throws -> OpaquePointer {
    try #require(gst_app_sink_try_pull_sample(gstcam_as_app_sink(sink.pointer), 5_000_000_000),
                 "no frame reached the appsink")
}

/// The bytes of the next frame the appsink `sink` receives (within 5 s), copied out of its buffer.
func nextFrameBytes(of sink: Element) throws -> [UInt8] {
    let sample = try nextSample(of: sink)
    defer { gst_sample_unref(sample) }
    let buffer = try #require(gst_sample_get_buffer(sample))
    var map = GstMapInfo()
    try #require(gstcam_buffer_map_read(buffer, &map) != 0)
    defer { gst_buffer_unmap(buffer, &map) }
    return Array(UnsafeRawBufferPointer(start: map.data, count: Int(map.size)))
}

/// The timestamp (running time) of the next frame the appsink `sink` receives (within 5 s).
func nextFrameTimestamp(of sink: Element) throws -> GstClockTime {
    let sample = try nextSample(of: sink)
    defer { gst_sample_unref(sample) }
    return gstcam_buffer_pts(gst_sample_get_buffer(sample))
}
