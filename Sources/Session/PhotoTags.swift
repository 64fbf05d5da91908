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

    /// The tags as GStreamer names them, with the time now (EXIF DateTimeOriginal, Make, Model, Software,
    /// DigitalZoomRatio); the caller unrefs it.
    private func tagList() -> UnsafeMutablePointer<GstTagList> {
        let list = gst_tag_list_new_empty()!
        if let now = gst_date_time_new_now_local_time() {
            gstcam_tag_list_add_date_time(list, "datetime", now)
            gst_date_time_unref(now)
        }
        gstcam_tag_list_add_string(list, "application-name", software)
        if let manufacturer { gstcam_tag_list_add_string(list, "device-manufacturer", manufacturer) }
        if let cameraName, !cameraName.isEmpty { gstcam_tag_list_add_string(list, "device-model", cameraName) }
        gstcam_tag_list_add_double(list, "capturing-digital-zoom-ratio", digitalZoom)
        return list
    }

    /// Sets the tags on a GstTagSetter element such as jifmux, which writes them into the JPEG it muxes.
    func apply(to tagger: Element) {
        guard gstcam_is_tag_setter(tagger.pointer) != 0 else { return }
        let list = tagList()
        defer { gst_tag_list_unref(list) }
        gstcam_tag_setter_set(tagger.pointer, list)
    }

    /// The tags as an EXIF block made by GStreamer's tag library (the same writer jifmux uses): a TIFF header
    /// and its IFDs, as a PNG eXIf chunk holds it. Nil if the library makes none.
    func exifTIFF() -> [UInt8]? {
        let list = tagList()
        defer { gst_tag_list_unref(list) }
        guard let buffer = gst_tag_list_to_exif_buffer_with_tiff_header(list) else { return nil }
        defer { gst_buffer_unref(buffer) }
        var map = GstMapInfo()
        guard gstcam_buffer_map_read(buffer, &map) != 0 else { return nil }
        defer { gst_buffer_unmap(buffer, &map) }
        return Array(UnsafeBufferPointer(start: map.data, count: Int(map.size)))
    }
}

extension CameraSession.Pipeline {
    /// What a photo from this pipeline's camera, at `zoom`, says about itself.
    func photoTags(zoom: Zoom) -> PhotoTags {
        PhotoTags(cameraName: cameraName, manufacturer: manufacturer, digitalZoom: zoom.digitalFactor)
    }
}
