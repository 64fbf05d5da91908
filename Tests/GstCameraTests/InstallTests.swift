import Foundation
import Testing
import GstCamera

/// Installing gstcam like a Linux tool (issue 17): scripts/install into a temporary prefix, then the installed
/// programs, man pages, completions and desktop file used as a user would, from another folder with a clean
/// environment. The build under test is installed with `--bin` (the suite's debug build: no release build here).
/// The .deb is checked by scripts/check-deb (run by scripts/test before the suite) and, release build in a guest
/// without Swift, by scripts/test-deb.
@Suite("Installing", .serialized)
struct InstallTests {
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static var buildFolder: String { URL(fileURLWithPath: gstcamBinary).deletingLastPathComponent().path }

    /// An install into a fresh prefix, with a private home, runtime folder and virtual-camera state.
    struct Installed {
        let prefix: String
        let home: String

        init() throws {
            let base = try makeTemporaryFolder()
            prefix = base + "/prefix"
            home = base + "/home"
            try FileManager.default.createDirectory(atPath: prefix, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: home + "/runtime", withIntermediateDirectories: true)
            let result = try install(prefix)
            guard result.status == 0 else { throw DecodeError(message: "scripts/install failed: \(result.error)") }
        }

        /// What a login shell has: no GSTCAM_PIPELINES_DIR, no LD_PRELOAD, no build folder on PATH. The runtime
        /// folder and the virtual camera's state are private so other test runs on this machine do not answer.
        var environment: [String: String] {
            ["HOME": home, "PATH": prefix + "/bin:/usr/bin:/bin", "XDG_RUNTIME_DIR": home + "/runtime",
             "XDG_DATA_DIRS": prefix + "/share:/usr/share", "VCAM_STATE_DIR": home + "/vcam", "LANG": "C.UTF-8"]
        }

        /// Runs a command in the home folder with only `environment`.
        func execute(_ command: [String]) throws -> ProcessResult {
            try runProcess("/usr/bin/env", ["-i", "-C", home] + environment.map { "\($0)=\($1)" }.sorted() + command)
        }

        /// Runs an installed program.
        func run(_ program: String, _ arguments: [String]) throws -> ProcessResult {
            try execute([prefix + "/bin/" + program] + arguments)
        }

        /// Runs a shell (bash, fish) with a script.
        func shell(_ shell: String, _ script: String) throws -> ProcessResult {
            try execute([shell, "-c", script])
        }

