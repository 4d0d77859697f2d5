import Clocks
import ConcurrencyExtras
import Foundation
import IdentifiedCollections
import Statecraft
import StatecraftTesting
import Testing
import TodosFeature

extension Engine {
  @MainActor @Suite struct TodosTests {
    let clock = TestClock()
    /// The todo file, in memory: the list is a shared value kept in it, as the app keeps it.
    let storage = SharedStorage.inMemory()
    let url = URL(fileURLWithPath: "/data/todos.json")

    func makeStore(_ todos: IdentifiedArrayOf<Todo> = []) -> TestStoreOf<Todos> {
      let list = withSharedStorage(storage) {
        Shared(wrappedValue: TodoList(todos: todos), .fileStorage(url))
      }
      return TestStore(initialState: Todos.State(list: list)) {
        Todos()
      } withDependencies: { [clock] in
        $0.continuousClock = clock
      }
    }

    /// The todos in the file once what is pending is written; nil when it was never written.
    func savedTodos() throws -> IdentifiedArrayOf<Todo>? {
      storage.flushPendingWrites()
      return try storage.files.contents(of: url).map {
        try JSONDecoder().decode(TodoList.self, from: $0).todos
      }
    }

    let milk = Todo(id: 1, title: "Buy milk")
    let dog = Todo(id: 2, title: "Walk the dog")

    @Test func addingTrimsTheTitleRemembersTheListForUndoAndSaves() async throws {
      let store = makeStore()
      await store.send(.add("  Buy milk ")) {
        $0.todos = [milk]
        $0.nextID = 2
        $0.undoStack = [[]]
      }
      await store.finish()
      #expect(try savedTodos() == [milk])
    }

    /// The Inspector's send box and a replayed recording can send any value: the reducer keeps
    /// the sync's percent within 0...100 and its count from 0, and the sync line draws any
    /// status (a percent of 110 drew a bar of -1 cells, and crashed the app).
    @Test func anyProgressOrCountIsKeptInRangeAndAnyStatusIsDrawn() async {
      let store = makeStore()
      await store.send(.syncProgressed(percent: 110)) { $0.sync = .syncing(percent: 100) }
      await store.send(.syncProgressed(percent: .min)) { $0.sync = .syncing(percent: 0) }
      await store.send(.syncProgressed(percent: .max)) { $0.sync = .syncing(percent: 100) }
      await store.send(.syncFinished(count: -3)) { $0.sync = .synced(count: 0) }
      #expect(SyncStatus.syncing(percent: 110).line == "sync ########## 100%")
      #expect(SyncStatus.syncing(percent: -5).line == "sync .......... 0%")
      #expect(SyncStatus.syncing(percent: .min).line == "sync .......... 0%")
      #expect(SyncStatus.syncing(percent: 45).line == "sync ####...... 45%")
      #expect(SyncStatus.synced(count: .max).line == "synced \(Int.max) todos")
    }

    @Test func idsReadFromAFileNeverOverflow() async throws {
      let last = Todo(id: .max, title: "Last")
      let store = makeStore([Todo(id: 1, title: "First"), last])
      await store.send(.add("Next")) {
        $0.todos.append(Todo(id: 2, title: "Next"))
        $0.nextID = 3
        $0.undoStack = [[Todo(id: 1, title: "First"), last]]
      }
      await store.finish()
      #expect(try savedTodos()?.ids.elements == [1, .max, 2])
    }

    @Test func aTodoWithoutATitleIsRefusedWithANotice() async throws {
      let store = makeStore()
      await store.send(.add("   ")) { $0.notice = "A todo needs a title." }
      await store.send(.setFilter(.done)) {
        $0.notice = nil
        $0.filter = .done
      }
      #expect(try savedTodos() == nil)
    }

