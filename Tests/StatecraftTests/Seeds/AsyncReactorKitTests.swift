import ConcurrencyExtras
import Testing

@testable import Statecraft

/// The examples of the AsyncReactorKit README (Input → Mutation → State, `@Pulse`, a UIKit
/// `Store` that renders with `state.$x.updated {}`, `Stub` tests), ported to Statecraft's
/// ``Reactor``, and proof that AsyncReactorKit's faults (no actor isolation, sends out of order,
/// lost updates, state in a global table keyed by object address, `Pulse` as a class) don't
/// happen here.
extension Engine {
  @MainActor
  @Suite struct AsyncReactorKitTests {
    /// The README's `CounterReactor`. AsyncReactorKit's `reduce(_ input:) async -> Mutation`
    /// (exactly one mutation per input) is `mutate(state:action:)`: `.send` for an input whose
    /// mutation is known at once, `.run` sending one mutation for async work. Its
    /// `mutate(_:mutation:) -> State` is `reduce(state:mutation:)`.
    final class CounterReactor: Reactor {
      /// AsyncReactorKit's `Input`.
      enum Action: Sendable {
        case increment
        case decrement
        case reset
        /// Async input: the count comes from a server.
        case sync
      }

      enum Mutation: Sendable {
        case setCount(Int)
      }

      struct State: Sendable, Equatable {
        @Pulse var count: Int = 0
        @Pulse var message: String? = nil
      }

      let serverCount: @Sendable () async -> Int

      init(serverCount: @escaping @Sendable () async -> Int = { 42 }) {
        self.serverCount = serverCount
      }

      nonisolated func initialState() -> State {
        State()
      }

      func mutate(state: State, action: Action) -> Effect<Mutation> {
        switch action {
        case .increment:
          return .send(.setCount(state.count + 1))
        case .decrement:
          return .send(.setCount(state.count - 1))
        case .reset:
          return .send(.setCount(0))
        case .sync:
          return .run { [serverCount] send in
            await send(.setCount(await serverCount()))
          }
        }
      }

      func reduce(state: inout State, mutation: Mutation) {
        switch mutation {
        case .setCount(let count):
          state.count = count
          state.message = "Count updated to \(count)"
        }
      }
    }

    typealias CounterStore = ReactorStoreOf<CounterReactor>

    /// The README's UIKit `CounterViewController` (AsyncReactorKit's `Store` protocol is
    /// Statecraft's ``StateSubscriber``): labels and alerts are recorded instead of drawn.
    final class CounterViewController: StateSubscriber {
      let store: CounterStore
      /// `countLabel.text`.
      private(set) var countLabel: String?
      /// Every value the count pulse delivered, in order.
      private(set) var renderedCounts: [Int] = []
      /// `showAlert(_:)`.
      private(set) var alerts: [String] = []
      private(set) var stateCallbacks = 0

      init(store: CounterStore) {
        self.store = store
        store.subscribe(self)
      }

      func incrementTapped() { store.send(.increment) }
      func decrementTapped() { store.send(.decrement) }

      func state(_ state: CounterReactor.State) {
        // AsyncReactorKit called `state(_:)` off the main thread. Here the callback is isolated
        // to the main actor statically (`StateSubscriber` is `@MainActor`) and at run time: a call
        // from anywhere else stops the test run.
        MainActor.preconditionIsolated("state(_:) was called off the main actor")
        stateCallbacks += 1
        state.$count.updated { [weak self] count in
          self?.countLabel = "\(count)"
          self?.renderedCounts.append(count)
        }
        state.$message.updated { [weak self] message in
          guard let message else { return }
          self?.alerts.append(message)
        }
      }
    }

    /// AsyncReactorKit's `Stub`: runs one input and returns the new state.
    @MainActor
    struct Stub {
      let store: CounterStore

      init(reactor: CounterReactor) {
        store = Store(initialState: reactor.initialState(), reactor: reactor)
      }

      func test(input: CounterReactor.Action) async -> CounterReactor.State {
        await store.send(input).finish()
        return store.state
      }
    }

    // MARK: - The README

    @Test func theStubRunsOneInputAndReturnsTheNewState() async {
      let stub = Stub(reactor: CounterReactor(serverCount: { 42 }))

      let incremented = await stub.test(input: .increment)
      #expect(incremented.count == 1)
      #expect(incremented.message == "Count updated to 1")

      let decremented = await stub.test(input: .decrement)
      #expect(decremented.count == 0)

      // An async input: `finish()` returns once its one mutation has been applied.
      let synced = await stub.test(input: .sync)
      #expect(synced.count == 42)
      #expect(synced.message == "Count updated to 42")

      let reset = await stub.test(input: .reset)
      #expect(reset.count == 0)
    }

    @Test func theViewControllerRendersEachPulseButNotTheInitialState() {
      let reactor = CounterReactor()
      let viewController = CounterViewController(
        store: Store(initialState: reactor.initialState(), reactor: reactor))
      #expect(viewController.stateCallbacks == 1)
      #expect(viewController.countLabel == nil)
      #expect(viewController.alerts == [])

      viewController.incrementTapped()
      #expect(viewController.countLabel == "1")
      #expect(viewController.alerts == ["Count updated to 1"])

      viewController.decrementTapped()
      #expect(viewController.countLabel == "0")
      #expect(viewController.alerts == ["Count updated to 1", "Count updated to 0"])
      #expect(viewController.stateCallbacks == 3)
    }

