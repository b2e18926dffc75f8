import ArgumentParser

/// Options every verb shares.
struct GlobalOptions: ParsableArguments {
  @Flag(name: [.short, .long], help: "No progress bar and no summary on stderr.")
  var quiet = false
}
