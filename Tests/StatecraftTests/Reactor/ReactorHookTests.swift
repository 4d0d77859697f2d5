import StatecraftCombine
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// `transform(state:)` and a reactor's own initial state.
  @MainActor
  @Suite struct ReactorHookTests {
    /// A form whose `canSubmit` is derived from the other fields by `transform(state:)`.
    final class SignUp: ReactorWithInitialState {
      enum Action: Sendable { case setName(String), setAge(Int), load }
      struct State: Equatable, Sendable {
        var name = ""
        var age = 0
        var canSubmit = false
      }

      func initialState() -> State { State(name: "Ada", age: 36, canSubmit: true) }

      func mutate(state: State, action: Action) -> Effect<Action> {
        switch action {
        case .load:
          return .run { send in
            await send(.setName("Grace"))
            await send(.setAge(17))
          }
        default:
          return .send(action)
        }
      }

      func reduce(state: inout State, mutation: Action) {
        switch mutation {
        case .setName(let name): state.name = name
        case .setAge(let age): state.age = age
        case .load: break
        }
      }

      func transform(state: inout State) {
        state.canSubmit = !state.name.isEmpty && state.age >= 18
      }
    }

    @Test func transformStateAdjustsTheStateAfterEveryMutation() async {
      let store = Store(initialState: SignUp.State(), reactor: SignUp())
      store.send(.setName("Ada"))
      #expect(!store.canSubmit)
      store.send(.setAge(36))
      #expect(store.canSubmit)
      await store.send(.load).finish()
      #expect(store.name == "Grace")
      #expect(!store.canSubmit)
    }

    @Test func streamsDerivedWithOperatorsSeeTheTransformedState() {
      let store = Store(initialState: SignUp.State(), reactor: SignUp())
      var submittable: [Bool] = []
      let cancellable = store.publisher.map(\.canSubmit).removeDuplicates().sink {
        submittable.append($0)
      }
      store.send(.setName("Ada"))
      store.send(.setAge(36))
      store.send(.setAge(12))
      #expect(submittable == [false, true, false])
      cancellable.cancel()
    }

    @Test func aTestStoreAssertsWhatTransformStateWrites() async {
      let store = TestStore(initialState: SignUp.State(name: "Ada"), reactor: SignUp())
      await store.send(.setAge(36)) {
        $0.age = 36
        $0.canSubmit = true
      }
    }

    @Test func aStoreStartsFromTheInitialStateTheReactorDeclares() {
      let store = Store(reactor: SignUp())
      #expect(store.name == "Ada")
      #expect(store.age == 36)
      store.send(.setAge(37))
      #expect(store.age == 37)
    }

    @Test func aStubStartsFromTheInitialStateTheReactorDeclares() async {
      let stub = Stub(reactor: SignUp())
      #expect(stub.state.name == "Ada")
      stub.store.send(.setAge(12))
      #expect(stub.actions.count == 1)
      let next = await stub.test(input: .setAge(40))
      #expect(next.age == 40)
      #expect(next.canSubmit)
    }

    @Test func aTestStoreStartsFromTheInitialStateTheReactorDeclares() async {
      let store = TestStore(reactor: SignUp())
      #expect(store.state.canSubmit)
      await store.send(.setName("")) {
        $0.name = ""
        $0.canSubmit = false
      }
    }
  }
}
