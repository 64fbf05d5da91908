import GstcamCommands

// gstcam-serve: gstcam with its serving code, which `gstcam serve` runs (GstcamCommands/ServeLauncher.swift).
Interrupt.install()  // here, on the main thread, before any await: see Interrupt.install
await GstcamMain.run(Array(CommandLine.arguments.dropFirst()), serve: ServeCommand.self)
