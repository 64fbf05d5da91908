/// `gstcam serve`'s help, for both executables: `gstcam` (ServeLauncher) prints it without loading the serving code.
package enum ServeHelp {
    package static let name = "serve"
    package static let summary = "Serve the camera: RTSP for players and recorders, a web camera page."
    package static let usage = """
    USAGE: gstcam serve [--rtsp PORT] [--http PORT] [--bind ADDR] [--token TOKEN | --user USER:PASSWORD] [options]
           gstcam serve --camera A --camera B [--path NAME_A --path NAME_B] [options]

    Opens the camera once and serves it until Ctrl-C: H.264 over RTSP (rtsp://ADDR:PORT/camera; one encode
    shared by every client, over UDP or TCP) and a web camera page (live view, shutter, zoom, torch, record,
    gallery) with a JSON API (docs/serve.md). Several --camera options serve several cameras. Encoding happens only while someone watches. While it serves, `gstcam capture` for the
    same camera takes its photo through it. Prints the URLs when ready (JSON lines with --json). When the camera
    is unplugged or fails, the servers stay up and the page says why; serving resumes when the camera is back.

    OPTIONS:
      --rtsp PORT            The RTSP port (default 8554; 0: any free port; off: no RTSP).
      --http PORT            The web page's port (default 8080; 0: any free port; off: no web page).
      --bind ADDR            The address to listen on (default 127.0.0.1: this machine only). Any other
                             address needs --token or --user: no camera opens on a network by accident.
      --path NAME            The RTSP path (default camera). With several cameras, one --path per camera in
                             the same order (default: each device's name, e.g. video0, video2).
      --camera CAMERA        Repeated (or --device): serve several cameras at once, each in its own session
                             at rtsp://ADDR:PORT/NAME; the web page picks the camera (?camera=NAME). The
                             camera options below (size, rate, zoom, …) apply to each.
      --token TOKEN          Viewers must give this token: RTSP user "token" with TOKEN as password (digest);
                             on the web `Authorization: Bearer TOKEN`, basic authentication, or ?token=TOKEN.
      --user USER:PASSWORD   Viewers must log in (RTSP digest, HTTP basic authentication).
      --bitrate KBPS         The H.264 bitrate in kbit/s (default 2000).
      --publish URL          Also push the stream to a media server that fans it out: rtsp://… (ANNOUNCE/RECORD,
                             e.g. MediaMTX) or rtmp://…; retried with back-off while the server is away.
      --max-viewers N        Viewers at once, per server (default 16): one more gets 503 Service Unavailable.
      --tls-cert FILE, --tls-key FILE
                             Serve the web page over HTTPS and RTSP over TLS (rtsps://) with this PEM
                             certificate and key.
      --duration SECONDS     Stop after this long (default: until Ctrl-C).
      --json                 Print the URLs and events as JSON lines.
    \(CameraOptions.help)
    """
}
