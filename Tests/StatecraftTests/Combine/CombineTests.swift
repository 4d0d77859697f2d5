import StatecraftCombine
import Testing

@testable import Statecraft

extension Engine {
  @MainActor
  @Suite struct CombineTests {
    @Test func anEffectFromAPublisherSendsEveryValueInOrder() async {
      let store = Store(initialState: [Int]()) {
        Reduce<[Int], Int> { state, action in
          guard action == 0 else {
            state.append(action)
            return .none
          }
          return .publisher([1, 2, 3].publisher)
        }
      }
      await store.send(0).finish()
      #expect(store.state == [1, 2, 3])
    }

    @Test func cancellingAPublisherEffectCancelsItsSubscription() async {
      let subject = PassthroughSubject<Int, Never>()
      let store = Store(initialState: [Int]()) {
        Reduce<[Int], Int> { state, action in
          switch action {
          case 0: return .publisher(subject).cancellable(id: "subject")
          case -1: return .cancel(id: "subject")
          default:
            state.append(action)
            return .none
          }
        }
      }
      let task = store.send(0)
      await store.wait(while: { _ in store.runningEffectCount == 0 })
      store.send(-1)
      await task.finish()
      subject.send(5)
      #expect(store.state == [])
      #expect(store.runningEffectCount == 0)
    }

    @Test func theStorePublisherReplaysTheCurrentStateThenEachPublishedOne() {
      let store = Store(initialState: Counter.State()) { Counter() }
      store.send(.increment)
      var counts: [Int] = []
      let cancellable = store.publisher.map(\.count).sink { counts.append($0) }
      store.send(.increment)
      store.send(.incrementThrice)
      #expect(counts == [1, 2, 5])
      cancellable.cancel()
      store.send(.increment)
      #expect(counts == [1, 2, 5])
    }

    @Test func theStorePublisherCompletesWhenTheStoreIsReleased() {
      var store: StoreOf<Counter>? = Store(initialState: Counter.State()) { Counter() }
      var completed = false
      let cancellable = store!.publisher.sink(
        receiveCompletion: { _ in completed = true }, receiveValue: { _ in })
      store = nil
      #expect(completed)
      cancellable.cancel()
    }

    final class CounterViewModel: PublisherReactor {
      enum Action: Sendable { case increase, decrease }
      enum Mutation: Sendable { case counterValueUpdated(Int) }
      struct State: Equatable { var counterValue = 0 }

      func mutate(state: State, action: Action) -> AnyPublisher<Mutation, Never> {
        switch action {
        case .increase: Just(.counterValueUpdated(state.counterValue + 1)).eraseToAnyPublisher()
        case .decrease: Just(.counterValueUpdated(state.counterValue - 1)).eraseToAnyPublisher()
        }
      }

      func reduce(state: inout State, mutation: Mutation) {
        switch mutation {
        case .counterValueUpdated(let value): state.counterValue = value
        }
      }
    }

    @Test func aReactorWhoseMutateReturnsAPublisher() async {
      let store = Store(initialState: CounterViewModel.State(), reactor: CounterViewModel())
      await store.send(.increase).finish()
      await store.send(.increase).finish()
      await store.send(.decrease).finish()
      #expect(store.counterValue == 1)
    }
  }
}
