/// Where and how `CameraServer` serves a running camera session.
public struct ServeConfiguration: Sendable, Equatable {
    /// The address both servers listen on. Loopback by default: no camera opens on a network by accident.
    public var address: String
    /// The RTSP port (0: any free port; nil: no RTSP).
    public var rtspPort: Int?
    /// The web server's port (0: any free port; nil: no web server).
    public var httpPort: Int?
    /// The camera's RTSP path: rtsp://ADDRESS:PORT/`path`.
    public var path: String
    /// Required from every viewer when set; required to be set for an address beyond this machine.
    public var credentials: ServeCredentials?
    /// The H.264 bitrate, in kbit/s.
    public var kbps: Int
    /// A media server to push the stream to (rtsp:// with ANNOUNCE/RECORD, or rtmp://), reconnecting with back-off.
    public var publish: String?
    /// Viewers each server takes at once (RTSP clients; live views of the page); one more is refused with 503.
    public var maxViewers = 16
    /// With a certificate, the web server speaks HTTPS only and the RTSP server RTSP over TLS only (rtsps://).
    public var tls: TLSFiles?

    /// A PEM certificate and its private key.
    public struct TLSFiles: Sendable, Equatable {
        public var certificate: String
        public var key: String
        public init(certificate: String, key: String) {
            self.certificate = certificate
            self.key = key
        }
    }

    public init(address: String = "127.0.0.1", rtspPort: Int? = 8554, httpPort: Int? = 8080, path: String = "camera",
                credentials: ServeCredentials? = nil, kbps: Int = 2000) {
        self.address = address
        self.rtspPort = rtspPort
        self.httpPort = httpPort
        self.path = path
        self.credentials = credentials
        self.kbps = kbps
    }

    /// Whether `address` reaches only this machine (127.0.0.0/8, ::1, localhost).
    public static func isLoopback(_ address: String) -> Bool {
        address == "localhost" || address == "::1" || address.hasPrefix("127.")
    }

    /// The reason this configuration must not be served, if there is one: a non-loopback address without
    /// credentials, a path that is not a plain name.
    public func problem() -> String? {
        if !Self.isLoopback(address), credentials == nil {
            return "serving on \(address) would open the camera to the network without a password: give --token TOKEN "
                + "or --user USER:PASSWORD (or bind to 127.0.0.1)"
        }
        if !Self.isPlainName(path) {
            return "the RTSP path \"\(path)\" must be a plain name (letters, digits, - _ .)"
        }
        return nil
    }

    /// Letters, digits, `-_.`, not empty, no leading dot: a name that is safe in a URL path and a file name.
    public static func isPlainName(_ name: String) -> Bool {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        return !name.isEmpty && name.allSatisfy(allowed.contains) && !name.hasPrefix(".")
    }
}
