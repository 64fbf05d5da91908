import CGStreamer
import GStreamer

/// What a photo says about itself in its EXIF block: when, with which camera, by which program, at which zoom.
struct PhotoTags: Sendable, Equatable {
    /// The camera's card name, e.g. "Logitech BRIO" (EXIF Model).
    var cameraName: String?
    /// Who made it, where the camera says (EXIF Make; see CameraManufacturer).
    var manufacturer: String?
    /// The digital part of the zoom: what cropping did to the picture (an optical zoom is the lens's).
    var digitalZoom: Double
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
        if let manufacturer { gstcam_tag_setter_add_string(tagger.pointer, "device-manufacturer", manufacturer) }
        if let cameraName, !cameraName.isEmpty {
            gstcam_tag_setter_add_string(tagger.pointer, "device-model", cameraName)
        }
        gstcam_tag_setter_add_double(tagger.pointer, "capturing-digital-zoom-ratio", digitalZoom)
    }
}

extension CameraSession.Pipeline {
    /// What a photo from this pipeline's camera, at `zoom`, says about itself.
    func photoTags(zoom: Zoom) -> PhotoTags {
        PhotoTags(cameraName: cameraName, manufacturer: manufacturer, digitalZoom: zoom.digitalFactor)
    }
}
