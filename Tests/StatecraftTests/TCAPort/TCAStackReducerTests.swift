import CasePaths
import Clocks
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// The Composable Architecture's `StackReducerTests` that use `StackState[id:case:]` (issue
  /// 27), ported to Statecraft's spelling: the clock is the reducer's property, and ids are read
  /// from the stack (`store.state.path.ids`) instead of written as literals.
  @MainActor
  @Suite struct TCAStackReducerTests {
    @CasePathable
    enum IntOrText: Equatable {
      case int(Int)
      case text(String)
    }

    @Test func stackStateSubscriptCase() {
      var stack = StackState<IntOrText>([.int(42)])
      let id = stack.ids[0]
      stack[id: id, case: \.int]? += 1
      #expect(stack[id: id] == .int(43))
      #expect(stack.ids == [id])

      stack[id: id, case: \.int] = nil
      #expect(stack.isEmpty)
    }

    @Test func stackStateSubscriptCaseUnexpected() {
      var stack = StackState<IntOrText>([.int(42)])
      let id = stack.ids[0]

      withKnownIssue {
        stack[id: id, case: \.text]?.append("!")
      } matching: {
        $0.description.contains(#"Can't modify unrelated case "int""#)
      }
      withKnownIssue {
        stack[id: id, case: \.text] = nil
      } matching: {
        $0.description.contains(#"Can't modify unrelated case "int""#)
      }
      #expect(Array(stack) == [.int(42)])
    }

    struct Child: Reducer {
      let id: Int
      let clock: TestClock<Duration>
      struct State: Equatable {
        var count = 0
      }
      enum Action: Equatable {
        case response(Int)
        case tap
      }
      var body: some Reducer<State, Action> {
        Reduce { state, action in
          switch action {
          case .response(let value):
            state.count += value
            return .none
          case .tap:
            return .run { [id, clock] send in
              try await clock.sleep(for: .seconds(id))
              await send(.response(id))
            }
          }
        }
      }
    }

    struct Path: Reducer {
      @CasePathable
      enum State: Equatable {
        case child1(Child.State)
        case child2(Child.State)
      }
      @CasePathable
      enum Action: Equatable {
        case child1(Child.Action)
        case child2(Child.Action)
      }
      let clock: TestClock<Duration>
      var body: some Reducer<State, Action> {
        Scope(state: \.child1, action: \.child1) { Child(id: 1, clock: clock) }
        Scope(state: \.child2, action: \.child2) { Child(id: 2, clock: clock) }
      }
    }

    struct Parent: Reducer {
      struct State: Equatable {
        var path = StackState<Path.State>()
      }
      @CasePathable
      enum Action: Equatable {
        case path(StackAction<Path.State, Path.Action>)
        case popAll
        case popFirst
      }
      let clock: TestClock<Duration>
      var body: some Reducer<State, Action> {
        Reduce { state, action in
          switch action {
          case .path:
            return .none
          case .popAll:
            state.path = StackState()
            return .none
          case .popFirst:
            state.path[id: state.path.ids[0]] = nil
            return .none
          }
        }
        .forEach(\.path, action: \.path) { Path(clock: clock) }
      }
    }

    @Test func firstChildWhileEffectInFlightDeliversToCorrectID() async {
      let clock = TestClock()
      let store = TestStore(
        initialState: Parent.State(
          path: StackState([.child1(Child.State()), .child2(Child.State())]))
      ) {
        Parent(clock: clock)
      }
      let first = store.state.path.ids[0]
      let second = store.state.path.ids[1]

      await store.send(.path(.element(id: first, action: .child1(.tap))))
      await store.send(.path(.element(id: second, action: .child2(.tap))))
      await clock.advance(by: .seconds(1))
      await store.receive(.path(.element(id: first, action: .child1(.response(1))))) {
        $0.path[id: first, case: \.child1]?.count = 1
      }
      await clock.advance(by: .seconds(1))
      await store.receive(.path(.element(id: second, action: .child2(.response(2))))) {
        $0.path[id: second, case: \.child2]?.count = 2
      }

      await store.send(.path(.element(id: first, action: .child1(.tap))))
      await store.send(.path(.element(id: second, action: .child2(.tap))))
      await store.send(.popFirst) {
        $0.path[id: first] = nil
      }
      await clock.advance(by: .seconds(2))
      await store.receive(.path(.element(id: second, action: .child2(.response(2))))) {
        $0.path[id: second, case: \.child2]?.count = 4
      }
      await store.send(.popFirst) {
        $0.path[id: second] = nil
      }
    }
  }
}
