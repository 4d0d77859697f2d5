import Foundation
import IdentifiedCollections
import Statecraft

/// The todo list feature: add, edit, toggle, delete, filter, undo and redo, a debounced search,
/// a slow sync with progress that can be cancelled.
///
/// The list is a shared value (``State/list``): the app keeps it in a file, whose writes,
/// conflicts and outside edits the file key handles, so the feature has no save effect. Its clock
/// (the search debounce) and its sync are dependencies, `continuousClock` and ``SyncClient``;
/// tests give it a list of their own and set the clock to a `TestClock`:
///
/// ```swift
/// let list = Shared(wrappedValue: TodoList(), .fileStorage(TodoList.defaultURL()))
/// let store = Store(initialState: Todos.State(list: list)) {
///   Todos()
/// }
/// store.send(.add("Buy milk"))  // the file is written soon after
/// ```
public struct Todos: Reducer {
  public struct State: Codable, Equatable, Sendable {
    /// The list, shared with whatever else holds it: the app's todo file, a detail screen.
    public var list: Shared<TodoList>
    /// The todos of ``list``.
    public var todos: IdentifiedArrayOf<Todo> {
      get { list.todos }
      set { list.todos = newValue }
    }
    public var filter: TodoFilter = .all
    /// The search text as typed.
    public var query = ""
    /// The search text the list is filtered by: `query` once typing paused.
    public var appliedQuery = ""
    /// Earlier lists, most recent last; `undo` goes back to the last one.
    public var undoStack: [IdentifiedArrayOf<Todo>] = []
    public var redoStack: [IdentifiedArrayOf<Todo>] = []
    public var sync: SyncStatus = .idle
    /// A short message for the person: a hint, or why the file could not be saved.
    public var notice: String?
    public var nextID: Int

    /// A state over a list of its own (not kept in any file).
    public init(todos: IdentifiedArrayOf<Todo> = []) {
      self.init(list: Shared(value: TodoList(todos: todos)))
    }

    /// A state over `list`, which the app keeps in its todo file.
    public init(list: Shared<TodoList>) {
      self.list = list
      let todos = list.todos
      // NB: ids come from a file, so the largest may be Int.max: the next one then wraps to 1,
      // and `takeID()` skips the ids in use.
      let largest = todos.ids.max() ?? 0
      self.nextID = largest == .max ? 1 : largest + 1
    }

    /// An id no todo has: `nextID` when it is free, else the smallest free positive id.
    mutating func takeID() -> Int {
      var id = nextID
      if id <= 0 || todos[id: id] != nil {
        let used = Set(todos.ids)
        id = 1
        while used.contains(id) { id += 1 }
      }
      nextID = id == .max ? 1 : id + 1
      return id
    }

    /// The todos the list shows: those the filter and the applied search let through.
    public var visible: [Todo] {
      // NB: the list may hold 100,000 todos: no copy when everything shows, and the query is
      // lowercased once, not once per todo.
      if filter == .all, appliedQuery.isEmpty { return todos.elements }
      let query = appliedQuery.localizedLowercase
      return todos.filter { todo in
        filter.shows(todo) && (query.isEmpty || todo.title.localizedLowercase.contains(query))
      }
    }

    /// How many todos are not done.
    public var remaining: Int { todos.count { !$0.isDone } }
  }

  public enum Action: Codable, Equatable, Sendable {
    case add(String)
    case edit(id: Int, title: String)
    /// Replaces a todo's notes (the detail screen's second field).
    case setNotes(id: Int, notes: String)
    case toggle(id: Int)
    case delete(id: Int)
    case setFilter(TodoFilter)
    case undo
    case redo
    case searchChanged(String)
    case searchApplied(String)
    case syncTapped
    case cancelSyncTapped
    case syncProgressed(percent: Int)
    case syncFinished(count: Int)
    /// The todo file could not be saved: the app says why (see `TodoFileError`).
    case saveFailed(String)
    /// The app is about to quit: stops the sync and the search.
    case quit
  }

  /// How many earlier lists `undo` can go back to.
  public static let undoLimit = 100
  /// How many todos the earlier lists may hold in all: a list of 100,000 todos can go back 10
  /// steps, so that its history stays near 40 MB instead of 400.
  public static let undoTodoLimit = 1_000_000
  /// How long typing must pause before the search applies.
  public static let searchDebounce = Duration.milliseconds(300)
  /// The sync's steps: ten of this duration each.
  public static let syncStep = Duration.milliseconds(150)

  enum CancelID { case search, sync }

  /// Times the search debounce (and, through ``SyncClient``, the sync's steps).
  @Dependency(\.continuousClock) var clock
  /// Where the list is synced to.
  @Dependency(\.syncClient) var syncClient

