"""The measuring half of scripts/bench (run by it, under Xvfb, with the virtual camera set up): gstcam against
gst-launch-1.0, ffmpeg, fswebcam and v4l2-ctl on the same virtual camera, whole processes, A/B runs
alternating (each round runs every contender once, the order reversed every other round, so drift on a shared
machine hits all of them alike). Prints a Markdown table of medians and ratios (ratio = gstcam / peer: below 1
means gstcam is faster or smaller).

Environment (set by scripts/bench): GSTCAM (the release binary), BENCH_RUN (scripts/bench-run.c built: every
measured process runs under it), VCAM_PRELOAD (libVirtualCamera.so),
VCAM_DEVICES, VCAM_STATE_DIR, XDG_RUNTIME_DIR, GSTCAM_PIPELINES_DIR, DISPLAY (Xvfb, for the window rows only);
with `scripts/bench --before REV`, GSTCAM_BEFORE and GSTCAM_BEFORE_PIPELINES: gstcam as it was at REV, run
alongside in the same rounds ("before" columns).
"""
import argparse
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

GSTCAM = os.environ["GSTCAM"]
BENCH_RUN = os.environ["BENCH_RUN"]
# (name, binary, pipelines folder): this gstcam, and with --before the one it is compared with.
VARIANTS = [("gstcam", GSTCAM, os.environ["GSTCAM_PIPELINES_DIR"])]
if os.environ.get("GSTCAM_BEFORE"):
    VARIANTS.append(("before", os.environ["GSTCAM_BEFORE"], os.environ["GSTCAM_BEFORE_PIPELINES"]))
OUT = tempfile.mkdtemp(prefix="gstcam-bench-")
# The bench's cameras, from the test devices (scripts/virtual-camera-env): two uvc cameras (every size up to
# 1920x1080, YUYV/NV12/MJPG, 30 fps) and a USB-2 webcam (Motion-JPEG at 30 fps up to 1920x1080). Only these
# are plugged in, as on a laptop with a built-in and a USB camera; discovery cost grows with every node.
CAMERA, OTHER_CAMERA, MJPEG_CAMERA = "/dev/video12", "/dev/video14", "/dev/video16"
BENCH_DEVICES = (CAMERA, OTHER_CAMERA, MJPEG_CAMERA)
# The vivid profile, alone, for the window's hold: vivid stamps frames in the future, v4l2src replaces its stamps.
VIVID_CAMERA = "/dev/video18"


def devices(paths):
    """The shared VCAM_DEVICES list narrowed to `paths` (same profiles and colours as the tests')."""
    entries = [e for e in os.environ["VCAM_DEVICES"].split(";") if e.split("=", 1)[0] in paths]
    if len(entries) != len(paths):
        sys.exit(f"bench: {paths} are not all in VCAM_DEVICES (scripts/virtual-camera-env)")
    return ";".join(entries)


def environment(window=False, cameras=BENCH_DEVICES, pipelines=None):
    env = dict(os.environ)
    if pipelines:
        env["GSTCAM_PIPELINES_DIR"] = pipelines
    env["LD_PRELOAD"] = env["VCAM_PRELOAD"]
    env["VCAM_DEVICES"] = devices(cameras)
    if not window:
        env.pop("DISPLAY", None)
    return env


class Run:
    """One whole process: wall time (s), peak RSS (MiB), CPU time user+system (s)."""

    def __init__(self, wall, rss, cpu):
        self.wall, self.rss, self.cpu = wall, rss, cpu


def run(command, window=False, check=None, timeout=120, show_mode=False, pipelines=None, camera=True):
    """Runs `command` through bench-run (scripts/bench-run.c), which forks it and reports what it cost: forked
    from Python, its peak memory would start at the bench's own (18 MiB). camera=False: without the virtual
    camera's library."""
    stderr = tempfile.TemporaryFile()
    with tempfile.NamedTemporaryFile(mode="r", prefix="bench-run-", dir=OUT) as result:
        env = environment(window, pipelines=pipelines)
        # The virtual camera goes into the command, not into bench-run (scripts/bench-run.c).
        preload = env.pop("LD_PRELOAD")
        if camera:
            env["BENCH_RUN_PRELOAD"] = preload
        process = subprocess.Popen([BENCH_RUN, result.name] + command, env=env,
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr,
                                   start_new_session=True)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            stderr.seek(0)
            sys.exit(f"bench: no end after {timeout} s: {' '.join(command)}\n{stderr.read().decode(errors='replace')}")
        figures = result.read().split()
    if process.returncode != 0 or len(figures) != 4 or (check and not check()):
        stderr.seek(0)
        sys.exit(f"bench: failed (status {process.returncode}): {' '.join(command)}\n{stderr.read().decode(errors='replace')}")
    if show_mode:
        stderr.seek(0)
        for line in stderr.read().decode(errors="replace").splitlines():
            if line.startswith("Mode:"):
                print(f"  {line}", file=sys.stderr)
    wall, peak_kib, cpu, _ = figures
    return Run(float(wall), int(peak_kib) / 1024, float(cpu))


