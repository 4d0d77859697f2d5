import ArgumentParser

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension AsyncParsableCommand {
  /// Parses the command line and runs the command, as ArgumentParser's own `main()` does, but
  /// with every error message escaped (see ``printError(_:)``): ArgumentParser repeats the
  /// values it could not parse ("The value '…' is invalid"), and a value holding control
  /// characters must not drive the terminal. `--help` and `--version` print to standard output
  /// as usual.
  ///
  /// ```swift
  /// @main struct Demo: AsyncParsableCommand {
  ///   static func main() async { await runEscapingErrors() }
  /// }
  /// ```
  public static func runEscapingErrors(_ arguments: [String]? = nil) async {
    do {
      var command = try parseAsRoot(arguments)
      if var asyncCommand = command as? any AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch {
      let code = exitCode(for: error)
      let message = fullMessage(for: error)
      if !message.isEmpty {
        if code == .success { print(message) } else { printError(message) }
      }
      #if canImport(Darwin)
        Darwin.exit(code.rawValue)
      #elseif canImport(Musl)
        Musl.exit(code.rawValue)
      #else
        Glibc.exit(code.rawValue)
      #endif
    }
  }
}
