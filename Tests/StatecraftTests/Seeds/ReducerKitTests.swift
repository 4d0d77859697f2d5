import ConcurrencyExtras
import Testing

@testable import Statecraft

/// The examples of the ReducerKit README (the Reducer + Effect idiom), ported: the same
/// reducers, written the same way, on Statecraft. The README's network calls are replaced by
/// injected closures so the tests are deterministic.
extension Engine {
  @MainActor
  @Suite struct ReducerKitTests {
    struct CounterReducer: Reducer {
      struct State: Equatable {
        var count: Int = 0
        var isLoading: Bool = false
        var numberFact: String?
      }

      enum Action: Sendable {
        case increment
        case decrement
        case numberFactButtonTapped
        case numberFactResponse(String)
      }

      struct FactError: Error {}
      var fact: @Sendable (Int) async throws -> String = { "\($0) is a good number." }

      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .increment:
          state.count += 1
          return .none
        case .decrement:
          state.count -= 1
          return .none
        case .numberFactButtonTapped:
          state.isLoading = true
          state.numberFact = nil
          return .run { [count = state.count, fact] send in
            do {
              await send(.numberFactResponse(try await fact(count)))
            } catch {
              await send(.numberFactResponse("Failed to load the fact"))
            }
          }
        case .numberFactResponse(let fact):
          state.isLoading = false
          state.numberFact = fact
          return .none
        }
      }
    }

    struct Todo: Equatable, Identifiable, Sendable {
      let id: Int
      var title: String
      var isCompleted = false
    }

    struct TodosReducer: Reducer {
      struct State: Equatable {
        var todos: [Todo] = []
        var isLoading: Bool = false
        var error: String?
      }

      enum Action: Sendable {
        case loadTodos
        case todosLoaded(Result<[Todo], any Error>)
        case addTodo(String)
        case todoAdded(Todo)
        case toggleTodo(Todo.ID)
      }

      var fetchTodos: @Sendable () async -> Result<[Todo], any Error>
      var createTodo: @Sendable (String) async -> Todo

      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .loadTodos:
          state.isLoading = true
          state.error = nil
          return .run { [fetchTodos] send in
            await send(.todosLoaded(await fetchTodos()))
          }
        case .todosLoaded(.success(let todos)):
          state.isLoading = false
          state.todos = todos
          return .none
        case .todosLoaded(.failure(let error)):
          state.isLoading = false
          state.error = "\(error)"
          return .none
        case .addTodo(let title):
          return .run { [createTodo] send in
            await send(.todoAdded(await createTodo(title)))
          }
        case .todoAdded(let todo):
          state.todos.append(todo)
          return .none
        case .toggleTodo(let id):
          guard let index = state.todos.firstIndex(where: { $0.id == id }) else {
            return .none
          }
          state.todos[index].isCompleted.toggle()
          return .none
        }
      }
    }

    // MARK: - The README's reducer unit tests

    @Test func increment() {
      var state = CounterReducer.State(count: 0)
      let effect = CounterReducer().reduce(into: &state, action: .increment)
      #expect(state.count == 1)
      #expect(effect.isNone)
    }

    @Test func decrement() {
      var state = CounterReducer.State(count: 5)
      let effect = CounterReducer().reduce(into: &state, action: .decrement)
      #expect(state.count == 4)
      #expect(effect.isNone)
    }

    @Test func numberFactRequest() {
      var state = CounterReducer.State(count: 42)
      let effect = CounterReducer().reduce(into: &state, action: .numberFactButtonTapped)
      #expect(state.isLoading)
      #expect(state.numberFact == nil)
      #expect(!effect.isNone)
    }

    // MARK: - The README's features run in a store (the part ReducerKit could not test)

    @Test func counterLoadsAFactThroughItsEffect() async {
      let store = Store(initialState: CounterReducer.State(), reducer: CounterReducer())
      store.send(.increment)
      store.send(.increment)
      let task = store.send(.numberFactButtonTapped)
      #expect(store.state.isLoading)
      await task.finish()
      #expect(store.state.isLoading == false)
      #expect(store.state.numberFact == "2 is a good number.")
    }

    @Test func counterShowsAFailedFact() async {
      let store = Store(
        initialState: CounterReducer.State(),
        reducer: CounterReducer(fact: { _ in throw CounterReducer.FactError() }))
      await store.send(.numberFactButtonTapped).finish()
      #expect(store.numberFact == "Failed to load the fact")
    }

    @Test func todosLoadAddAndToggle() async {
      struct Offline: Error {}
      let nextID = LockIsolated(3)
      let store = Store(
        initialState: TodosReducer.State(),
        reducer: TodosReducer(
          fetchTodos: { .success([Todo(id: 1, title: "Write"), Todo(id: 2, title: "Test")]) },
          createTodo: { title in
            Todo(
              id: nextID.withValue {
                $0 += 1; return $0
              }, title: title)
          }
        ))
      await store.send(.loadTodos).finish()
      #expect(store.todos.map(\.title) == ["Write", "Test"])
      await store.send(.addTodo("Ship")).finish()
      #expect(store.todos.last == Todo(id: 4, title: "Ship"))
      store.send(.toggleTodo(2))
      #expect(store.todos.map(\.isCompleted) == [false, true, false])
      store.send(.toggleTodo(99))
      #expect(store.todos.map(\.isCompleted) == [false, true, false])

      let failing = Store(
        initialState: TodosReducer.State(),
        reducer: TodosReducer(
          fetchTodos: { .failure(Offline()) }, createTodo: { _ in fatalError() })
      )
      await failing.send(.loadTodos).finish()
      #expect(failing.error == "Offline()")
      #expect(failing.isLoading == false)
    }

    @Test func aStoreReleasedWhileLoadingCancelsTheLoad() async {
      // ReducerKit's fault: nothing is cancelled when the store goes away.
      let started = Gate()
      let finished = LockIsolated(false)
      var store: Store<TodosReducer.State, TodosReducer.Action>? = Store(
        initialState: TodosReducer.State(),
        reducer: TodosReducer(
          fetchTodos: {
            started.open()
            do {
              try await Task.never()
            } catch {}
            finished.setValue(Task.isCancelled)
            return .success([])
          },
          createTodo: { _ in fatalError() }
        ))
      let task = store?.send(.loadTodos)
      await started.wait()
      store = nil
      await task?.finish()
      #expect(finished.value)
    }
  }
}