        func remove() {
            try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: prefix).deletingLastPathComponent().path)
        }
    }

    static func install(_ prefix: String, extra: [String] = []) throws -> ProcessResult {
        try runProcess(checkout + "/scripts/install", ["--bin", buildFolder, "--prefix", prefix] + extra,
                       environment: environmentWithoutCameras)
    }

    static func uninstall(_ prefix: String) throws -> ProcessResult {
        try runProcess(checkout + "/scripts/uninstall", ["--prefix", prefix], environment: environmentWithoutCameras)
    }

    /// Every path under `folder`, relative to it, sorted.
    static func tree(_ folder: String) -> [String] {
        ((FileManager.default.subpaths(atPath: folder)) ?? []).sorted()
    }

    @Test func installedGstcamTakesPhotosWithoutAnyEnvironmentVariable() throws {
        let installed = try Installed()
        defer { installed.remove() }
        // Only the installed folder has this pipeline: a gstcam that found the checkout's pipelines/ instead
        // (or none) cannot run it.
        let pipelines = installed.prefix + "/share/gstcam/pipelines"
        try FileManager.default.copyItem(atPath: pipelines + "/test-pattern.pipeline",
                                         toPath: pipelines + "/installed-pattern.pipeline")
        defer { try? FileManager.default.removeItem(atPath: pipelines + "/installed-pattern.pipeline") }

        let pattern = try installed.run("gstcam", ["capture", "--pipeline", "installed-pattern", "-o", "pattern.jpg"])
        #expect(pattern.status == 0, "\(pattern.error)")
        let patternImage = try decodeImage(installed.home + "/pattern.jpg")
        #expect(patternImage.width == 640 && patternImage.height == 480)
        // videotestsrc's SMPTE bars: white, then yellow.
        let white = pixel(patternImage, 20, 20), yellow = pixel(patternImage, 137, 20)
        #expect(white.0 > 220 && white.1 > 220 && white.2 > 220, "first bar \(white)")
        #expect(yellow.0 > 200 && yellow.1 > 200 && yellow.2 < 60, "second bar \(yellow)")

        // The virtual camera through the installed wrapper: the photo shows the camera's identity colour (blue).
        let virtual = try installed.run("gstcam-virtual-camera", [
            "--devices", "/dev/video7=uvc,color=1e3ce6", "capture", "--device", "/dev/video7", "--width", "640", "--height", "480", "-o", "virtual.jpg"])
        #expect(virtual.status == 0, "\(virtual.error)")
        let image = try decodeImage(installed.home + "/virtual.jpg")
        #expect(image.width == 640 && image.height == 480)
        let band = pixel(image, 320, 40)
        #expect(abs(band.0 - 0x1e) < 30 && abs(band.1 - 0x3c) < 30 && abs(band.2 - 0xe6) < 30, "identity band \(band)")

        let library = try installed.run("gstcam-virtual-camera", ["--library"])
        #expect(library.output == installed.prefix + "/lib/gstcam/libVirtualCamera.so\n")
        // Without the wrapper there is no camera at all on this machine.
        let none = try installed.run("gstcam", ["devices", "--json"])
        #expect(none.output.filter { !$0.isWhitespace } == "[]")
    }

    @Test func versionNamesGstcamAndTheGStreamerInUse() throws {
        let installed = try Installed()
        defer { installed.remove() }
        let gstreamer = try runProcess("/usr/bin/gst-inspect-1.0", ["--version"]).output
            .split(separator: "\n").first { $0.hasPrefix("GStreamer ") }.map(String.init)
        for arguments in [["--version"], ["version"]] {
            let result = try installed.run("gstcam", arguments)
            #expect(result.status == 0)
            #expect(result.output == "gstcam \(GstCameraVersion.string)\n\(gstreamer ?? "?")\n")
        }
        let json = try installed.run("gstcam", ["--version", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: String]
        #expect(object?["version"] == GstCameraVersion.string)
        #expect(object.map { "GStreamer " + ($0["gstreamer"] ?? "") } == gstreamer)
        let wrong = try installed.run("gstcam", ["--version", "--verbose"])
        #expect(wrong.status == 64 && wrong.error.contains("--version takes no arguments"))
    }

    @Test func uninstallRemovesExactlyWhatWasInstalled() throws {
        let base = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: base) }
        // An empty prefix is empty again afterwards.
        let empty = base + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        #expect(try Self.install(empty).status == 0)
        #expect(Self.tree(empty).contains("bin/gstcam"))
        #expect(Self.tree(empty).contains("share/gstcam/install-manifest"))
        let removed = try Self.uninstall(empty)
        #expect(removed.status == 0, "\(removed.error)")
        #expect(Self.tree(empty) == [])

        // A prefix with other programs keeps them, and the folders that were there before, after installing twice.
        let shared = base + "/shared"
        for file in ["bin/other-tool", "share/man/man1/other-tool.1", "share/applications/other.desktop"] {
            try FileManager.default.createDirectory(atPath: shared + "/" + (file as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try Data("mine".utf8).write(to: URL(fileURLWithPath: shared + "/" + file))
        }
        let before = Self.tree(shared)
        #expect(try Self.install(shared).status == 0)
        #expect(try Self.install(shared).status == 0)
        #expect(try Self.uninstall(shared).status == 0)
        #expect(Self.tree(shared) == before)
        #expect(try Self.uninstall(shared).status == 1)
    }

    @Test func bashCompletesCommandsOptionsValuesCamerasAndControls() throws {
        let installed = try Installed()
        defer { installed.remove() }
        // bash-completion finds the file by itself (XDG_DATA_DIRS holds PREFIX/share, as for /usr/local).
        let script = #"""
        source /usr/share/bash-completion/bash_completion
        __load_completion gstcam && __load_completion gstcam-virtual-camera || echo "not found"
        complete -p gstcam gstcam-virtual-camera
        complete_line() {
            local line=$1
            COMP_LINE=$line; COMP_POINT=${#line}
            read -ra COMP_WORDS <<< "$line"
            [[ $line == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMPREPLY=()
            _gstcam "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            echo "$line => ${COMPREPLY[*]}"
        }
        complete_line "gstcam cap"
        complete_line "gstcam capture --for"
        complete_line "gstcam capture --format "
        complete_line "gstcam preview --pipeline test-"
        complete_line "gstcam help con"
        complete_line "gstcam-virtual-camera --devices /dev/video7=sensor capture --camera "
        complete_line "gstcam-virtual-camera --devices /dev/video7=sensor get --device /dev/video7 torch_"
        complete_line "gstcam-virtual-camera --devices /dev/video7=sensor set led"
        """#
        let result = try installed.shell("bash", script)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("complete -F _gstcam gstcam"), "\(result.output)\(result.error)")
        #expect(lines.contains("complete -F _gstcam gstcam-virtual-camera"))
        #expect(lines.contains("gstcam cap => capture"))
        #expect(lines.contains("gstcam capture --for => --format"))
        #expect(lines.contains("gstcam capture --format  => jpeg png"))
        #expect(lines.contains("gstcam preview --pipeline test- => test-pattern"))
        #expect(lines.contains("gstcam help con => controls"))
        #expect(lines.contains("gstcam-virtual-camera --devices /dev/video7=sensor capture --camera  => /dev/video7"))
        #expect(lines.contains("gstcam-virtual-camera --devices /dev/video7=sensor get --device /dev/video7 torch_ => torch_intensity"))
        #expect(lines.contains("gstcam-virtual-camera --devices /dev/video7=sensor set led => led_mode="))
    }

    /// The lines both shells complete, and what Tab at the end of each must offer.
    static let completions: [(line: String, words: String)] = [
        ("gstcam cap", "capture"),
        ("gstcam capture --for", "--format"),
        ("gstcam capture --format ", "jpeg png"),
        ("gstcam capture --torch ", "off on"),
        ("gstcam preview --pipeline test-", "test-pattern"),
        ("gstcam help con", "controls"),
        ("gstcam-virtual-camera --devices /dev/video7=sensor capture --camera ", "/dev/video7"),
        ("gstcam-virtual-camera --devices /dev/video7=sensor get --device /dev/video7 torch_", "torch_intensity"),
        ("gstcam-virtual-camera --devices /dev/video7=sensor set led", "led_mode"),
    ]

    @Test func zshAndFishCompleteCommandsOptionsValuesCamerasAndControls() throws {
        let installed = try Installed()
        defer { installed.remove() }
        // zsh completes only inside its line editor, so an interactive `zsh -f` runs in a pseudo-terminal (zpty)
        // and is sent each line and a Tab. Its completion system is set up as a user of this prefix would
        // (fpath, compinit); a compadd wrapper writes every match zsh adds to a file, and Tab is bound to a widget
        // that completes, then marks the file done.
        let zsh = try installed.execute(["zsh", "-f", "-c", #"""
        zmodload zsh/zpty
        out=$HOME/zsh-matches
        zpty z zsh -f -i
        zpty -w z "fpath=(\#(installed.prefix)/share/zsh/site-functions \$fpath); autoload -Uz compinit; compinit -u -d $HOME/.zcompdump"
        zpty -w z "compadd() { local -a added; builtin compadd -O added \"\$@\"; print -rl -- \$added >>$out; builtin compadd \"\$@\"; }"
        zpty -w z "_complete_and_mark() { zle expand-or-complete; print -r -- '<done>' >>$out; }; zle -N _complete_and_mark; bindkey '^I' _complete_and_mark"
        drain() { local chunk; while zpty -r -t z chunk; do :; done; }
        complete_line() {
            : >$out
            zpty -w -n z "$1"$'\t'
            local tries=0
            until grep -q '<done>' $out || (( ++tries > 200 )); do drain; sleep 0.05; done
            local -aU matches=(${(f)"$(grep -v '<done>' $out)"})
            print -r -- "$1 => ${(j: :)${(@o)matches:#}}"
            zpty -w -n z $'\C-e\C-u'
            drain
        }
        """# + "\n" + Self.completions.map { "complete_line '\($0.line)'" }.joined(separator: "\n") + "\nzpty -d z\n"])
        #expect(zsh.status == 0, "zsh: \(zsh.output)\(zsh.error)")
        let zshLines = zsh.output.split(separator: "\n").map(String.init)
        for (line, words) in Self.completions {
            #expect(zshLines.contains("\(line) => \(words)"), "zsh: \(zsh.output)\(zsh.error)")
        }

        // fish finds the files by itself (XDG_DATA_DIRS holds PREFIX/share); `complete -C` completes a line.
        let fish = try installed.shell("fish", Self.completions.map { "echo '\($0.line) =>' (complete -C '\($0.line)' | cut -f1 | sort)" }
            .joined(separator: "\n"))
        let fishLines = fish.output.split(separator: "\n").map(String.init)
        for (line, words) in Self.completions {
            // fish offers a control to set with its "=" attached.
            let expected = line.contains(" set ") ? words.split(separator: " ").map { $0 + "=" }.joined(separator: " ") : words
            #expect(fishLines.contains("\(line) => \(expected)"), "fish: \(fish.output)\(fish.error)")
        }
    }

    @Test func manPagesRenderWithASectionPerCommand() throws {
        let installed = try Installed()
        defer { installed.remove() }
        let rendered = try runProcess("/usr/bin/man", ["-l", installed.prefix + "/share/man/man1/gstcam.1"],
                                      environment: ["MANWIDTH": "100", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        #expect(rendered.status == 0, "\(rendered.error)")
        #expect(rendered.error.isEmpty, "groff warnings: \(rendered.error)")
        let text = rendered.output
        for command in ["preview", "capture", "gallery", "devices", "controls", "get", "set"] {
            #expect(text.contains("\nGSTCAM \(command.uppercased())\n"), "no section for \(command)")
        }
        // Every option `gstcam help capture` prints is in the page, with its description's first words.
        let help = try installed.run("gstcam", ["help", "capture"]).output
        for line in help.split(separator: "\n") where line.hasPrefix("  -") {
            let option = String(line.dropFirst(2).split(separator: " ").first ?? "").trimmingCharacters(in: CharacterSet(charactersIn: ","))
            #expect(text.contains(option), "man page lacks \(option)")
        }
        #expect(text.contains("Take a photo, a burst or a timelapse."))
        let wrapper = try runProcess("/usr/bin/man", ["-l", installed.prefix + "/share/man/man1/gstcam-virtual-camera.1"],
                                     environment: ["MANWIDTH": "100", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        #expect(wrapper.status == 0 && wrapper.output.contains("--devices SPEC"), "\(wrapper.error)")
        // man finds the pages through PATH (PREFIX/bin → PREFIX/share/man), as for any prefix.
        let found = try installed.execute(["man", "-w", "gstcam"])
        #expect(found.output == installed.prefix + "/share/man/man1/gstcam.1\n", "\(found.error)")
    }

    @Test func desktopFileValidatesAndStartsThePreview() throws {
        let installed = try Installed()
        defer { installed.remove() }
        let desktop = installed.prefix + "/share/applications/gstcam.desktop"
        let validation = try runProcess("/usr/bin/desktop-file-validate", [desktop])
        #expect(validation.status == 0, "\(validation.output)")
        #expect(!validation.output.contains("error"), "\(validation.output)")
        let entry = try String(contentsOfFile: desktop, encoding: .utf8)
        #expect(entry.contains("\nExec=gstcam preview\n"))
        #expect(entry.contains("\nIcon=gstcam\n"))
        #expect(entry.contains("\nCategories=AudioVideo;Video;Photography;\n"))
        let icon = try String(contentsOfFile: installed.prefix + "/share/icons/hicolor/scalable/apps/gstcam.svg", encoding: .utf8)
        #expect(icon.contains("<svg"))
        // The icon renders (librsvg through GStreamer) to a picture that is not empty.
        let png = installed.home + "/icon.png"
        let render = try runProcess("/usr/bin/gst-launch-1.0", ["-q", "filesrc",
            "location=\(installed.prefix)/share/icons/hicolor/scalable/apps/gstcam.svg", "!", "rsvgdec", "!",
            "videoconvert", "!", "pngenc", "!", "filesink", "location=\(png)"])
        #expect(render.status == 0, "\(render.error)")
        #expect(try decodeImage(png).width == 128)
    }
}