def nonempty(path):
    def check():
        ok = os.path.exists(path) and os.path.getsize(path) > 0
        if os.path.exists(path):
            os.unlink(path)
        return ok
    return check


def alternate(contenders, rounds, label):
    """contenders: [(name, command, options)]; returns {name: [Run]}. One unmeasured run each first (plugin
    registry, page cache)."""
    results = {name: [] for name, _, _ in contenders}
    for name, command, options in contenders:
        run(command, show_mode=True, **options)
    for round_number in range(rounds):
        order = contenders if round_number % 2 == 0 else list(reversed(contenders))
        for name, command, options in order:
            results[name].append(run(command, **options))
        # The previews are judged by CPU: each round's shows how far the medians can be trusted.
        line = ", ".join(f"{name} {results[name][-1].wall * 1000:.0f} ms"
                         + (f" ({results[name][-1].cpu:.3f} s CPU)" if label.startswith("preview") else "")
                         for name, _, _ in contenders)
        print(f"  {label} round {round_number + 1}: {line}", file=sys.stderr, flush=True)
    return results


def median(values):
    return statistics.median(values)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


ROWS = []


def row(what, gstcam, peer, ratio, before="", before_ratio=""):
    ROWS.append((what, gstcam, peer, ratio, before, before_ratio))


def gstcams(arguments, **options):
    """A contender per gstcam variant: `arguments` after the binary."""
    return [(name, [binary] + arguments, dict(options, pipelines=pipelines)) for name, binary, pipelines in VARIANTS]


def ratio(a, b):
    return f"{a / b:.2f}×" if b else "—"


def gst_launch(*elements):
    return ["gst-launch-1.0", "-q"] + " ! ".join(elements).split(" ")


def raw_caps(width, height, fps=30):
    return f"video/x-raw,format=YUY2,width={width},height={height},framerate={fps}/1"


# --- cold photo and photo after warm-up ------------------------------------------------------------------------

def photos(rounds):
    out = f"{OUT}/photo.jpg"
    w, h = 1280, 720
    size = f"{w}x{h}"
    cold = alternate(gstcams(["capture", "--immediate", "--device", CAMERA, "--width", str(w), "--height", str(h),
                              "--overwrite", "-o", out], check=nonempty(out)) + [
        ("gst-launch", gst_launch(f"v4l2src device={CAMERA} num-buffers=1", raw_caps(w, h), "jpegenc",
                                  f"filesink location={out}"), {"check": nonempty(out)}),
        ("ffmpeg", ["ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "v4l2", "-input_format", "yuyv422",
                    "-video_size", size, "-framerate", "30", "-i", CAMERA, "-frames:v", "1", "-y", out],
         {"check": nonempty(out)}),
        ("fswebcam", ["fswebcam", "-q", "-d", CAMERA, "-p", "YUYV", "-r", size, "--fps", "30", "-S", "0",
                      "--no-banner", out], {"check": nonempty(out)}),
    ], rounds, "cold photo")
    report_processes(f"cold photo {size}, first frame (`capture --immediate`)", cold,
                     {"gst-launch": "`gst-launch-1.0 v4l2src num-buffers=1 ! jpegenc ! filesink`",
                      "ffmpeg": "`ffmpeg -f v4l2 -frames:v 1`", "fswebcam": "`fswebcam -S 0`"})

    warm = alternate(gstcams(["capture", "--warmup", "15", "--device", CAMERA, "--width", str(w), "--height", str(h),
                              "--overwrite", "-o", out], check=nonempty(out)) + [
        ("ffmpeg", ["ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "v4l2", "-input_format", "yuyv422",
                    "-video_size", size, "-framerate", "30", "-i", CAMERA, "-vf", r"select=gte(n\,15)",
                    "-frames:v", "1", "-y", out], {"check": nonempty(out)}),
        ("fswebcam", ["fswebcam", "-q", "-d", CAMERA, "-p", "YUYV", "-r", size, "--fps", "30", "-S", "15",
                      "--no-banner", out], {"check": nonempty(out)}),
    ], rounds, "warm photo")
    report_processes(f"photo {size} after 15 frames (`--warmup 15`)", warm,
                     {"ffmpeg": "`ffmpeg -vf select=gte(n\\,15) -frames:v 1`", "fswebcam": "`fswebcam -S 15`"})


