import Foundation
import Testing
@testable import CameraErrors
@testable import MediaFiles
@testable import Screen
@testable import Serve
@testable import Session

/// The web server's JSON API, snapshot, gallery photos and refusals (issue 12), read with curl.
@Suite(.serialized) struct ServeHTTPTests {
    /// curl on a thread of its own: waiting on the concurrency pool's few threads could starve the server's
    /// own tasks (a photo is taken in one) when tests run in parallel.
    private func curl(_ arguments: [String]) async throws -> (status: Int, body: String) {
        let result = try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try runProcess("/usr/bin/curl", ["-s", "-m", "10", "-w", "\n%{http_code}"] + arguments,
                                                                  environment: environmentWithoutCameras) })
            }.start()
        }
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    @Test func theAPIAnswersAndRefusesWhatItShould() async throws {
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cameraOperator = CameraOperator(session: session, library: PhotoLibrary(directory: folder))
        let server = CameraServer(operator: cameraOperator, configuration: ServeConfiguration(rtspPort: nil, httpPort: 0))
        try server.start()
        defer { server.stop() }
        let url = try #require(server.httpURL)

        let status = try await curl([url + "api/status"])
        #expect(status.status == 200 && status.body.contains(#""width":320"#) && status.body.contains(#""height":240"#) && status.body.contains(#""state":"running""#),
                "\(status)")
        let snapshot = folder + "/snapshot.jpg"
        #expect(try await curl(["-o", snapshot, url + "snapshot.jpg"]).status == 200)
        let decoded = try decodeImage(snapshot)
        #expect(decoded.width == 320 && decoded.height == 240)

        let photo = try await curl(["-X", "POST", url + "api/photo"])
        #expect(photo.status == 200 && photo.body.contains(#""ok":true"#), "\(photo)")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasPrefix("IMG_") })
        #expect(photo.body.contains(#""url":"/photos/\#(name)""#))
        let download = folder + "/download.jpg"
        #expect(try await curl(["-o", download, url + "photos/" + name]).status == 200)
        #expect(FileManager.default.contents(atPath: download) == FileManager.default.contents(atPath: folder + "/" + name))

        let gallery = try await curl([url + "api/gallery"])
        #expect(gallery.status == 200 && gallery.body.contains(#""name":"\#(name)""#) && gallery.body.contains(#""width":320"#),
                "\(gallery)")
        // The test pattern has no torch and no focus: the reason comes back, with 500.
        let torch = try await curl(["-X", "POST", url + "api/torch?on=1"])
        #expect(torch.status == 500 && torch.body.contains("Torch not available"), "\(torch)")
        #expect(try await curl(["-X", "POST", url + "api/focus?x=0.5&y=2"]).status == 400)
        let delete = try await curl(["-X", "DELETE", url + "photos/" + name])
        #expect(delete.status == 200 && !FileManager.default.fileExists(atPath: folder + "/" + name), "\(delete)")
        #expect(try await curl(["-X", "DELETE", url + "photos/" + name]).status == 404)
        #expect(try await curl(["-X", "DELETE", url + "photos/..%2Fdownload.jpg"]).status != 200)
        #expect(FileManager.default.fileExists(atPath: download), "nothing outside the gallery folder is deleted")

        let zoom = try await curl(["-X", "POST", url + "api/zoom?factor=2"])
        #expect(zoom.status == 200 && session.zoom.factor == 2, "\(zoom)")
        #expect(try await curl(["-X", "POST", url + "api/zoom?factor=banana"]).status == 400)
        #expect(try await curl([url + "api/photo"]).status == 405, "a photo needs POST")
        #expect(try await curl([url + "nothing-here"]).status == 404)
        // Only plain names in the gallery folder: no way out of it (libsoup itself refuses ".." with 400).
        for path in ["photos/../../etc/passwd", "photos/..%2F..%2Fetc%2Fpasswd", "photos/%2Fetc%2Fpasswd", "photos/.hidden.jpg",
                     "photos/passwd"] {
            let answer = try await curl(["--path-as-is", url + path])
            #expect([400, 404].contains(answer.status) && !answer.body.contains("root:"), "\(path): \(answer)")
        }
    }

    @Test func credentialsAreRequiredWhenGiven() async throws {
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        let server = CameraServer(operator: CameraOperator(session: session), configuration: ServeConfiguration(
            rtspPort: nil, httpPort: 0, credentials: .user(name: "ann", password: "pw")))
        try server.start()
        defer { server.stop() }
        let url = try #require(server.httpURL)
        let refused = try await curl([url + "api/status"])
        #expect(refused.status == 401)
        #expect(try await curl(["-u", "ann:wrong", url + "snapshot.jpg"]).status == 401)
        #expect(try await curl(["-u", "ann:pw", url + "api/status"]).status == 200)

        let tokenServer = CameraServer(operator: CameraOperator(session: session), configuration: ServeConfiguration(
            rtspPort: nil, httpPort: 0, credentials: .token("t0k")))
        try tokenServer.start()
        defer { tokenServer.stop() }
        let tokenURL = try #require(tokenServer.httpURL)
        #expect(try await curl([tokenURL + "api/status"]).status == 401)
        #expect(try await curl([tokenURL + "api/status?token=t0k"]).status == 200)
        #expect(try await curl(["-H", "Authorization: Bearer t0k", tokenURL + "api/status"]).status == 200)
    }

    /// --tls-cert/--tls-key: the web server speaks HTTPS (a certificate made here with openssl) and nothing else.
    @Test func httpsWithACertificate() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let made = try runProcess("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                                                       "-keyout", folder + "/key.pem", "-out", folder + "/cert.pem"])
        #expect(made.status == 0, "\(made.error)")
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        var configuration = ServeConfiguration(rtspPort: nil, httpPort: 0)
        configuration.tls = ServeConfiguration.TLSFiles(certificate: folder + "/cert.pem", key: folder + "/key.pem")
        let server = CameraServer(operator: CameraOperator(session: session), configuration: configuration)
        try server.start()
        defer { server.stop() }
        let url = try #require(server.httpURL)
        #expect(url.hasPrefix("https://127.0.0.1:"))
        let secure = try await curl(["--cacert", folder + "/cert.pem", url + "api/status"])
        #expect(secure.status == 200 && secure.body.contains(#""state":"running""#), "\(secure)")
        #expect(try await curl([url.replacingOccurrences(of: "https://", with: "http://") + "api/status"]).status != 200)

        var broken = configuration
        broken.tls = ServeConfiguration.TLSFiles(certificate: folder + "/missing.pem", key: folder + "/key.pem")
        #expect(throws: CameraError.self) { try CameraServer(operator: CameraOperator(session: session), configuration: broken).start() }
    }
}
