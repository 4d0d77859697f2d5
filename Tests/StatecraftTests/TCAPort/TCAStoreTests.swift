import CasePathsCore
import Clocks
import ConcurrencyExtras
import StatecraftCombine
import StatecraftTesting
import Testing

@testable import Statecraft

#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

extension Engine {
  /// The Composable Architecture's `StoreTests`, ported to Statecraft's spelling.
  ///
  /// The dependency tests (`testOverrideDependencies…`, `testInit_…WithDependencies`,
  /// `testSurroundingDependencies`) are ported in TCADependencyTests.swift. Not ported:
  /// `testStoreVsTestStore…` (a known failure in TCA), `testScopeCallCount…` (counts TCA's internal scope
  /// closures), view stores. `@Presents` and `@Shared` scoping have suites of their own, in
  /// Navigation/ and Sharing/, written for Statecraft rather than ported (TCA's tests of them
  /// lean on its macros and dependencies).
  @MainActor
  @Suite struct TCAStoreTests {
    @Test func cancellableIsRemovedOnImmediatelyCompletingEffect() async {
      let store = Store(initialState: 0) { Reduce<Int, Int> { _, _ in .none } }
      #expect(store.runningEffectCount == 0)
      await store.send(1).finish()
      #expect(store.runningEffectCount == 0)
    }

    @Test func cancellableIsRemovedWhenEffectCompletes() async {
      enum Action: Sendable { case start, end }
      let clock = TestClock()
      let store = Store(initialState: 0) {
        Reduce<Int, Action> { _, action in
          switch action {
          case .start:
            return .run { send in
              try await clock.sleep(for: .seconds(1))
              await send(.end)
            }
          case .end:
            return .none
          }
        }
      }
      #expect(store.runningEffectCount == 0)
      let task = store.send(.start)
      #expect(store.runningEffectCount == 1)
      await clock.advance(by: .seconds(2))
      await task.finish()
      #expect(store.runningEffectCount == 0)
    }

    @Test func scopedStoreReceivesUpdatesFromParent() {
      let store = Store(initialState: 0) {
        Reduce<Int, Void> { count, _ in
          count += 1
          return .none
        }
      }
      let child = store.scope(state: { String($0) }, action: { $0 })
      #expect(child.state == "0")
      store.send(())
      #expect(child.state == "1")
    }

    @Test func parentStoreReceivesUpdatesFromChild() {
      let store = Store(initialState: 0) {
        Reduce<Int, Void> { count, _ in
          count += 1
          return .none
        }
      }
      let child = store.scope(state: { String($0) }, action: { $0 })
      #expect(store.state == 0)
      child.send(())
      #expect(store.state == 1)
    }

    @Test func synchronousEffectsSentAfterSinking() {
      enum Action: Sendable { case tap, next1, next2, end }
      let values = LockIsolated<[Int]>([])
      let store = Store(initialState: ()) {
        Reduce<Void, Action> { _, action in
          switch action {
          case .tap:
            return .merge(.concatenate(.send(.next1), .send(.next2)), .send(.end))
          case .next1:
            values.withValue { $0.append(1) }
            return .none
          case .next2:
            values.withValue { $0.append(2) }
            return .none
          case .end:
            values.withValue { $0.append(3) }
            return .none
          }
        }
      }
      store.send(.tap)
      #expect(values.value == [1, 2, 3])
    }

    @Test func lotsOfSynchronousActions() {
      enum Action: Sendable { case incr, noop }
      let store = Store(initialState: 0) {
        Reduce<Int, Action> { state, action in
          switch action {
          case .incr:
            state += 1
            return state >= 100_000 ? .send(.noop) : .send(.incr)
          case .noop:
            return .none
          }
        }
      }
      store.send(.incr)
      #expect(store.state == 100_000)
    }

    @Test func ifLetAfterScope() {
      let store = Store(initialState: Int?.none) {
        Reduce<Int?, Int?> { state, action in
          state = action
          return .none
        }
      }
      // NB: a key-path scope is cached by its parent, so it lives as long as the parent does;
      // TCA's closure scope is `ifLetAfterClosureScope`.
      var outputs: [Int?] = []
      var stores: [Store<Int, Int?>] = []
      let token = store.scope(state: \.self, action: { $0 }).ifLet(
        then: { child in
          stores.append(child)
          outputs.append(child.state)
        },
        else: { outputs.append(nil) })
      #expect(outputs == [nil])
      store.send(1)
      #expect(outputs == [nil, 1])
      store.send(nil)
      #expect(outputs == [nil, 1, nil])
      store.send(1)
      #expect(outputs == [nil, 1, nil, 1])
      store.send(2)
      #expect(outputs == [nil, 1, nil, 1])
      #expect(stores.last?.state == 2)
      _ = token
    }

    @Test func ifLetAfterClosureScope() {
      let store = Store(initialState: Int?.none) {
        Reduce<Int?, Int?> { state, action in
          state = action
          return .none
        }
      }
      let outputs = LockIsolated<[Int?]>([])
      // NB: a store scoped through a closure is not cached (a closure has no identity) and the
      // token `ifLet` returns doesn't hold it: the test holds it, where TCA's subscription did.
      let scoped = store.scope(state: { $0 }, action: { $0 })
      let token = scoped.ifLet(
        then: { child in
          let value = child.state
          outputs.withValue { $0.append(value) }
        },
        else: { outputs.withValue { $0.append(nil) } })
      store.send(1)
      store.send(nil)
      store.send(1)
      store.send(2)
      #expect(outputs.value == [nil, 1, nil, 1])
      _ = token
    }

