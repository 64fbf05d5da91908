/// Every gstcam subcommand, in the order the overview lists them.
enum Commands {
    static let all: [any Command.Type] = [
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
        ServeCommand.self,
    ]

    static func named(_ name: String) -> (any Command.Type)? {
        all.first { $0.name == name }
    }
}
