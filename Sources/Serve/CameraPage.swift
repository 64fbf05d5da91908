/// The web camera page `gstcam serve` shows at `/`: live view, shutter, zoom, torch, record start/stop, camera
/// switch (and, serving several cameras, a picker: `?camera=NAME`), the last photo as a thumbnail with its
/// download, a gallery of photos and videos with thumbnails, download and delete, focus by clicking the
/// picture, and an error banner that clears itself. The live view starts as the Motion-JPEG stream and
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
      button.control { background: #333; color: #eee; border: 1px solid #666; border-radius: 6px; padding: 8px 12px; cursor: pointer; font: inherit; }
      button.control[aria-pressed=true] { background: #f5c518; color: #111; }
      #record { width: 48px; height: 48px; border-radius: 50%; border: 3px solid #eee; background: #b3261e; cursor: pointer; }
      #record[aria-pressed=true] { border-radius: 8px; background: #ff3b30; box-shadow: 0 0 0 4px #b3261e; }
      select { background: #333; color: #eee; border: 1px solid #666; border-radius: 6px; padding: 8px; font: inherit; }
      #gallery { width: 100%; max-width: 960px; }
      #gallery h2 { font-size: 15px; font-weight: 600; margin: 4px 0; color: #ccc; }
      #items { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 8px; }
      #items li { width: 136px; background: #222; border: 1px solid #444; border-radius: 6px; padding: 4px; font-size: 11px; }
      #items img, #items video { width: 128px; height: 96px; object-fit: cover; background: #000; display: block; }
      #items .name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; margin: 2px 0; }
      #items a, #items button { color: #9cf; background: none; border: none; padding: 0 6px 0 0; cursor: pointer; font: inherit; }
    </style>
    </head>
    <body>
    <div id="banner" role="alert"></div>
    <main>
      <img id="live" alt="live view">
      <video id="rtc" autoplay muted playsinline hidden></video>
      <div id="controls">
        <select id="camera" title="Camera" hidden></select>
        <button id="switch" class="control" title="Switch to the next camera">Switch camera</button>
        <button id="torch" class="control" aria-pressed="false" title="Torch on / off" hidden>Torch</button>
        <label>Zoom <input id="zoom" type="range" min="1" max="8" step="0.1" value="1"></label>
        <button id="shutter" title="Take a photo" aria-label="Take a photo"></button>
        <button id="record" aria-pressed="false" title="Start recording" aria-label="Start recording"></button>
        <a id="last" hidden></a>
      </div>
      <div id="status"></div>
      <section id="gallery"><h2>Gallery</h2><ul id="items"></ul></section>
    </main>
    <script>
    const parameters = new URLSearchParams(location.search);
    const token = parameters.get("token"), cameraName = parameters.get("camera");
    const withParameter = (path, name, value) => value ? path + (path.includes("?") ? "&" : "?") + name + "=" + encodeURIComponent(value) : path;
    // Every request carries the token the page was opened with, and the camera it shows.
    const withToken = (path) => withParameter(withParameter(path, "token", token), "camera", cameraName);
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
        refreshGallery();
      } catch (error) { actionError = "Photo failed: " + error.message; showError(actionError); }
    };
    async function act(path, what) {
      try { const result = await call("POST", path); actionError = null; poll(); return result; }
      catch (error) { actionError = what + " failed: " + error.message; showError(actionError); }
    }
    const torch = document.getElementById("torch"), record = document.getElementById("record");
    torch.onclick = () => act("/api/torch?on=" + (torch.getAttribute("aria-pressed") === "true" ? 0 : 1), "Torch");
    record.onclick = async () => {
      const recording = record.getAttribute("aria-pressed") === "true";
      record.setAttribute("aria-pressed", String(!recording));
      await act("/api/record?on=" + (recording ? 0 : 1), recording ? "Stopping the recording" : "Recording");
      refreshGallery();
    };
    document.getElementById("switch").onclick = () => act("/api/camera/next", "Switching cameras");
    // Serving several cameras: a picker; choosing one opens the page on it.
    const picker = document.getElementById("camera");
    call("GET", "/api/cameras").then((cameras) => {
      if (cameras.length < 2) return;
      for (const camera of cameras) {
        const option = new Option(`${camera.name} · ${camera.camera}`, camera.name);
        option.selected = camera.name === (cameraName || cameras[0].name);
        picker.add(option);
      }
      picker.hidden = false;
      picker.onchange = () => { parameters.set("camera", picker.value); location.search = parameters.toString(); };
    }).catch(() => {});
    // The gallery, newest first: a thumbnail (the photo; a video's first frame), its download and delete.
    const items = document.getElementById("items");
    async function refreshGallery() {
      let entries;
      try { entries = await call("GET", "/api/gallery"); } catch (error) { return; }
      items.innerHTML = "";
      for (const entry of entries) {
        const item = document.createElement("li");
        item.dataset.name = entry.name;
        item.dataset.kind = entry.kind;
        const url = withToken(entry.url);
        let thumbnail;
        if (entry.kind === "video") {
          thumbnail = document.createElement("video");
          thumbnail.muted = true;
          thumbnail.preload = "metadata";
          thumbnail.src = url + "#t=0.1";
          thumbnail.onclick = () => { thumbnail.controls = true; thumbnail.play(); };
        } else {
          thumbnail = document.createElement("img");
          thumbnail.loading = "lazy";
          thumbnail.src = url;
          thumbnail.alt = entry.name;
        }
        const name = document.createElement("div");
        name.className = "name";
        name.textContent = entry.name;
        name.title = entry.name;
        const download = document.createElement("a");
        download.className = "download";
        download.textContent = "Download";
        download.href = withToken(entry.url + "?download");
        download.download = entry.name;
        const remove = document.createElement("button");
        remove.className = "delete";
        remove.textContent = "Delete";
        remove.onclick = async () => {
          try { await call("DELETE", entry.url); actionError = null; } catch (error) { actionError = "Delete failed: " + error.message; showError(actionError); }
          refreshGallery();
        };
        item.append(thumbnail, name, download, remove);
        items.appendChild(item);
      }
    }
    refreshGallery();
    document.getElementById("zoom").oninput = async (event) => {
      try { await call("POST", "/api/zoom?factor=" + event.target.value); actionError = null; }
      catch (error) { actionError = "Zoom failed: " + error.message; showError(actionError); }
    };
    let zoomShown = false;
    async function poll() {
      try {
        const status = await call("GET", "/api/status");
        if (!zoomShown) { document.getElementById("zoom").value = status.zoom; zoomShown = true; }
        const seconds = status.recording ? Math.floor(status.recording.seconds) : 0;
        document.getElementById("status").textContent =
          (status.recording ? `● REC ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")} · ` : "") +
          `${status.camera} · ${status.width}×${status.height} · ${status.fps} fps · ${status.zoom.toFixed(1)}×` +
          (status.torch === undefined ? "" : status.torch ? " · torch on" : " · torch off") +
          (status.rtsp ? ` · ${status.rtsp}` : "");
        torch.hidden = status.torch === undefined;
        torch.setAttribute("aria-pressed", String(!!status.torch));
        record.setAttribute("aria-pressed", String(!!status.recording));
        record.title = status.recording ? "Stop recording" : "Start recording";
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