    @Test func aTitleOrNotesOverTheLimitAreRefusedWithANoticeAndNotSaved() async throws {
      let store = makeStore([milk])
      let long = String(repeating: "é", count: Todo.titleLimit + 1)
      let refused = "A title may be at most 1000 characters; this one has 1001. It was not saved."
      await store.send(.add(long)) { $0.notice = refused }
      await store.send(.edit(id: 1, title: long))
      await store.send(.setNotes(id: 1, notes: String(repeating: "x", count: Todo.notesLimit + 1)))
      {
        $0.notice = "Notes may be at most 10000 characters; these have 10001. They were not saved."
      }
      let longest = String(repeating: "é", count: Todo.titleLimit)
      await store.send(.add(longest)) {
        $0.notice = nil
        $0.todos.append(Todo(id: 2, title: longest))
        $0.nextID = 3
        $0.undoStack = [[milk]]
      }
      await store.finish()
      #expect(try savedTodos() == [milk, Todo(id: 2, title: longest)])
    }

    @Test func toggleEditAndDeleteChangeOneTodoEach() async throws {
      let store = makeStore([milk, dog])
      await store.send(.toggle(id: 1)) {
        $0.todos[id: 1]?.isDone = true
        $0.undoStack = [[milk, dog]]
      }
      await store.send(.edit(id: 2, title: "Walk the cat")) {
        $0.todos[id: 2]?.title = "Walk the cat"
        $0.undoStack.append([Todo(id: 1, title: "Buy milk", isDone: true), dog])
      }
      await store.send(.delete(id: 1)) {
        $0.undoStack.append($0.todos)
        $0.todos.remove(id: 1)
      }
      await store.send(.toggle(id: 1)) { $0.notice = "That todo is gone." }
      await store.finish()
      #expect(try savedTodos() == [Todo(id: 2, title: "Walk the cat")])
    }

    @Test func undoAndRedoWalkTheHistoryAndSaveEachStep() async throws {
      let store = makeStore()
      await store.send(.undo) { $0.notice = "Nothing to undo." }
      await store.send(.add("Buy milk")) {
        $0.notice = nil
        $0.todos = [milk]
        $0.nextID = 2
        $0.undoStack = [[]]
      }
      await store.send(.undo) {
        $0.todos = []
        $0.undoStack = []
        $0.redoStack = [[milk]]
      }
      await store.send(.redo) {
        $0.todos = [milk]
        $0.undoStack = [[]]
        $0.redoStack = []
      }
      await store.send(.redo) { $0.notice = "Nothing to redo." }
      await store.finish()
      #expect(try savedTodos() == [milk])
    }

    @Test func aNewChangeClearsRedoAndUndoIsBounded() async {
      var state = Todos.State()
      let reducer = Todos()
      for index in 0..<(Todos.undoLimit + 5) {
        _ = reducer.reduce(into: &state, action: .add("\(index)"))
      }
      #expect(state.undoStack.count == Todos.undoLimit)
      _ = reducer.reduce(into: &state, action: .undo)
      #expect(state.redoStack.count == 1)
      _ = reducer.reduce(into: &state, action: .add("new"))
      #expect(state.redoStack.isEmpty)
    }

    @Test func theUndoHistoryOfABigListKeepsABoundedNumberOfTodos() {
      // 100,000 todos: a hundred earlier lists would hold ten million todos.
      let count = 100_000
      var state = Todos.State(
        todos: IdentifiedArray(uniqueElements: (1...count).map { Todo(id: $0, title: "\($0)") }))
      let reducer = Todos()
      for id in 1...12 {
        _ = reducer.reduce(into: &state, action: .toggle(id: id))
      }
      let kept = state.undoStack.reduce(0) { $0 + $1.count }
      #expect(kept <= Todos.undoTodoLimit)
      #expect(state.undoStack.count == Todos.undoTodoLimit / count)
      _ = reducer.reduce(into: &state, action: .undo)
      #expect(state.todos[id: 12]?.isDone == false)
      #expect(state.todos[id: 11]?.isDone == true)
    }

    @Test func theSearchAppliesOnceTypingPauses() async {
      let store = makeStore([milk, dog])
      await store.send(.searchChanged("d")) { $0.query = "d" }
      await clock.advance(by: .milliseconds(200))
      await store.send(.searchChanged("do")) { $0.query = "do" }
      await clock.advance(by: .milliseconds(200))
      await store.send(.searchChanged("dog")) { $0.query = "dog" }
      await clock.advance(by: Todos.searchDebounce)
      await store.receive(.searchApplied("dog")) { $0.appliedQuery = "dog" }
      #expect(store.state.visible == [dog])
      await store.finish()
    }

