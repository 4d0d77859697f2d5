import Foundation

/// One way a demo runs: full screen, or one command per line.
@MainActor
public protocol DemoMode {
  /// Runs until the person quits or input ends.
  func run() async
}

extension Terminal {
  /// Runs `fullScreen()` when standard input and output are a terminal that ncurses can drive,
  /// `lines()` otherwise.
  ///
  /// The mode is kept alive until it returns: a full-screen mode's key and state callbacks hold
  /// it weakly, and an optimized build would otherwise release it while it runs.
  @MainActor
  public static func run(
    fullScreen: () -> any DemoMode, lines: () -> any DemoMode
  ) async {
    let mode: any DemoMode
    if isInteractive, FullScreen.isSupported {
      mode = fullScreen()
    } else {
      if isInteractive {
        printLine(
          "This terminal (TERM) can't be driven full screen; reading commands line by line.")
      }
      mode = lines()
    }
    await mode.run()
    withExtendedLifetime(mode) {}
  }
}

/// A line of piped input split into its first word and the rest, both trimmed.
public struct LineCommand: Equatable, Sendable {
  public let line: String
  public let word: String
  public let rest: String

  public init(_ line: String) {
    self.line = line.trimmingCharacters(in: .whitespaces)
    word = String(self.line.prefix { !$0.isWhitespace })
    rest = self.line.dropFirst(word.count).trimmingCharacters(in: .whitespaces)
  }
}

extension StandardInput {
  /// The commands of piped input, each echoed as `> line` when it is read, so that a
  /// transcript shows what was typed before what it did. A line longer than ``lineLimit`` is
  /// skipped with a word that says so.
  @MainActor
  public static func commands() -> AsyncCompactMapSequence<InputLines, LineCommand> {
    lines().compactMap { line in
      switch line {
      case .text(let text):
        let command = LineCommand(text)
        printLine("> \(command.line)")
        return command
      case .tooLong(let bytes):
        printLine("> (a line of \(bytes) bytes, not shown)")
        printLine(
          "That line is too long: a command may be at most \(lineLimit) bytes (64 KiB), so it "
            + "was skipped.")
        return nil
      }
    }
  }
}

extension Key {
  /// Whether the key quits a full-screen demo: q, Ctrl-C, Ctrl-D or escape (a lone escape: one
  /// that starts a sequence, even split across reads, is never taken for it).
  public var quits: Bool {
    switch self {
    case .character("q"), .control("c"), .control("d"), .escape: return true
    default: return false
    }
  }

  /// What a full-screen demo says about a key it doesn't use.
  public var unusedHint: String {
    switch self {
    case .character(let character):
      return "Unknown key '\(Text.escaped(String(character)))'. The keys are listed at the bottom."
    case .paste:
      return
        "Pasted text goes into a prompt; this screen takes keys. The keys are listed at the bottom."
    default:
      break
    }
    return "That key does nothing here. The keys are listed at the bottom."
  }
}
