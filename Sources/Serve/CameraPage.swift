/// The web camera page `gstcam serve` shows at `/`: live view, shutter, zoom, the last photo as a thumbnail with
/// its download, focus by clicking the picture, and an error banner that clears itself. The live view starts as the Motion-JPEG stream and
/// becomes WebRTC (the shared H.264, signalled over the /webrtc WebSocket) once that plays; it falls back to
/// Motion-JPEG if WebRTC fails (`?view=mjpeg` keeps Motion-JPEG). It uses only the JSON API (docs/serve.md),
/// carrying `?token=` on to every request when the page was opened with one.
enum CameraPage {
    static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>gstcam</title>
    <style>
      body { margin: 0; background: #111; color: #eee; font: 15px system-ui, sans-serif; }
      #banner { display: none; background: #b3261e; color: #fff; padding: 10px 16px; }
      #banner.shown { display: block; }
      main { display: flex; flex-direction: column; align-items: center; gap: 12px; padding: 12px; }
      #live, #rtc { max-width: 100%; max-height: 75vh; background: #000; }
      #controls { display: flex; align-items: center; gap: 16px; }
      #shutter { width: 64px; height: 64px; border-radius: 50%; border: 4px solid #eee; background: #ddd; cursor: pointer; }
      #shutter:active { background: #fff; }
      #last img { height: 64px; border: 1px solid #555; }
      #status { color: #aaa; font-size: 13px; }
    </style>
    </head>
    <body>
    <div id="banner" role="alert"></div>
    <main>
      <img id="live" alt="live view">
      <video id="rtc" autoplay muted playsinline hidden></video>
      <div id="controls">
        <label>Zoom <input id="zoom" type="range" min="1" max="8" step="0.1" value="1"></label>
        <button id="shutter" title="Take a photo" aria-label="Take a photo"></button>
        <a id="last" hidden></a>
      </div>
      <div id="status"></div>
    </main>
    <script>
    const token = new URLSearchParams(location.search).get("token");
    const withToken = (path) => token ? path + (path.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token) : path;
    const banner = document.getElementById("banner");
    let actionError = null;
    function showError(text) {
      banner.textContent = text || "";
      banner.classList.toggle("shown", !!text);
    }
    async function call(method, path) {
      const response = await fetch(withToken(path), { method });
      const body = await response.json().catch(() => ({}));
      if (!response.ok) throw new Error(body.error || body.message || response.statusText);
      return body;
    }
    const live = document.getElementById("live");
    live.src = withToken("/stream.mjpg");
    live.onerror = () => setTimeout(() => { if (!live.hidden) live.src = withToken("/stream.mjpg?" + Date.now()); }, 1000);
    const video = document.getElementById("rtc");
    function showMJPEG() {
      video.hidden = true;
      live.hidden = false;
      live.src = withToken("/stream.mjpg?" + Date.now());
      document.body.dataset.view = "mjpeg";
    }
    function startWebRTC() {
      if (new URLSearchParams(location.search).get("view") === "mjpeg" || !window.RTCPeerConnection) return;
      const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + withToken("/webrtc"));
      const peer = new RTCPeerConnection();
      peer.ontrack = (event) => { video.srcObject = event.streams[0] || new MediaStream([event.track]); };
      // On its first decoded frame (a hidden video does not start playing by itself, so not on "playing").
      video.onloadeddata = () => {
        video.hidden = false;
        video.play().catch(() => {});
        live.hidden = true;
        live.removeAttribute("src");  // the Motion-JPEG stream ends: its encode stops when no one else watches
        document.body.dataset.view = "webrtc";
      };
      peer.onconnectionstatechange = () => { if (peer.connectionState === "failed") showMJPEG(); };
      peer.onicecandidate = (event) => {
        if (event.candidate) socket.send(JSON.stringify({ type: "candidate", candidate: event.candidate.candidate,
                                                          sdpMLineIndex: event.candidate.sdpMLineIndex }));
      };
      socket.onmessage = async (event) => {
        const message = JSON.parse(event.data);
        if (message.type === "offer") {
          await peer.setRemoteDescription({ type: "offer", sdp: message.sdp });
          const answer = await peer.createAnswer();
          await peer.setLocalDescription(answer);
          socket.send(JSON.stringify({ type: "answer", sdp: answer.sdp }));
        } else if (message.type === "candidate") {
          await peer.addIceCandidate({ candidate: message.candidate, sdpMLineIndex: message.sdpMLineIndex });
        }
      };
    }
    startWebRTC();
    // Click the picture to focus and expose there (the point in the picture, 0…1 each way, as the window does).
    for (view of [live, video]) {
      view.onclick = async (event) => {
        const box = event.target.getBoundingClientRect();
        const x = ((event.clientX - box.left) / box.width).toFixed(3), y = ((event.clientY - box.top) / box.height).toFixed(3);
        try { await call("POST", `/api/focus?x=${x}&y=${y}`); actionError = null; }
        catch (error) { actionError = error.message; showError(actionError); }
      };
    }
    document.getElementById("shutter").onclick = async () => {
      try {
        const result = await call("POST", "/api/photo");
        actionError = null;
        const last = document.getElementById("last");
        last.hidden = false;
        last.href = withToken(result.photo.url + "?download");
        last.download = result.photo.name;
        last.innerHTML = "";
        const thumbnail = document.createElement("img");
        thumbnail.src = withToken(result.photo.url);
        thumbnail.alt = result.photo.name;
        thumbnail.id = "thumbnail";
        last.appendChild(thumbnail);
      } catch (error) { actionError = "Photo failed: " + error.message; showError(actionError); }
    };
    document.getElementById("zoom").oninput = async (event) => {
      try { await call("POST", "/api/zoom?factor=" + event.target.value); actionError = null; }
      catch (error) { actionError = "Zoom failed: " + error.message; showError(actionError); }
    };
    let zoomShown = false;
    async function poll() {
      try {
        const status = await call("GET", "/api/status");
        if (!zoomShown) { document.getElementById("zoom").value = status.zoom; zoomShown = true; }
        document.getElementById("status").textContent =
          `${status.camera} · ${status.width}×${status.height} · ${status.fps} fps · ${status.zoom.toFixed(1)}×` +
          (status.rtsp ? ` · ${status.rtsp}` : "");
        showError(status.error || actionError);
      } catch (error) { showError("The camera server does not answer: " + error.message); }
    }
    poll();
    setInterval(poll, 1000);
    </script>
    </body>
    </html>
    """#
}