def mjpeg_photos(rounds):
    """A photo from a Motion-JPEG camera at 1920x1080: gstcam against gst-launch decoding and re-encoding,
    and against gst-launch saving the camera's own JPEG."""
    out = f"{OUT}/photo.jpg"
    w, h = 1920, 1080
    caps = f"image/jpeg,width={w},height={h},framerate=30/1"
    results = alternate(gstcams(["capture", "--immediate", "--device", MJPEG_CAMERA, "--width", str(w), "--height",
                                 str(h), "--overwrite", "-o", out], check=nonempty(out)) + [
        ("gst-launch re-encode", gst_launch(f"v4l2src device={MJPEG_CAMERA} num-buffers=1", caps, "jpegdec", "jpegenc",
                                            f"filesink location={out}"), {"check": nonempty(out)}),
        ("gst-launch camera JPEG", gst_launch(f"v4l2src device={MJPEG_CAMERA} num-buffers=1", caps,
                                              f"filesink location={out}"), {"check": nonempty(out)}),
    ], rounds, "MJPEG photo")
    report_processes(f"cold photo {w}x{h} from a Motion-JPEG camera", results,
                     {"gst-launch re-encode": "`gst-launch-1.0 v4l2src ! image/jpeg ! jpegdec ! jpegenc ! filesink`",
                      "gst-launch camera JPEG": "`gst-launch-1.0 v4l2src ! image/jpeg ! filesink` (the camera's bytes)"})


def report_processes(what, results, peers):
    def figures(name):
        return median([r.wall for r in results[name]]), median([r.rss for r in results[name]])
    gw, gr = figures("gstcam")
    for name, label in peers.items():
        pw, pr = figures(name)
        before = before_ratio = ""
        if "before" in results:
            bw, br = figures("before")
            before, before_ratio = f"{bw:.3f} s, {br:.0f} MiB", f"{ratio(bw, pw)} wall, {ratio(br, pr)} memory"
        row(f"{what} vs {label}", f"{gw:.3f} s, {gr:.0f} MiB", f"{pw:.3f} s, {pr:.0f} MiB",
            f"{ratio(gw, pw)} wall, {ratio(gr, pr)} memory", before, before_ratio)


# --- preview ---------------------------------------------------------------------------------------------------

def camera_preview(w, h, seconds, camera=CAMERA, fps=30):
    """The arguments of a gstcam preview of `camera` at `fps`, and the gst-launch-1.0 elements of the same camera."""
    preview = ["preview", "--device", camera, "--width", str(w), "--height", str(h), "--fps", str(fps),
               "--duration", str(seconds)]
    return preview, [f"v4l2src device={camera} num-buffers={fps * seconds}", raw_caps(w, h, fps)]