    @Test func updatedFiresOnEveryAssignmentEvenOfAnEqualValueAndNeverAtInit() {
      var state = CounterReactor.State()
      var fired: [Int] = []
      state.$count.updated { fired.append($0) }
      #expect(fired == [])
      state.count = 0
      state.$count.updated { fired.append($0) }
      #expect(fired == [0])

      let reactor = CounterReactor()
      let store = Store(initialState: reactor.initialState(), reactor: reactor)
      let viewController = CounterViewController(store: store)
      store.send(.reset)
      store.send(.reset)
      #expect(viewController.renderedCounts == [0, 0])
      #expect(viewController.alerts == ["Count updated to 0", "Count updated to 0"])

      // A subscriber that arrives later is not shown the pulses assigned before it came.
      let late = CounterViewController(store: store)
      #expect(late.renderedCounts == [])
      #expect(late.alerts == [])
      store.send(.reset)
      #expect(late.renderedCounts == [0])
      #expect(viewController.renderedCounts == [0, 0, 0])
    }

    // MARK: - AsyncReactorKit's faults

    @Test func aHundredConcurrentIncrementsEndAtAHundred() async {
      // AsyncReactorKit lost updates here: 100 concurrent increments ended at 2.
      let reactor = CounterReactor()
      let store = Store(initialState: reactor.initialState(), reactor: reactor)
      let viewController = CounterViewController(store: store)
      await withTaskGroup(of: Void.self) { group in
        for _ in 1...100 {
          group.addTask { await store.send(.increment) }
        }
      }
      #expect(store.count == 100)
      #expect(store.message == "Count updated to 100")
      // One state per input, on the main actor, each one more than the last.
      #expect(viewController.renderedCounts == Array(1...100))
      #expect(viewController.stateCallbacks == 101)
    }

    @Test func stateCallbacksArriveOnTheMainActorInTheOrderInputsWereSent() async {
      // AsyncReactorKit started one unstructured Task per send, so inputs could be applied out of
      // order, and called `state(_:)` off the main thread.
      let reactor = CounterReactor(serverCount: { 10 })
      let store = Store(initialState: reactor.initialState(), reactor: reactor)
      let viewController = CounterViewController(store: store)
      store.send(.increment)
      store.send(.increment)
      store.send(.decrement)
      await store.send(.sync).finish()
      store.send(.increment)
      store.send(.reset)
      #expect(viewController.renderedCounts == [1, 2, 1, 10, 11, 0])
      #expect(
        viewController.alerts == [1, 2, 1, 10, 11, 0].map { "Count updated to \($0)" })
    }

    @Test func aNewReactorNeverSeesAnotherReactorsState() {
      // AsyncReactorKit kept state in a global table keyed by object address: a reactor
      // allocated where a dead one lived inherited its state.
      for round in 1...5 {
        var reactor: CounterReactor? = CounterReactor()
        var store: CounterStore? = Store(
          initialState: reactor!.initialState(), reactor: reactor!)
        weak let releasedStore = store
        weak let releasedReactor = reactor
        for _ in 1...round { store?.send(.increment) }
        #expect(store?.count == round)
        store = nil
        reactor = nil
        #expect(releasedStore == nil)
        #expect(releasedReactor == nil)

        let fresh = CounterReactor()
        let freshStore = Store(initialState: fresh.initialState(), reactor: fresh)
        #expect(freshStore.count == 0)
        #expect(freshStore.message == nil)
        #expect(freshStore.state.$count.version == 0)
      }

      // Two live stores of one reactor each own their state.
      let shared = CounterReactor()
      let first = Store(initialState: shared.initialState(), reactor: shared)
      let second = Store(initialState: shared.initialState(), reactor: shared)
      first.send(.increment)
      first.send(.increment)
      second.send(.decrement)
      #expect(first.count == 2)
      #expect(second.count == -1)
    }

    @Test func pulseKeepsTheValueSemanticsOfState() {
      // AsyncReactorKit's `Pulse` was a class: a copy of State shared its pulses.
      var original = CounterReactor.State()
      original.count = 1
      var copy = original
      copy.count = 2
      copy.message = "copy"
      #expect(original.count == 1)
      #expect(original.$count.version == 1)
      #expect(original.message == nil)
      #expect(original.$message.version == 0)
      #expect(copy.$count.version == 2)

      // A state read from the store is a snapshot: later inputs don't change it.
      let reactor = CounterReactor()
      let store = Store(initialState: reactor.initialState(), reactor: reactor)
      store.send(.increment)
      let snapshot = store.state
      store.send(.increment)
      #expect(snapshot.count == 1)
      #expect(snapshot.$count.version == 1)
      #expect(store.count == 2)
      #expect(store.state.$count.version == 2)
    }
  }
}
