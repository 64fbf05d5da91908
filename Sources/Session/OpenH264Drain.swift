import CGStreamer
import GStreamer

/// openh264enc (GStreamer 1.22) drains itself at EOS by asking OpenH264 to encode no picture, which OpenH264 refuses
/// with "[OpenH264] … Error:CWelsH264SVCEncoder::EncodeFrame(), cmInitParaError." on stderr: at the end of every
/// recording, though nothing went wrong. Nothing is left to drain: OpenH264 encodes each frame as it is given (no
/// B-frames, no look-ahead), so by the time EOS reaches the encoder every frame has left it. The EOS is sent on
/// from the encoder's output instead of into it.
enum OpenH264Drain {
    static func skip(in encoder: Element) {
        guard encoder.factoryName == "openh264enc", let input = encoder.staticPad("sink"),
              let output = encoder.staticPad("src") else { return }
        input.addProbe(GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) { data in
            guard data.eventType == GST_EVENT_EOS else { return GST_PAD_PROBE_OK }
            // On the streaming thread that feeds the encoder, after its last frame: the encoder is idle.
            _ = gst_pad_push_event(output.pointer, gst_event_new_eos())
            return GST_PAD_PROBE_DROP
        }
    }
}