def previews(rounds, seconds):
    w, h = 1280, 720
    preview, camera = camera_preview(w, h, seconds)
    # The camera screen draws a status line and controls with Pango and cairo: the second peer pays for the same
    # text stack (fonts, HarfBuzz, FreeType, cairo) with one textoverlay line, the first shows the bare picture.
    status_line = ["!", "textoverlay", f"text=Virtual UVC Camera ({CAMERA.split('/')[-1]}) · {w}×{h} · 30.0 fps · 1× · no torch",
                   "font-desc=Sans 12", "valignment=bottom", "halignment=left", "shaded-background=true"]
    with_text = gst_launch(*camera, "videoconvert") + status_line + ["!", "ximagesink"]
    # gstcam's window converts without interpolating the colour samples (pipelines/display.branch): the third peer
    # converts the same way, so that row shows what gstcam costs on top of the conversion it chose.
    window = alternate(gstcams(preview + ["--sink", "ximagesink"], window=True) + [
        ("gst-launch", gst_launch(*camera, "videoconvert", "ximagesink"), {"window": True}),
        ("gst-launch-text", with_text, {"window": True}),
        ("gst-launch-nearest", gst_launch(*camera, "videoconvert chroma-mode=none", "ximagesink"), {"window": True}),
    ], rounds, "preview window")
    report_cpu(f"{seconds} s preview {w}x{h} in a window (`--sink ximagesink`, Xvfb)", window,
               "`gst-launch-1.0 v4l2src ! videoconvert ! ximagesink`")
    report_cpu(f"{seconds} s preview {w}x{h} in a window", window,
               "the same with a `textoverlay` status line (Pango, as the camera screen draws its text)", peer="gst-launch-text")
    report_cpu(f"{seconds} s preview {w}x{h} in a window", window,
               "`gst-launch-1.0 v4l2src ! videoconvert chroma-mode=none ! ximagesink` (the conversion gstcam's window uses)",
               peer="gst-launch-nearest")
    # Without a window gstcam still prints its frame figures once a second (frames, fps): the target is
    # `v4l2src ! fakesink` "plus what the figures need", which the second peer adds — fpsdisplaysink counting
    # the frames and printing the same figures once a second (`-v`).
    figures = ["gst-launch-1.0", "-q", "-v"] + " ! ".join(camera + [
        "fpsdisplaysink video-sink=fakesink text-overlay=false sync=false fps-update-interval=1000"]).split(" ")
    # Five rounds at least: the two sides differ by a few hundredths of a second of CPU.
    headless = alternate(gstcams(preview + ["--sink", "none"]) + [
        ("gst-launch", gst_launch(*camera, "fakesink"), {}),
        ("gst-launch-figures", figures, {}),
    ], max(rounds, 5), "preview none")
    report_cpu(f"{seconds} s preview {w}x{h}, `--sink none`", headless, "`gst-launch-1.0 v4l2src ! fakesink`")
    report_cpu(f"{seconds} s preview {w}x{h}, `--sink none`", headless,
               "`gst-launch-1.0 -v v4l2src ! fpsdisplaysink video-sink=fakesink text-overlay=false` (the same figures "
               "printed once a second)", peer="gst-launch-figures")


def report_cpu(what, results, label, peer="gst-launch"):
    def figures(name):
        return median([r.cpu for r in results[name]]), median([r.rss for r in results[name]])
    gc, gr = figures("gstcam")
    pc, pr = figures(peer)
    before = before_ratio = ""
    if "before" in results:
        bc, br = figures("before")
        before, before_ratio = f"{bc:.2f} s CPU, {br:.0f} MiB", f"{ratio(bc, pc)} CPU, {ratio(br, pr)} memory"
    row(f"{what} vs {label}", f"{gc:.2f} s CPU, {gr:.0f} MiB", f"{pc:.2f} s CPU, {pr:.0f} MiB",
        f"{ratio(gc, pc)} CPU, {ratio(gr, pr)} memory", before, before_ratio)


# --- the window's hold ------------------------------------------------------------------------------------------

# basesink's do_sync logs the clock's answer for each frame: negative jitter is how long the sink waited to draw it.
SINK_WAIT = re.compile(r"<(?:display|ximagesink\d+)> clock returned -?\d+, jitter\s+(-?)(\d+):(\d+):(\d+\.\d+)")


def sink_waits(command, cameras, pipelines=None):
    """How long (ms) the window's sink held each frame before drawing it, from the sink's own log."""
    env = environment(window=True, cameras=cameras, pipelines=pipelines)
    env.update(GST_DEBUG="basesink:6", GST_DEBUG_NO_COLOR="1")
    result = subprocess.run(command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, timeout=120)
    if result.returncode != 0:
        sys.exit(f"bench: failed (status {result.returncode}): {' '.join(command)}")
    waits = []
    for match in SINK_WAIT.finditer(result.stderr.decode(errors="replace")):
        seconds = int(match[2]) * 3600 + int(match[3]) * 60 + float(match[4])
        waits.append(seconds * 1000 if match[1] else 0.0)
    return waits


