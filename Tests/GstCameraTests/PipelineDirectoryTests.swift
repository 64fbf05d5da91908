import Foundation
import Testing
@testable import PipelineFiles

/// Where the pipeline files are found: the folder is looked up once and kept, but follows $GSTCAM_PIPELINES_DIR.
@Suite(.serialized) struct PipelineDirectoryTests {
    /// A build whose executable is not in the checkout still finds the checkout this library was built from.
    @Test func theSearchPathEndsWithThisCheckoutsPipelines() {
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        #expect(PipelineDirectory.checkoutPipelines == checkout + "/pipelines")
        #expect(PipelineDirectory.searchPath(explicit: nil).contains(checkout + "/pipelines"))
    }

    @Test func aChangedVariableIsFollowed() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "videotestsrc ! fakesink\n".write(toFile: folder + "/default.pipeline", atomically: true, encoding: .utf8)
        let previous = getenv(PipelineDirectory.environmentVariable).map { String(cString: $0) }
        defer {
            if let previous { setenv(PipelineDirectory.environmentVariable, previous, 1) } else { unsetenv(PipelineDirectory.environmentVariable) }
        }
        let shipped = try PipelineDirectory.find()
        #expect(try PipelineDirectory.find() == shipped)
        setenv(PipelineDirectory.environmentVariable, folder, 1)
        #expect(try PipelineDirectory.find() == folder)
        if let previous { setenv(PipelineDirectory.environmentVariable, previous, 1) } else { unsetenv(PipelineDirectory.environmentVariable) }
        #expect(try PipelineDirectory.find() == shipped)
    }
}