    @Test func theFilterAndTheSearchTogetherPickTheVisibleTodos() {
      var state = Todos.State(todos: [Todo(id: 1, title: "Buy milk", isDone: true), dog])
      #expect(state.visible.map(\.id) == [1, 2])
      state.filter = .active
      #expect(state.visible.map(\.id) == [2])
      state.filter = .done
      #expect(state.visible.map(\.id) == [1])
      state.filter = .all
      state.appliedQuery = "MILK"
      #expect(state.visible.map(\.id) == [1])
      #expect(state.remaining == 1)
    }

    @Test func aSyncShowsItsProgressAndFinishes() async {
      let store = makeStore([milk])
      await store.send(.syncTapped) { $0.sync = .syncing(percent: 0) }
      await store.send(.syncTapped) { $0.notice = "Already syncing." }
      await clock.advance(by: Todos.syncStep)
      await store.receive(.syncProgressed(percent: 10)) {
        $0.notice = nil
        $0.sync = .syncing(percent: 10)
      }
      await clock.advance(by: Todos.syncStep * 9)
      for percent in stride(from: 20, through: 90, by: 10) {
        await store.receive(.syncProgressed(percent: percent)) {
          $0.sync = .syncing(percent: percent)
        }
      }
      await store.receive(.syncFinished(count: 1)) { $0.sync = .synced(count: 1) }
      await store.finish()
    }

    @Test func theSyncGoesThroughTheSyncClientGivenToTheStore() async {
      let synced = LockIsolated<[[Todo]]>([])
      let list = withSharedStorage(storage) {
        Shared(wrappedValue: TodoList(todos: [milk]), .fileStorage(url))
      }
      let store = TestStore(initialState: Todos.State(list: list)) {
        Todos()
      } withDependencies: {
        $0.syncClient = SyncClient { todos, progress in
          synced.withValue { $0.append(todos) }
          await progress(50)
          return 7
        }
      }
      await store.send(.syncTapped) { $0.sync = .syncing(percent: 0) }
      await store.receive(.syncProgressed(percent: 50)) { $0.sync = .syncing(percent: 50) }
      await store.receive(.syncFinished(count: 7)) { $0.sync = .synced(count: 7) }
      await store.finish()
      #expect(synced.value == [[milk]])
    }

    @Test func aSyncCanBeCancelledAndSendsNothingMore() async {
      let store = makeStore([milk])
      await store.send(.cancelSyncTapped) { $0.notice = "No sync to cancel." }
      await store.send(.syncTapped) {
        $0.notice = nil
        $0.sync = .syncing(percent: 0)
      }
      await clock.advance(by: Todos.syncStep)
      await store.receive(.syncProgressed(percent: 10)) { $0.sync = .syncing(percent: 10) }
      await store.send(.cancelSyncTapped) { $0.sync = .cancelled }
      await clock.run()
      await store.finish()
    }

    @Test func quittingStopsTheSyncAndTheSearchAndTheListIsStillWritten() async throws {
      let store = makeStore()
      await store.send(.add("Buy milk")) {
        $0.todos = [milk]
        $0.nextID = 2
        $0.undoStack = [[]]
      }
      await store.send(.syncTapped) { $0.sync = .syncing(percent: 0) }
      await store.send(.searchChanged("milk")) { $0.query = "milk" }
      await store.send(.quit) { $0.sync = .cancelled }
      await clock.run()
      await store.finish()
      #expect(try savedTodos() == [milk])
    }

    @Test func aFailedSaveIsSaidInTheAppsWords() async {
      let store = makeStore()
      let message = TodoFileError(FileStorageError.readOnly(path: "/data/todos.json")).description
      #expect(message.hasPrefix("Could not save the todo file /data/todos.json: it is read-only"))
      await store.send(.saveFailed(message)) { $0.notice = message }
    }
  }
}