  /// The feature; its clock and sync client are dependencies.
  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.notice = nil
    switch action {
    case .add(let title):
      let title = title.trimmingCharacters(in: .whitespaces)
      guard !title.isEmpty else {
        state.notice = "A todo needs a title."
        return .none
      }
      if let refusal = Self.refusal(ofTitle: title) {
        state.notice = refusal
        return .none
      }
      let id = state.takeID()
      return change(&state) { $0.append(Todo(id: id, title: title)) }

    case .edit(let id, let title):
      let title = title.trimmingCharacters(in: .whitespaces)
      guard state.todos[id: id] != nil else { return missing(&state) }
      guard !title.isEmpty else {
        state.notice = "A todo needs a title."
        return .none
      }
      if let refusal = Self.refusal(ofTitle: title) {
        state.notice = refusal
        return .none
      }
      return change(&state) { $0[id: id]?.title = title }

    case .setNotes(let id, let notes):
      guard state.todos[id: id] != nil else { return missing(&state) }
      if notes.count > Todo.notesLimit {
        state.notice = """
          Notes may be at most \(Todo.notesLimit) characters; these have \(notes.count). \
          They were not saved.
          """
        return .none
      }
      return change(&state) { $0[id: id]?.notes = notes }

    case .toggle(let id):
      guard state.todos[id: id] != nil else { return missing(&state) }
      return change(&state) { $0[id: id]?.isDone.toggle() }

    case .delete(let id):
      guard state.todos[id: id] != nil else { return missing(&state) }
      return change(&state) { $0.remove(id: id) }

    case .setFilter(let filter):
      state.filter = filter
      return .none

    case .undo:
      return restore(&state, from: \.undoStack, keepingCurrentIn: \.redoStack, or: "undo")

    case .redo:
      return restore(&state, from: \.redoStack, keepingCurrentIn: \.undoStack, or: "redo")

    case .searchChanged(let query):
      state.query = query
      return Effect.send(.searchApplied(query))
        .debounce(id: CancelID.search, for: Self.searchDebounce, clock: clock)

    case .searchApplied(let query):
      state.appliedQuery = query
      return .none

    case .syncTapped:
      guard !state.sync.isSyncing else {
        state.notice = "Already syncing."
        return .none
      }
      state.sync = .syncing(percent: 0)
      let todos = Array(state.todos)
      return .run { [syncClient] send in
        let count = try await syncClient.sync(todos) { await send(.syncProgressed(percent: $0)) }
        await send(.syncFinished(count: count))
      }
      .cancellable(id: CancelID.sync)

    case .cancelSyncTapped:
      guard state.sync.isSyncing else {
        state.notice = "No sync to cancel."
        return .none
      }
      state.sync = .cancelled
      return .cancel(id: CancelID.sync)

    case .syncProgressed(let percent):
      // NB: the action can come from anywhere (the Inspector's send box, a recording), so any
      // `Int` is taken, and kept within 0...100.
      state.sync = .syncing(percent: min(max(percent, 0), 100))
      return .none

    case .syncFinished(let count):
      state.sync = .synced(count: max(count, 0))
      return .none

    case .saveFailed(let message):
      state.notice = message
      return .none

    case .quit:
      if state.sync.isSyncing { state.sync = .cancelled }
      return .merge(.cancel(id: CancelID.sync), .cancel(id: CancelID.search))
    }
  }

  /// Applies a change to the list and remembers the list before it for undo. (The shared list
  /// saves itself.)
  private func change(
    _ state: inout State, _ body: (inout IdentifiedArrayOf<Todo>) -> Void
  ) -> Effect<Action> {
    let before = state.todos
    body(&state.todos)
    guard state.todos != before else { return .none }
    state.undoStack.append(before)
    var kept = state.undoStack.reduce(0) { $0 + $1.count }
    while state.undoStack.count > Self.undoLimit
      || (state.undoStack.count > 1 && kept > Self.undoTodoLimit)
    {
      kept -= state.undoStack.removeFirst().count
    }
    state.redoStack.removeAll()
    return .none
  }

  /// Goes back (or forward) to the last list of `history`, keeping the current one in `other`.
  private func restore(
    _ state: inout State,
    from history: WritableKeyPath<State, [IdentifiedArrayOf<Todo>]>,
    keepingCurrentIn other: WritableKeyPath<State, [IdentifiedArrayOf<Todo>]>,
    or verb: String
  ) -> Effect<Action> {
    guard let list = state[keyPath: history].popLast() else {
      state.notice = "Nothing to \(verb)."
      return .none
    }
    state[keyPath: other].append(state.todos)
    state.todos = list
    return .none
  }

  /// Why `title` can't be a todo's title, or nil when it can.
  private static func refusal(ofTitle title: String) -> String? {
    guard title.count > Todo.titleLimit else { return nil }
    return """
      A title may be at most \(Todo.titleLimit) characters; this one has \(title.count). \
      It was not saved.
      """
  }

  private func missing(_ state: inout State) -> Effect<Action> {
    state.notice = "That todo is gone."
    return .none
  }
}

extension SyncStatus {
  /// True while a sync runs.
  public var isSyncing: Bool {
    if case .syncing = self { return true }
    return false
  }

  /// The line the apps show for the sync, or nil when none ran: a bar of ten cells while it
  /// runs.
  ///
  /// Any status gives a line, even one no reducer makes (a percent outside 0...100, a negative
  /// count, from a recording's state): the bar is drawn from the percent kept within 0...100.
  public var line: String? {
    switch self {
    case .idle: return nil
    case .syncing(let percent):
      let shown = min(max(percent, 0), 100)
      let filled = shown / 10
      return
        "sync \(String(repeating: "#", count: filled))\(String(repeating: ".", count: 10 - filled)) \(shown)%"
    case .synced(let count): return "synced \(count) todo\(count == 1 ? "" : "s")"
    case .cancelled: return "sync cancelled"
    }
  }
}
