import Statecraft

/// A todo's detail screen, pushed on the todo list's stack: its title and notes as drafts that
/// save as they are edited, and a way back.
///
/// It knows nothing of the list: an edit is a delegate action the list turns into a change of
/// its todos, and `backTapped` pops the screen with a ``DismissEffect``.
public struct TodoDetail: Reducer {
  public struct State: Equatable, Sendable {
    /// The todo shown.
    public let id: Int
    public var title: String
    public var notes: String

    public init(todo: Todo) {
      self.id = todo.id
      self.title = todo.title
      self.notes = todo.notes
    }
  }

  public enum Action: Equatable, Sendable {
    case setTitle(String)
    case setNotes(String)
    case backTapped
    case delegate(Delegate)

    /// What the list does for the detail screen.
    public enum Delegate: Equatable, Sendable {
      case titleChanged(id: Int, title: String)
      case notesChanged(id: Int, notes: String)
    }
  }

  let dismiss = DismissEffect()

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .setTitle(let title):
      let title = title.trimmingCharacters(in: .whitespaces)
      guard !title.isEmpty, title != state.title else { return .none }
      state.title = title
      return .send(.delegate(.titleChanged(id: state.id, title: title)))
    case .setNotes(let notes):
      guard notes != state.notes else { return .none }
      state.notes = notes
      return .send(.delegate(.notesChanged(id: state.id, notes: notes)))
    case .backTapped:
      return .run { [dismiss] _ in await dismiss() }
    case .delegate:
      return .none
    }
  }
}
