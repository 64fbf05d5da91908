import Foundation
import Testing

/// Headless Chromium (Debian's `chromium`) driven through its DevTools protocol over a pipe
/// (`--remote-debugging-pipe`: JSON messages separated by NUL bytes on file descriptors 3 and 4), by a short
/// Python script using only its standard library. It opens the page and runs `steps`, each one of:
/// `shot NAME` (a PNG screenshot into the folder), `click SELECTOR` / `click SELECTOR FRACTION` (a real mouse
/// click at the element's centre, scrolled into view first when it is not, or at FRACTION of its width), `wait SELECTOR` (until it exists, ≤ 10 s),
/// `size WIDTH HEIGHT` (the page's viewport from then on), `sleep SECONDS`, `touch PATH` / `rm PATH` (e.g. the virtual camera's fault files), `eval EXPRESSION` (prints {\"expression\", \"value\"} as one JSON line).
enum HeadlessChromium {
    static let script = #"""
import base64, json, os, subprocess, sys, time
url, folder, steps = sys.argv[1], sys.argv[2], sys.argv[3:]
to_chrome_r, to_chrome_w = os.pipe()
from_chrome_r, from_chrome_w = os.pipe()
def setup():
    os.dup2(to_chrome_r, 3); os.dup2(from_chrome_w, 4)
chrome = subprocess.Popen(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           "--remote-debugging-pipe", "--window-size=800,600",
                           "--disable-features=WebRtcHideLocalIpsWithMdns", "--user-data-dir=" + folder + "/profile",
                           "about:blank"], preexec_fn=setup, pass_fds=(3, 4),
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.close(to_chrome_r); os.close(from_chrome_w)
reader = os.fdopen(from_chrome_r, "rb")
pending, next_id = b"", 0
def send(method, params=None, session=None):
    global next_id, pending
    next_id += 1
    message = {"id": next_id, "method": method, "params": params or {}}
    if session: message["sessionId"] = session
    os.write(to_chrome_w, json.dumps(message).encode() + b"\0")
    while True:
        while b"\0" not in pending:
            data = os.read(from_chrome_r, 1 << 20)
            if not data: raise SystemExit("chromium closed the pipe")
            pending += data
        raw, pending = pending.split(b"\0", 1)
        reply = json.loads(raw)
        if reply.get("id") == next_id:
            if "error" in reply: raise SystemExit(method + ": " + json.dumps(reply["error"]))
            return reply.get("result", {})
try:
    target = send("Target.createTarget", {"url": url})["targetId"]
    session = send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    send("Page.enable", session=session)
    def evaluate(expression):
        return send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session)["result"].get("value")
    time.sleep(1)
    for step in steps:
        word, _, rest = step.partition(" ")
        if word == "shot":
            data = send("Page.captureScreenshot", {"format": "png"}, session)["data"]
            open(os.path.join(folder, rest), "wb").write(base64.b64decode(data))
        elif word == "click":
            selector, _, fraction = rest.partition(" ")
            rect = evaluate("(() => { const e = document.querySelector(%s); e.scrollIntoView({block: 'nearest'}); const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()" % json.dumps(selector))
            x = rect[0] + rect[2] * (float(fraction) if fraction else 0.5); y = rect[1] + rect[3] / 2
            for kind in ("mousePressed", "mouseReleased"):
                send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}, session)
        elif word == "wait":
            end = time.time() + 10
            while not evaluate("!!document.querySelector(%s)" % json.dumps(rest)) and time.time() < end: time.sleep(0.1)
        elif word == "size":
            width, height = rest.split()
            send("Emulation.setDeviceMetricsOverride", {"width": int(width), "height": int(height), "deviceScaleFactor": 1, "mobile": False}, session)
        elif word == "touch":
            open(rest, "w").close()
        elif word == "rm":
            os.remove(rest)
        elif word == "sleep":
            time.sleep(float(rest))
        elif word == "eval":
            print(json.dumps({"expression": rest, "value": evaluate(rest)}), flush=True)
finally:
    chrome.kill()
    chrome.wait()
"""#

    /// Runs the steps on `url`; screenshots go to `folder`. Returns the printed lines and errors.
    static func run(_ url: String, folder: String, steps: [String]) throws -> ProcessResult {
        try runProcess("/usr/bin/python3", ["-c", script, url, folder] + steps, environment: environmentWithoutCameras)
    }
}

/// The picture inside a screenshot's live view (the page's `#live` image), as decoded RGB.
struct PageShot {
    let image: (width: Int, height: Int, rgb: [UInt8])

    init(_ path: String) throws { image = try decodeImage(path) }

    /// The share of pixels in the rectangle within `tolerance` of `color`.
    func share(of color: (Int, Int, Int), tolerance: Int = 40, x: Range<Int>, y: Range<Int>) -> Double {
        let count = countPixels(image, near: color, tolerance: tolerance, x: x, y: y)
        return Double(count) / Double(max(1, x.count * y.count))
    }

    /// How often a row of the picture changes between the checkerboard's dark and light grey (its square edges);
    /// white (the virtual camera's moving marker) and colours in between are passed over.
    func squareEdges(acrossRowAt y: Int, from left: Int, to right: Int) -> Int {
        var edges = 0
        var light: Bool?
        for x in left..<min(right, image.width) {
            let (r, g, b) = pixel(image, x, y)
            let level = (r + g + b) / 3
            let now: Bool? = (150...215).contains(level) ? true : level < 100 ? false : nil
            if let now, let before = light, now != before { edges += 1 }
            if let now { light = now }
        }
        return edges
    }
}