def window_hold(rounds, seconds=4):
    """A window preview's frames: how long the sink keeps each before drawing it. A clock-synchronised sink waits
    until the frame's timestamp plus the pipeline's latency (v4l2src's: one frame) and basesink's 20 ms processing
    deadline; how long that is after the frame arrives depends on the driver's timestamps: the uvc profile's
    (the frame's start, as it is handed over) or vivid's (in the future: v4l2src puts a frame interval before
    the frame's arrival instead)."""
    for camera, w, h, fps, what in ((CAMERA, 1280, 720, 30, "uvc profile"),
                                    (VIVID_CAMERA, 640, 480, 15, "vivid profile, whose timestamps v4l2src replaces")):
        preview, elements = camera_preview(w, h, seconds, camera, fps)
        contenders = gstcams(preview + ["--sink", "ximagesink"]) + [
            ("gst-launch", gst_launch(*elements, "videoconvert", "ximagesink"), {}),
        ]
        waits = {name: [] for name, _, _ in contenders}
        for round_number in range(rounds):
            for name, command, options in (contenders if round_number % 2 == 0 else list(reversed(contenders))):
                waits[name] += sink_waits(command, (camera,), **options)
            print(f"  window hold {camera} round {round_number + 1}: " + ", ".join(
                f"{name} p50 {median(waits[name]):.1f} ms" for name, _, _ in contenders), file=sys.stderr, flush=True)

        def text(name):
            return f"p50 {percentile(waits[name], 0.5):.1f} ms, p90 {percentile(waits[name], 0.9):.1f} ms"
        gp, pp = percentile(waits["gstcam"], 0.5), percentile(waits["gst-launch"], 0.5)
        before = before_ratio = ""
        if "before" in waits:
            before, before_ratio = text("before"), ratio(percentile(waits["before"], 0.5), pp)
        row(f"window {w}x{h} at {fps} fps ({what}): how long the sink holds each frame before drawing it (its log, "
            "`GST_DEBUG=basesink:6`)", text("gstcam"), f"{text('gst-launch')}: `gst-launch-1.0 v4l2src ! videoconvert ! ximagesink`",
            ratio(gp, pp), before, before_ratio)


# --- a running session: shutter, switch ------------------------------------------------------------------------