    @Test func actionQueuing() async {
      enum Action: Equatable, Sendable { case incrementTapped, initialize, doIncrement }
      let subject = UncheckedSendable(PassthroughSubject<Void, Never>())
      let store = TestStore(initialState: 0) {
        Reduce<Int, Action> { state, action in
          switch action {
          case .incrementTapped:
            subject.value.send()
            return .none
          case .initialize:
            return .publisher(subject.value.map { Action.doIncrement })
          case .doIncrement:
            state += 1
            return .none
          }
        }
      }
      await store.send(.initialize)
      await store.send(.incrementTapped)
      await store.receive(.doIncrement) { $0 = 1 }
      await store.send(.incrementTapped)
      await store.receive(.doIncrement) { $0 = 2 }
      subject.value.send(completion: .finished)
    }

    @Test func coalesceSynchronousActions() {
      enum Action: Sendable { case onAppear, setValue(Int) }
      let store = Store(initialState: 0) {
        Reduce<Int, Action> { state, action in
          switch action {
          case .onAppear:
            return .merge(
              .send(.setValue(1)), .send(.setValue(2)), .send(.setValue(3)), .send(.setValue(4)))
          case .setValue(let value):
            state = value
            return .none
          }
        }
      }
      let emissions = LockIsolated<[Int]>([])
      let cancellable = store.publisher.sink { value in emissions.withValue { $0.append(value) } }
      #expect(emissions.value == [0])
      store.send(.onAppear)
      #expect(emissions.value == [0, 4])
      cancellable.cancel()
    }

    @Test func cascadingTaskCancellation() async {
      enum Action: Equatable, Sendable { case task, response, response1, response2 }
      let store = TestStore(initialState: 0) {
        Reduce<Int, Action> { _, action in
          switch action {
          case .task:
            return .run { send in await send(.response) }
          case .response:
            return .merge(
              .run { _ in try await Task.never() }, .run { send in await send(.response1) })
          case .response1:
            return .merge(
              .run { _ in try await Task.never() }, .run { send in await send(.response2) })
          case .response2:
            return .run { _ in try await Task.never() }
          }
        }
      }
      let task = await store.send(.task)
      await store.receive(.response)
      await store.receive(.response1)
      await store.receive(.response2)
      task.cancel()
      await store.finish()
    }

    @Test func taskCancellationEmpty() async {
      let store = TestStore(initialState: 0) { Reduce<Int, Int> { _, _ in .none } }
      let task = await store.send(1)
      task.cancel()
      await task.finish()
    }

    @Test func scopeCancellation() async {
      let gate = Gate()
      let store = Store(initialState: 0) {
        Reduce<Int, Int> { _, _ in .run { _ in await gate.wait() } }
      }
      let scoped = store.scope(state: { $0 }, action: { $0 })
      let task = scoped.send(1)
      #expect(store.runningEffectCount == 1)
      gate.open()
      await task.finish()
      #expect(store.runningEffectCount == 0)
      #expect(scoped.runningEffectCount == 0)
    }

    struct Child: Reducer {
      struct State: Equatable, Sendable {}
      enum Action: Equatable, Sendable { case task, didFinish }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        action == .task ? .run { send in await send(.didFinish) } : .none
      }
    }

    struct Parent: Reducer {
      struct State: Equatable, Sendable {
        var count = 0
        var child = Child.State()
      }
      enum Action: Equatable, Sendable {
        case child(Child.Action)
        case delay
      }
      let clock: TestClock<Duration>
      var body: some Reducer<State, Action> {
        Scope(
          state: \.child,
          action: AnyCasePath(embed: Action.child) {
            if case .child(let action) = $0 { action } else { nil }
          }
        ) {
          Child()
        }
        Reduce { state, action in
          switch action {
          case .child(.didFinish):
            return .run { [clock] send in
              try await clock.sleep(for: .seconds(1))
              await send(.delay)
            }
          case .child:
            return .none
          case .delay:
            state.count += 1
            return .none
          }
        }
      }
    }

    @Test func childParentEffectCancellation() async {
      let clock = TestClock()
      let store = Store(initialState: Parent.State()) { Parent(clock: clock) }
      let child = store.scope(state: { $0.child }, action: { Parent.Action.child($0) })
      let task = child.send(.task)
      await clock.advance(by: .seconds(1))
      await task.finish()
      #expect(store.state.count == 1)
    }

    @Test func sendReturnsATaskThatFinishesWithItsEffects() async {
      enum Action: Sendable { case tap, response }
      let clock = TestClock()
      let store = Store(initialState: 0) {
        Reduce<Int, Action> { state, action in
          switch action {
          case .tap:
            return .run { send in
              try await clock.sleep(for: .seconds(1))
              await send(.response)
            }
          case .response:
            state += 1
            return .none
          }
        }
      }
      let task = store.send(.tap)
      await clock.advance(by: .seconds(1))
      await task.finish()
      #expect(store.state == 1)
    }
  }
}
