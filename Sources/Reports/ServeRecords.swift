/// `gstcam serve --json`, once both servers listen: where to point players and browsers (absent: not served).
public struct ServingRecord: Encodable, Equatable {
    public var event = "serving"
    public var rtsp: String?
    public var http: String?

    public init(rtsp: String?, http: String?) {
        self.rtsp = rtsp
        self.http = http
    }
}
