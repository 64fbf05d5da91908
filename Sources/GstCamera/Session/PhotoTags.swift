import CGStreamer

/// What a photo says about itself in its EXIF block: when, with which camera, by which program, at which zoom.
struct PhotoTags: Sendable, Equatable {
    /// The camera's card name, e.g. "Logitech BRIO"; its first word becomes the EXIF Make.
    var cameraName: String?
    var zoomFactor: Double
    var software = "gstcam"

    /// Sets the tags on a GstTagSetter element such as jifmux (EXIF DateTimeOriginal, Make, Model, Software,
    /// DigitalZoomRatio).
    func apply(to tagger: Element) {
        guard gstcam_is_tag_setter(tagger.pointer) != 0 else { return }
        if let now = gst_date_time_new_now_local_time() {
            gstcam_tag_setter_add_date_time(tagger.pointer, "datetime", now)
            gst_date_time_unref(now)
        }
        gstcam_tag_setter_add_string(tagger.pointer, "application-name", software)
        if let cameraName, !cameraName.isEmpty {
            let make = cameraName.split(separator: " ").first.map(String.init) ?? cameraName
            gstcam_tag_setter_add_string(tagger.pointer, "device-manufacturer", make)
            gstcam_tag_setter_add_string(tagger.pointer, "device-model", cameraName)
        }
        gstcam_tag_setter_add_double(tagger.pointer, "capturing-digital-zoom-ratio", zoomFactor)
    }
}
