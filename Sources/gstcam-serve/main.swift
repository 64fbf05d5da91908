import GstcamCommands

// gstcam-serve: gstcam with its serving code, which `gstcam serve` runs (GstcamCommands/ServeLauncher.swift).
await GstcamMain.run(Array(CommandLine.arguments.dropFirst()), serve: ServeCommand.self)
