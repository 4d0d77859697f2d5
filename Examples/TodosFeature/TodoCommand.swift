import Foundation

/// A command typed in the todo demo's line mode (when standard input is piped).
///
/// Numbers name todos by their position in the visible list, starting at 1, as the list is
/// printed.
public enum TodoCommand: Equatable, Sendable {
  /// An action for the store.
  case send(Todos.Action)
  /// Print the list.
  case list
  /// Wait until the sync and the saves in flight are done.
  case wait
  /// Show or hide the change log.
  case toggleLog
  case help
  case quit

  /// What line mode understands, for `help` and for hints.
  public static let usage = """
    Commands: add TITLE · edit N TITLE · toggle N · open N · delete N · \
    filter all|active|done · search [TEXT] · undo · redo · sync · cancel · wait · list · log · \
    help · quit
    """

  /// Parses one line against the state it will act on.
  ///
  /// - Returns: the command, or a short hint when the line is not one.
  public static func parse(_ line: String, in state: Todos.State) -> Result<Self, Hint> {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    let word = trimmed.prefix { !$0.isWhitespace }
    let rest = trimmed.dropFirst(word.count).trimmingCharacters(in: .whitespaces)

    func todoID(_ text: Substring) -> Result<Int, Hint> {
      guard let position = Int(text) else {
        return .failure(Hint("'\(word)' needs the todo's number, as the list shows it."))
      }
      let visible = state.visible
      guard position >= 1, position <= visible.count else {
        return .failure(
          Hint(
            visible.isEmpty
              ? "The list is empty." : "There is no todo \(position); pick 1 to \(visible.count)."))
      }
      return .success(visible[position - 1].id)
    }

    switch word {
    case "":
      return .failure(Hint("Type a command, or 'help'."))
    case "add":
      return .success(.send(.add(rest)))
    case "edit":
      let number = rest.prefix { !$0.isWhitespace }
      let title = rest.dropFirst(number.count).trimmingCharacters(in: .whitespaces)
      return todoID(number).map { .send(.edit(id: $0, title: title)) }
    case "toggle":
      return todoID(Substring(rest)).map { .send(.toggle(id: $0)) }
    case "delete":
      return todoID(Substring(rest)).map { .send(.delete(id: $0)) }
    case "filter":
      guard let filter = TodoFilter(rawValue: rest) else {
        return .failure(Hint("Filters are all, active and done."))
      }
      return .success(.send(.setFilter(filter)))
    case "search": return .success(.send(.searchChanged(rest)))
    case "undo": return .success(.send(.undo))
    case "redo": return .success(.send(.redo))
    case "sync": return .success(.send(.syncTapped))
    case "cancel": return .success(.send(.cancelSyncTapped))
    case "wait": return .success(.wait)
    case "list": return .success(.list)
    case "log": return .success(.toggleLog)
    case "help": return .success(.help)
    case "quit", "q", "exit": return .success(.quit)
    default:
      return .failure(Hint("Unknown command '\(word)'. Type 'help' for the list."))
    }
  }

  /// Why a line is not a command, said to the person who typed it.
  public struct Hint: Error, Equatable, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
  }
}
