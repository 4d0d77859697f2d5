import CasePathsCore
import Statecraft

/// The todo app's screens: the list, the detail screens pushed on a stack over it, and the
/// confirmation asked before a delete.
///
/// ```swift
/// let store = Store(initialState: TodosNavigation.State(list: Todos.State(todos: saved))) {
///   TodosNavigation { Todos() }
/// }
/// store.send(.open(id: 1))          // pushes the todo's detail screen
/// store.send(.deleteTapped(id: 1))  // asks first; .confirmation(.press(button)) answers
/// ```
public struct TodosNavigation: Reducer {
  public struct State: Equatable, Sendable {
    public var list: Todos.State
    /// The detail screens over the list, the top one last.
    public var path = StackState<TodoDetail.State>()
    /// The question asked before a delete.
    @Presents public var confirmation: ConfirmationDialogState<Confirmation>?

    public init(list: Todos.State) {
      self.list = list
    }
  }

  /// The answers of the delete confirmation that do something.
  public enum Confirmation: Equatable, Sendable {
    case delete(id: Int)
  }

  public enum Action: Equatable, Sendable {
    case list(Todos.Action)
    case path(StackActionOf<TodoDetail>)
    case confirmation(PresentationAction<Confirmation>)
    /// Pushes the detail screen of a todo.
    case open(id: Int)
    /// Asks whether to delete a todo.
    case deleteTapped(id: Int)
    /// Pops the top screen (Esc, `back`).
    case back
  }

  let list: (inout Todos.State, Todos.Action) -> Effect<Todos.Action>

  /// The navigation over the list feature `list` builds.
  public init<List: Reducer<Todos.State, Todos.Action>>(
    @ReducerBuilder<Todos.State, Todos.Action> list: () -> List
  ) {
    let list = list()
    self.list = { list.reduce(into: &$0, action: $1) }
  }

  public var body: some Reducer<State, Action> {
    Scope(state: \.list, action: Self.listCase) { Reduce(list) }
    Reduce { state, action in
      switch action {
      case .open(let id):
        guard let todo = state.list.todos[id: id] else {
          state.list.notice = "That todo is gone."
          return .none
        }
        state.path.append(TodoDetail.State(todo: todo))
        return .none
      case .deleteTapped(let id):
        guard let todo = state.list.todos[id: id] else {
          state.list.notice = "That todo is gone."
          return .none
        }
        state.confirmation = Self.deleteConfirmation(todo)
        return .none
      case .confirmation(.presented(.delete(let id))):
        // NB: a detail screen of the deleted todo goes with it.
        if let shown = state.path.ids.first(where: { state.path[id: $0]?.id == id }) {
          state.path.pop(from: shown)
        }
        return .send(.list(.delete(id: id)))
      case .back:
        guard let top = state.path.ids.last else {
          state.list.notice = "Already at the list."
          return .none
        }
        state.path.pop(from: top)
        return .none
      case .path(.element(_, .delegate(.titleChanged(let id, let title)))):
        return .send(.list(.edit(id: id, title: title)))
      case .path(.element(_, .delegate(.notesChanged(let id, let notes)))):
        return .send(.list(.setNotes(id: id, notes: notes)))
      case .list, .path, .confirmation:
        return .none
      }
    }
    .forEach(\.path, action: Self.pathCase) { TodoDetail() }
    .ifLet(\.$confirmation, action: Self.confirmationCase)
    // NB: the list is the truth: after each of its actions (an undo, an edit, a delete by any
    // path) a detail screen shows its todo as the list has it, and goes when the todo does.
    Reduce { state, action in
      guard case .list = action else { return .none }
      Self.followList(&state)
      return .none
    }
  }

  /// Pops the detail screens whose todo left the list, and shows the list's title and notes on
  /// the others.
  static func followList(_ state: inout State) {
    if let gone = state.path.ids.first(where: { id in
      state.path[id: id].map { state.list.todos[id: $0.id] == nil } ?? false
    }) {
      state.path.pop(from: gone)
    }
    for id in state.path.ids {
      guard let screen = state.path[id: id], let todo = state.list.todos[id: screen.id] else {
        continue
      }
      if screen.title != todo.title || screen.notes != todo.notes {
        state.path[id: id] = TodoDetail.State(todo: todo)
      }
    }
  }

  /// The question asked before deleting `todo`.
  public static func deleteConfirmation(_ todo: Todo) -> ConfirmationDialogState<Confirmation> {
    ConfirmationDialogState(
      title: "Delete “\(todo.title)”?", titleVisibility: .visible,
      buttons: [
        ButtonState(role: .destructive, action: .delete(id: todo.id), label: "Delete"),
        ButtonState(role: .cancel, label: "Keep"),
      ])
  }

  static var listCase: AnyCasePath<Action, Todos.Action> {
    AnyCasePath(embed: Action.list) { if case .list(let action) = $0 { action } else { nil } }
  }
  static var pathCase: AnyCasePath<Action, StackActionOf<TodoDetail>> {
    AnyCasePath(embed: Action.path) { if case .path(let action) = $0 { action } else { nil } }
  }
  static var confirmationCase: AnyCasePath<Action, PresentationAction<Confirmation>> {
    AnyCasePath(embed: Action.confirmation) {
      if case .confirmation(let action) = $0 { action } else { nil }
    }
  }
}
