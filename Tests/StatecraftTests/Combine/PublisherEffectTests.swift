import CasePathsCore
import ConcurrencyExtras
import Foundation
import StatecraftCombine
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// `Effect.publisher` and `PublisherReactor`: every value, in order, subscribed synchronously.
  @MainActor
  @Suite struct PublisherEffectTests {
    /// `0` subscribes to the publisher, `-1` cancels it; any other action is recorded.
    static func recorder(
      _ publisher: some Publisher<Int, Never>
    ) -> Store<[Int], Int> {
      let publisher = UncheckedSendable(publisher.eraseToAnyPublisher())
      return Store(initialState: [Int]()) {
        Reduce<[Int], Int> { state, action in
          switch action {
          case 0: return .publisher(publisher.value).cancellable(id: "publisher")
          case -1: return .cancel(id: "publisher")
          default:
            state.append(action)
            return .none
          }
        }
      }
    }

    @Test func aHotSubjectsValuesSentOnTheMainActorReachTheStoreAtOnce() {
      let subject = PassthroughSubject<Int, Never>()
      let store = Self.recorder(subject)
      store.send(0)
      subject.send(1)
      #expect(store.state == [1])
      for value in 2...5 { subject.send(value) }
      #expect(store.state == [1, 2, 3, 4, 5])
      store.send(-1)
    }

    @Test func aBurstFromASubjectIsDeliveredInFullAndInOrder() async {
      let subject = PassthroughSubject<Int, Never>()
      let store = Self.recorder(subject)
      let task = store.send(0)
      for value in 1...5 { subject.send(value) }
      subject.send(completion: .finished)
      await task.finish()
      #expect(store.state == [1, 2, 3, 4, 5])
    }

    @Test func aHotSubjectsValuesSentRightAfterSendReturnsAreDelivered() async {
      let subject = PassthroughSubject<Int, Never>()
      let store = Self.recorder(subject)
      let task = store.send(0)
      #expect(store.runningEffectCount == 1)
      subject.send(1)
      subject.send(2)
      subject.send(completion: .finished)
      await task.finish()
      #expect(store.state == [1, 2])
      #expect(store.runningEffectCount == 0)
    }

    @Test func aPublisherThatCompletesSynchronouslyIsAppliedBeforeSendReturns() {
      let store = Self.recorder([1, 2, 3].publisher)
      let task = store.send(0)
      #expect(store.state == [1, 2, 3])
      #expect(store.runningEffectCount == 0)
      #expect(task.hasFinished)

      let just = Self.recorder(Just(7))
      just.send(0)
      #expect(just.state == [7])
      #expect(just.runningEffectCount == 0)
    }

    @Test func aCurrentValueSubjectsValueIsAppliedBeforeSendReturns() async {
      let subject = CurrentValueSubject<Int, Never>(1)
      let store = Self.recorder(subject)
      let task = store.send(0)
      #expect(store.state == [1])
      #expect(!task.hasFinished)
      subject.value = 2
      subject.send(completion: .finished)
      await task.finish()
      #expect(store.state == [1, 2])
      #expect(store.runningEffectCount == 0)
    }

    @Test func valuesEmittedDuringTheSubscriptionAreReducedInOrderWithTheBatch() {
      // The publisher's values are queued behind the action that started it, FIFO.
      let store = Store(initialState: [Int]()) {
        Reduce<[Int], Int> { state, action in
          state.append(action)
          return action == 0 ? .merge(.publisher([1, 2].publisher), .send(3)) : .none
        }
      }
      var published: [[Int]] = []
      let token = store.observe { published.append($0.state) }
      store.send(0)
      #expect(store.state == [0, 1, 2, 3])
      #expect(published == [[], [0, 1, 2, 3]])
      token.cancel()
    }

    @Test func cancellingCancelsTheSubscriptionAtOnce() async {
      var cancelled = 0
      let subject = CurrentValueSubject<Int, Never>(1)
      let store = Self.recorder(subject.handleEvents(receiveCancel: { cancelled += 1 }))
      let task = store.send(0)
      #expect(store.state == [1])
      store.send(-1)
      #expect(cancelled == 1)
      subject.send(2)
      #expect(store.state == [1])
      await task.finish()
      #expect(cancelled == 1)
      #expect(store.state == [1])
      #expect(store.runningEffectCount == 0)
    }

    @Test func cancelInFlightReplacesTheRunningSubscriptionAtOnce() async {
      var cancelled = 0
      let subject = PassthroughSubject<Int, Never>()
      let publisher = UncheckedSendable(
        subject.handleEvents(receiveCancel: { cancelled += 1 }).eraseToAnyPublisher())
      let store = Store(initialState: [Int]()) {
        Reduce<[Int], Int> { state, action in
          guard action == 0 else {
            state.append(action)
            return .none
          }
          return .publisher(publisher.value).cancellable(id: "publisher", cancelInFlight: true)
        }
      }
      store.send(0)
      let task = store.send(0)
      #expect(cancelled == 1)
      subject.send(1)
      #expect(store.state == [1])
      subject.send(completion: .finished)
      await task.finish()
      #expect(store.runningEffectCount == 0)
    }

    @Test func cancellingTheStoreTaskCancelsTheSubscription() async {
      var cancelled = 0
      let subject = PassthroughSubject<Int, Never>()
      let store = Self.recorder(subject.handleEvents(receiveCancel: { cancelled += 1 }))
      let task = store.send(0)
      task.cancel()
      #expect(cancelled == 1)
      subject.send(1)
      #expect(store.state == [])
      await task.finish()
      #expect(cancelled == 1)
      #expect(store.runningEffectCount == 0)
    }

    @Test func releasingTheStoreCancelsTheSubscription() async {
      var cancelled = 0
      let subject = PassthroughSubject<Int, Never>()
      var store: Store<[Int], Int>? = Self.recorder(
        subject.handleEvents(receiveCancel: { cancelled += 1 }))
      let task = store!.send(0)
      store = nil
      #expect(cancelled == 1)
      subject.send(1)
      await task.finish()
      #expect(cancelled == 1)
    }

    @Test func finishWaitsUntilThePublisherCompletes() async {
      let subject = PassthroughSubject<Int, Never>()
      let store = Self.recorder(subject)
      let task = store.send(0)
      let finished = Task { await task.finish() }
      subject.send(1)
      subject.send(completion: .finished)
      await finished.value
      #expect(store.state == [1])
      #expect(store.runningEffectCount == 0)
    }

    @Test func valuesFromAnotherThreadArriveOnTheMainActorInOrder() async {
      let subject = PassthroughSubject<Int, Never>()
      let store = Self.recorder(subject)
      let task = store.send(0)
      let sendable = UncheckedSendable(subject)
      let background = Thread {
        for value in 1...100 { sendable.value.send(value) }
        sendable.value.send(completion: .finished)
      }
      background.start()
      await task.finish()
      #expect(store.state == Array(1...100))
    }

    struct Parent: Reducer {
      struct State: Equatable { var child: [Int]? = [] }
      enum Action: Sendable { case child(Int), dismiss }
      let subject: UncheckedSendable<AnyPublisher<Int, Never>>

      var body: some Reducer<State, Action> {
        Reduce { state, action in
          if case .dismiss = action { state.child = nil }
          return .none
        }
        .ifLet(
          \.child,
          action: AnyCasePath(
            embed: Action.child,
            extract: { if case .child(let value) = $0 { value } else { nil } })
        ) {
          Reduce<[Int], Int> { [subject] state, action in
            if action == 0 { return .publisher(subject.value) }
            state.append(action)
            return .none
          }
        }
      }
    }

    @Test func aChildsPublisherIsMappedAndCancelledWithTheChild() async {
      var cancelled = 0
      let subject = CurrentValueSubject<Int, Never>(1)
      let store = Store(initialState: Parent.State()) {
        Parent(
          subject: UncheckedSendable(
            subject.handleEvents(receiveCancel: { cancelled += 1 }).eraseToAnyPublisher()))
      }
      let task = store.send(.child(0))
      #expect(store.child == [1])
      store.send(.dismiss)
      #expect(cancelled == 1)
      // Not delivered: an action for a dismissed child would be reported.
      subject.send(2)
      await task.finish()
      #expect(store.child == nil)
    }

    @Test func concatenatedAfterAPublisherRunsOnceItCompletes() async {
      let subscribed = Gate()
      let passthrough = PassthroughSubject<Int, Never>()
      let subject = passthrough.handleEvents(receiveSubscription: { _ in subscribed.open() })
      let store = Store(initialState: [Int]()) {
        Reduce<[Int], Int> { state, action in
          guard action == 0 else {
            state.append(action)
            return .none
          }
          return .concatenate(.send(1), .publisher(subject), .send(9))
        }
      }
      let task = store.send(0)
      #expect(store.state == [1])
      await subscribed.wait()
      passthrough.send(2)
      passthrough.send(completion: .finished)
      await task.finish()
      #expect(store.state == [1, 2, 9])
    }

    /// TCA's `testSyncEffectsFromEnvironment`, ported: one action subscribes to a long-living
    /// subject, another makes the environment send into it.
    @Test func anEffectSendingIntoASubscribedSubjectReachesTheStore() async {
      enum Action: Sendable { case onAppear, onUserAction, externalAction }
      let subject = UncheckedSendable(PassthroughSubject<Action, Never>())
      let store = Store(initialState: 0) {
        Reduce<Int, Action> { state, action in
          switch action {
          case .onAppear:
            return .publisher(subject.value)
          case .onUserAction:
            return .run { _ in subject.value.send(.externalAction) }
          case .externalAction:
            state += 1
            return .none
          }
        }
      }
      let appeared = store.send(.onAppear)
      await store.send(.onUserAction).finish()
      #expect(store.state == 1)
      subject.value.send(.externalAction)
      #expect(store.state == 2)
      subject.value.send(completion: .finished)
      await appeared.finish()
    }

    // MARK: - PublisherReactor

    final class Counter: PublisherReactor {
      enum Action: Sendable { case increase, twice, follow }
      enum Mutation: Equatable, Sendable { case setCount(Int) }
      struct State: Equatable { var count = 0 }
      let subject = PassthroughSubject<Mutation, Never>()

      func mutate(state: State, action: Action) -> AnyPublisher<Mutation, Never> {
        switch action {
        case .increase: Just(.setCount(state.count + 1)).eraseToAnyPublisher()
        case .twice:
          [.setCount(state.count + 1), .setCount(state.count + 2)].publisher.eraseToAnyPublisher()
        case .follow: subject.eraseToAnyPublisher()
        }
      }

      func reduce(state: inout State, mutation: Mutation) {
        switch mutation {
        case .setCount(let count): state.count = count
        }
      }
    }

    @Test func aPublisherReactorsSynchronousMutationsApplyBeforeSendReturns() {
      let store = Store(initialState: Counter.State(), reactor: Counter())
      store.send(.increase)
      #expect(store.count == 1)
      store.send(.twice)
      #expect(store.count == 3)
      #expect(store.runningEffectCount == 0)
    }

    @Test func aTestStoreSendAssertsThePublisherReactorsSynchronousMutations() async {
      let store = TestStore(initialState: Counter.State(), reactor: Counter())
      await store.send(.increase) { $0.count = 1 }
      await store.send(.twice) { $0.count = 3 }
      await store.finish()
    }

    @Test func aTestStoreReceivesThePublisherReactorsLaterMutations() async {
      let reactor = Counter()
      let store = TestStore(initialState: Counter.State(), reactor: reactor)
      await store.send(.follow)
      reactor.subject.send(.setCount(5))
      reactor.subject.send(completion: .finished)
      await store.receive(.setCount(5)) { $0.count = 5 }
      await store.finish()
    }

    @Test func aPublisherReactorReceivesEveryMutationOfABurst() async {
      let reactor = Counter()
      let store = Store(initialState: Counter.State(), reactor: reactor)
      var counts: [Int] = []
      let token = store.observe { counts.append($0.count) }
      let task = store.send(.follow)
      for count in 1...5 { reactor.subject.send(.setCount(count)) }
      reactor.subject.send(completion: .finished)
      await task.finish()
      #expect(counts == [0, 1, 2, 3, 4, 5])
      token.cancel()
    }
  }
}