class Screen:
    """`gstcam preview --sink none` in the background, reached through its socket (docs/camera-screen.md)."""

    def __init__(self, device, width, height, cameras, variant=VARIANTS[0], options=()):
        env = environment(cameras=cameras, pipelines=variant[2])
        self.name = variant[0]
        self.process = subprocess.Popen([variant[1], "preview", "--sink", "none", "--device", device, "--width",
                                         str(width), "--height", str(height), "--fps", "30", *options], env=env,
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        path = f"{os.environ['XDG_RUNTIME_DIR']}/gstcam-{device.split('/')[-1]}.sock"
        deadline = time.monotonic() + 20
        while True:
            try:
                self.socket = socket.socket(socket.AF_UNIX)
                self.socket.connect(path)
                break
            except OSError:
                self.socket.close()
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.stop()
                    sys.exit(f"bench: no camera screen answered on {path}")
                time.sleep(0.05)
        self.replies = self.socket.makefile("r")

    def request(self, request):
        start = time.monotonic()
        self.socket.sendall((json.dumps(request) + "\n").encode())
        reply = json.loads(self.replies.readline())
        elapsed = time.monotonic() - start
        if not reply.get("ok"):
            self.stop()
            sys.exit(f"bench: {request} failed: {reply}")
        return elapsed, reply

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def shutter(samples):
    """With --before, both gstcams run at once, each on its own camera of the same profile, and the requests
    alternate between them."""
    for kind, w, h, options in (("raw (YUYV)", 1280, 720, ()), ("raw (YUYV)", 1920, 1080, ()),
                                ("Motion-JPEG", 1920, 1080, ("--pipeline", "mjpeg"))):
        screens = []
        try:
            for camera, variant in zip((CAMERA, OTHER_CAMERA), VARIANTS):
                screens.append(Screen(camera, w, h, BENCH_DEVICES, variant, options))
            times = {screen.name: [] for screen in screens}
            for sample in range(samples):
                for screen in (screens if sample % 2 == 0 else list(reversed(screens))):
                    time.sleep(random.uniform(0.1, 0.3))  # lands anywhere in the frame interval
                    elapsed, _ = screen.request({"command": "capture", "path": f"{OUT}/shutter.jpg", "overwrite": True})
                    times[screen.name].append(elapsed * 1000)
        finally:
            for screen in screens:
                screen.stop()
        print(f"  shutter {kind} {w}x{h}: " + ", ".join(f"{name} p50 {median(t):.1f} ms" for name, t in times.items()),
              file=sys.stderr, flush=True)

        def text(name):
            return f"p50 {median(times[name]):.1f} ms, p95 {percentile(times[name], 0.95):.1f} ms" if name in times else ""
        row(f"shutter latency {w}x{h}, {kind}, in a running session (socket request → photo saved, {samples} photos)",
            text("gstcam"), "— (frame interval 33 ms)", "—", text("before"))


def switching(samples, rounds):
    figures = {}
    for variant in VARIANTS:
        screen = Screen(CAMERA, 1280, 720, (CAMERA, OTHER_CAMERA), variant)
        try:
            times = []
            for _ in range(samples):
                time.sleep(0.3)
                _, reply = screen.request({"command": "switch"})
                found = re.search(r" in (\d+) ms", reply.get("message", ""))
                if found:
                    times.append(int(found.group(1)))
        finally:
            screen.stop()
        figures[variant[0]] = times
    cold = alternate([("gst-launch", gst_launch(f"v4l2src device={OTHER_CAMERA} num-buffers=1", raw_caps(1280, 720),
                                                "fakesink"), {})], rounds, "first frame")
    cold_ms = median([r.wall for r in cold["gst-launch"]]) * 1000
    def text(times):
        return f"p50 {median(times):.0f} ms, p95 {percentile(times, 0.95):.0f} ms"
    times = figures["gstcam"]
    before = figures.get("before")
    row(f"camera switch 1280x720 in a running session (request → new camera's first frame, {len(times)} switches)",
        text(times), f"{cold_ms:.0f} ms: a new `gst-launch-1.0 v4l2src num-buffers=1 ! fakesink` process",
        ratio(median(times), cold_ms), text(before) if before else "", ratio(median(before), cold_ms) if before else "")


# --- bursts ----------------------------------------------------------------------------------------------------

def photo_rate(folder):
    """Photos per second between the first and the last file written (mtimes)."""
    times = sorted(os.stat(os.path.join(folder, name)).st_mtime_ns for name in os.listdir(folder))
    return (len(times) - 1) / ((times[-1] - times[0]) / 1e9) if len(times) > 1 else 0


def bursts(count, rounds):
    for w, h in ((1280, 720), (1920, 1080)):
        contenders = gstcams(["capture", "--immediate", "--count", str(count), "--device", CAMERA, "--width", str(w),
                              "--height", str(h), "-o", "{folder}/b-%04d.jpg"]) + [
            ("gst-launch", gst_launch(f"v4l2src device={CAMERA} num-buffers={count}", raw_caps(w, h), "jpegenc",
                                      "multifilesink location={folder}/b-%04d.jpg"), {}),
        ]
        rates = {name: [] for name, _, _ in contenders}
        for round_number in range(rounds):
            for name, command, options in (contenders if round_number % 2 == 0 else reversed(contenders)):
                folder = tempfile.mkdtemp(dir=OUT)
                run([part.replace("{folder}", folder) for part in command], **options)
                rates[name].append(photo_rate(folder))
                if len(os.listdir(folder)) != count:
                    sys.exit(f"bench: {name} burst wrote {len(os.listdir(folder))} photos, not {count}")
                subprocess.run(["rm", "-rf", folder])
            print(f"  burst {w}x{h} round {round_number + 1}: gstcam {rates['gstcam'][-1]:.1f}/s, "
                  f"gst-launch {rates['gst-launch'][-1]:.1f}/s", file=sys.stderr, flush=True)
        g, p = median(rates["gstcam"]), median(rates["gst-launch"])
        b = median(rates["before"]) if "before" in rates else None
        row(f"burst {w}x{h}, {count} photos (`capture --count`), photos/s vs "
            "`gst-launch-1.0 v4l2src ! jpegenc ! multifilesink`", f"{g:.1f} /s", f"{p:.1f} /s", ratio(g, p),
            f"{b:.1f} /s" if b else "", ratio(b, p) if b else "")


# --- controls --------------------------------------------------------------------------------------------------

def controls(rounds):
    set_results = alternate(gstcams(["set", "--device", CAMERA, "brightness=60"]) + [
        ("v4l2-ctl", ["v4l2-ctl", "-d", CAMERA, "-c", "brightness=60"], {}),
    ], rounds, "control set")
    get_results = alternate(gstcams(["get", "--device", CAMERA, "brightness"]) + [
        ("v4l2-ctl", ["v4l2-ctl", "-d", CAMERA, "-C", "brightness"], {}),
    ], rounds, "control get")
    report_processes("control set (`gstcam set brightness=60`)", set_results, {"v4l2-ctl": "`v4l2-ctl -c brightness=60`"})
    report_processes("control get (`gstcam get brightness`)", get_results, {"v4l2-ctl": "`v4l2-ctl -C brightness`"})


# --- the floor -------------------------------------------------------------------------------------------------

def floor(rounds, seconds=3):
    """What any Swift process costs before it works: the memory targets of issue 13 are ratios to C programs
    (gst-launch-1.0), and this row is the part of gstcam's side that comes with the language, not with gstcam."""
    results = alternate([
        ("gstcam", [os.environ["BENCH_FLOOR_SWIFT"], str(seconds)], {"camera": False}),
        ("c", [os.environ["BENCH_FLOOR_C"], str(seconds)], {"camera": False}),
    ], rounds, "floor")
    swift, c = (median([r.rss for r in results[name]]) for name in ("gstcam", "c"))
    # In tenths of a MiB: the difference is what matters, and whole MiB would round it by up to one.
    row(f"the floor: an idle program printing a line a second for {seconds} s, in Swift linked like gstcam "
        "(scripts/bench-floor.swift; the gstcam column) vs the same in C (scripts/bench-floor.c)",
        f"{swift:.1f} MiB", f"{c:.1f} MiB", f"{ratio(swift, c)} memory, {swift - c:+.1f} MiB")


def main():
    parser = argparse.ArgumentParser(description="gstcam against the tools people use (scripts/bench).")
    parser.add_argument("--runs", type=int, default=9, help="rounds of alternating runs per row (default 9)")
    parser.add_argument("--seconds", type=int, default=8, help="preview length (default 8)")
    parser.add_argument("--samples", type=int, default=30, help="photos/switches in a session (default 30)")
    parser.add_argument("--burst", type=int, default=60, help="photos per burst (default 60)")
    parser.add_argument("--only", default="photo,mjpeg,preview,hold,shutter,burst,switch,controls,floor",
                        help="comma-separated parts (default: all)")
    options = parser.parse_args()
    parts = options.only.split(",")
    # The virtual camera gives its device nodes the time of the process's first look at them, so GStreamer's
    # v4l2 plugin (whose registry entry depends on /dev/video*) sees the devices "change" whenever a second has
    # passed, and rescans every plugin (gst-plugin-scanner, ~80 ms) in whichever process comes next: noise that
    # real device nodes do not make. The registry is brought up to date once, then left alone for every run.
    subprocess.run(["gst-inspect-1.0", "v4l2src"], env=environment(), stdout=subprocess.DEVNULL, check=True)
    os.environ["GST_REGISTRY_UPDATE"] = "no"
    try:
        if "photo" in parts: photos(options.runs)
        if "mjpeg" in parts: mjpeg_photos(options.runs)
        if "preview" in parts: previews(max(3, options.runs // 2), options.seconds)
        if "hold" in parts: window_hold(max(3, options.runs // 2))
        if "shutter" in parts: shutter(options.samples)
        if "burst" in parts: bursts(options.burst, max(3, options.runs // 2))
        if "switch" in parts: switching(options.samples, options.runs)
        if "controls" in parts: controls(options.runs)
        if "floor" in parts: floor(max(3, options.runs // 2))
    finally:
        subprocess.run(["rm", "-rf", OUT])
    print()
    if len(VARIANTS) > 1:
        print(f"| what | gstcam | peer | ratio (gstcam / peer) | before ({os.environ.get('GSTCAM_BEFORE_NAME', 'before')}) | ratio before |")
        print("| --- | --- | --- | --- | --- | --- |")
        for what, gstcam, peer, r, before, before_ratio in ROWS:
            print(f"| {what} | {gstcam} | {peer} | {r} | {before} | {before_ratio} |")
    else:
        print("| what | gstcam | peer | ratio (gstcam / peer) |")
        print("| --- | --- | --- | --- |")
        for what, gstcam, peer, r, _, _ in ROWS:
            print(f"| {what} | {gstcam} | {peer} | {r} |")


main()
