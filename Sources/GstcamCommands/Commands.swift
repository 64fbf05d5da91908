/// Every gstcam subcommand, in the order the overview lists them. `serve` is the one that differs between the two
/// executables (GstcamMain): the serving code in `gstcam-serve`, a launcher of it in `gstcam`.
struct Commands {
    let all: [any Command.Type]

    init(serve: any Command.Type) {
        all = [
            PreviewCommand.self,
            CaptureCommand.self,
            RecordCommand.self,
            ScanCommand.self,
            GalleryCommand.self,
            ViewCommand.self,
            DevicesCommand.self,
            ControlsCommand.self,
            GetCommand.self,
            SetCommand.self,
            serve,
        ]
    }

    func named(_ name: String) -> (any Command.Type)? {
        all.first { $0.name == name }
    }
}
