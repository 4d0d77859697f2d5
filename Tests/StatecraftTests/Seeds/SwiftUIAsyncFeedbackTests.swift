import ConcurrencyExtras
import Testing

@testable import Statecraft

/// The examples of the swiftui-async-feedback README (the counter system whose feedback reacts to
/// `count`, a binding the feedback sees, the paging example), ported to Statecraft's
/// ``FeedbackSystem``, and proof that its faults (feedbacks run one after another, a new state
/// never cancels a stale feedback, cancelling the loop leaves feedbacks running) don't happen
/// here.
extension Engine {
  @MainActor
  @Suite struct SwiftUIAsyncFeedbackTests {
    /// The README's `CounterScreenSystem`. The `Stepper`'s binding writes `count` through the
    /// reducer (a ``BindableAction`` event), so the feedback sees every change.
    struct CounterScreenSystem: FeedbackSystem {
      struct State: Equatable, Sendable {
        var count: Int = 1
        var message: String? = nil
      }

      enum Event: Sendable, BindableAction {
        case setMessage(String?)
        case binding(BindingAction<State>)
      }

      /// Told of each state the feedback reacts to (for the tests).
      var reacted: @Sendable (State) -> Void = { _ in }

      func reduce(into state: inout State, event: Event) {
        switch event {
        case .setMessage(let message):
          state.message = message
        case .binding(let binding):
          binding.apply(to: &state)
        }
      }

      var feedbacks: [Feedback<State, Event>] {
        [
          // If State.count is changed, the feedback reacts to it.
          Feedback(.onChanged(\.count)) { [reacted] state in
            reacted(state)
            // If count is a multiple of 3, set the message.
            if state.count.isMultiple(of: 3) {
              return .setMessage("multiple of 3!!")
            } else {
              return .setMessage(nil)
            }
          }
        ]
      }
    }

    /// The README's paging example: the first page loads when the screen appears, the next when
    /// the list reaches its end; `react(to:)` runs one load per page request.
    struct PagingSystem: FeedbackSystem {
      struct PageRequest: Equatable, Sendable {
        var page: Int
      }

      struct State: Equatable, Sendable {
        var items: [String] = []
        var nextPage = 1
        var hasMore = true
        var request: PageRequest? = nil
      }

      enum Event: Sendable {
        case loadNextPage
        case pageLoaded(page: Int, items: [String], hasMore: Bool)
        case cancelLoading
      }

      let fetchPage: @Sendable (Int) async -> (items: [String], hasMore: Bool)

      func reduce(into state: inout State, event: Event) {
        switch event {
        case .loadNextPage:
          guard state.request == nil, state.hasMore else { return }
          state.request = PageRequest(page: state.nextPage)
        case .pageLoaded(let page, let items, let hasMore):
          state.items += items
          state.nextPage = page + 1
          state.hasMore = hasMore
          state.request = nil
        case .cancelLoading:
          state.request = nil
        }
      }

      var feedbacks: [Feedback<State, Event>] {
        [
          Feedback(.once) { _ in .loadNextPage },
          .react(to: \.request) { [fetchPage] request, send in
            let page = await fetchPage(request.page)
            await send(.pageLoaded(page: request.page, items: page.items, hasMore: page.hasMore))
          },
        ]
      }
    }

    /// A system whose feedbacks each test supplies: it records the events it reduces.
    struct ProbeSystem: FeedbackSystem {
      struct State: Equatable, Sendable {
        var query = ""
        var count = 0
        var log: [String] = []
      }

      enum Event: Sendable {
        case setQuery(String)
        case increment
        case log(String)
      }

      let feedbacks: [Feedback<State, Event>]

      func reduce(into state: inout State, event: Event) {
        switch event {
        case .setQuery(let query): state.query = query
        case .increment: state.count += 1
        case .log(let entry): state.log.append(entry)
        }
      }

      /// A feedback that opens `gate` once the loop has started.
      static func started(_ gate: Gate) -> Feedback<State, Event> {
        Feedback(.once) { _ in
          gate.open()
          return nil
        }
      }
    }

    /// Requests that wait until the test answers them and ignore cancellation (like a network
    /// call that completes anyway), so the test decides which one comes back last.
    final class Requests: Sendable {
      private let gates = LockIsolated<[String: (started: Gate, answer: Gate)]>([:])

      private func gates(for key: String) -> (started: Gate, answer: Gate) {
        gates.withValue { gates in
          if let pair = gates[key] { return pair }
          let pair = (started: Gate(), answer: Gate())
          gates[key] = pair
          return pair
        }
      }

      func perform(_ key: String) async {
        let pair = gates(for: key)
        pair.started.open()
        // NB: an unstructured task is not cancelled with the feedback.
        await Task { await pair.answer.wait() }.value
      }

      func started(_ key: String) async { await gates(for: key).started.wait() }
      func answer(_ key: String) { gates(for: key).answer.open() }
    }

    // MARK: - The README

    @Test func theCounterScreenShowsAMessageOnMultiplesOfThree() async {
      let reactions = LockIsolated<[Int]>([])
      let started = Gate()
      let store = Store(
        initialState: CounterScreenSystem.State(),
        system: CounterScreenSystem(reacted: { state in
          reactions.withValue { $0.append(state.count) }
          started.open()
        }))
      // `.task { await _context.runFeedbackLoop() }`
      let loop = Task { await store.run() }
      await started.wait()
      #expect(reactions.value == [1])
      #expect(store.message == nil)

      // `Stepper("", value: $context.count)`
      let count = store.binding(\.count)
      count.wrappedValue += 1
      count.wrappedValue += 1
      #expect(store.count == 3)
      await store.wait(while: { $0.message == nil })
      #expect(store.message == "multiple of 3!!")

      count.wrappedValue += 1
      await store.wait(while: { $0.message != nil })
      #expect(store.count == 4)
      #expect(reactions.value.last == 4)

      // Writing an equal value is not a change: the feedback doesn't react.
      let reactionsSoFar = reactions.value
      await store.send(.binding(.set(\.count, 4))).finish()
      #expect(reactions.value == reactionsSoFar)

      loop.cancel()
      await loop.value
    }

    @Test func onceReactsToTheInitialStateOnly() async {
      let seen = LockIsolated<[Int]>([])
      let store = Store(
        initialState: ProbeSystem.State(count: 7),
        system: ProbeSystem(feedbacks: [
          Feedback(.once) { state in
            seen.withValue { $0.append(state.count) }
            return .log("loaded")
          }
        ]))
      let loop = Task { await store.run() }
      await store.wait(while: { $0.log.isEmpty })
      await store.send(.increment).finish()
      await store.send(.setQuery("a")).finish()
      #expect(seen.value == [7])
      #expect(store.log == ["loaded"])
      loop.cancel()
      await loop.value
    }

    @Test func filterReactsWheneverItsPredicateHolds() async {
      let started = Gate()
      let filtered = LockIsolated<[Int]>([])
      let changed = LockIsolated<[Int]>([])
      let store = Store(
        initialState: ProbeSystem.State(),
        system: ProbeSystem(feedbacks: [
          ProbeSystem.started(started),
          Feedback(.filter { $0.count >= 2 }) { state in
            filtered.withValue { $0.append(state.count) }
            return nil
          },
          Feedback(.onChanged(\.count)) { state in
            changed.withValue { $0.append(state.count) }
            return nil
          },
        ]))
      let loop = Task { await store.run() }
      await started.wait()
      await store.send(.increment).finish()
      await store.send(.increment).finish()
      await store.send(.setQuery("unrelated")).finish()
      await store.send(.increment).finish()
      // `.filter` fires on every state where the predicate holds, `count` changed or not;
      // `.onChanged` on the initial state and each change.
      #expect(filtered.value == [2, 2, 3])
      #expect(changed.value == [0, 1, 2, 3])
      loop.cancel()
      await loop.value
    }

    @Test func pagingLoadsOnePageRequestAtATime() async {
      let fetched = LockIsolated<[Int]>([])
      let pages = [1: ["a", "b"], 2: ["c", "d"], 3: ["e"]]
      let store = Store(
        initialState: PagingSystem.State(),
        system: PagingSystem(fetchPage: { page in
          fetched.withValue { $0.append(page) }
          return (pages[page] ?? [], page < 3)
        }))
      let loop = Task { await store.run() }
      // The first page loads when the loop starts.
      await store.wait(while: { $0.items.isEmpty })
      #expect(store.items == ["a", "b"])
      #expect(store.request == nil)

      await store.send(.loadNextPage).finish()
      #expect(store.items == ["a", "b", "c", "d"])
      await store.send(.loadNextPage).finish()
      #expect(store.items == ["a", "b", "c", "d", "e"])
      #expect(!store.hasMore)
      await store.send(.loadNextPage).finish()
      #expect(fetched.value == [1, 2, 3])
      #expect(store.items == ["a", "b", "c", "d", "e"])

      loop.cancel()
      await loop.value
    }

    @Test func aCancelledPageRequestDeliversNothing() async {
      let requests = Requests()
      let store = Store(
        initialState: PagingSystem.State(),
        system: PagingSystem(fetchPage: { page in
          await requests.perform("page \(page)")
          return (["item \(page)"], true)
        }))
      let loop = Task { await store.run() }
      requests.answer("page 1")
      await store.wait(while: { $0.items.isEmpty })

      let load = store.send(.loadNextPage)
      await requests.started("page 2")
      store.send(.cancelLoading)
      #expect(store.request == nil)
      // The cancelled request completes anyway; its page is dropped.
      requests.answer("page 2")
      await load.finish()
      #expect(store.items == ["item 1"])
      #expect(store.nextPage == 2)

      loop.cancel()
      await loop.value
    }

    // MARK: - swiftui-async-feedback's faults

    @Test func eventsSentBeforeRunAreBufferedAndReducedWhenItStarts() async {
      let store = Store(initialState: CounterScreenSystem.State(), system: CounterScreenSystem())
      let count = store.binding(\.count)
      count.wrappedValue = 2
      count.wrappedValue = 3
      // Reduced at once, in the order they were sent: the binding reads what it wrote.
      #expect(store.count == 3)
      #expect(store.message == nil)

      let loop = Task { await store.run() }
      // Seen by the feedback once the loop runs.
      await store.wait(while: { $0.message == nil })
      #expect(store.message == "multiple of 3!!")
      loop.cancel()
      await loop.value
    }

    @Test func aSlowFeedbackDoesNotBlockAnotherFeedbackOfALaterState() async {
      // swiftui-async-feedback ran feedbacks one after another: the reaction to a later state
      // waited for a slow reaction to an earlier one.
      let started = Gate()
      let requests = Requests()
      let store = Store(
        initialState: ProbeSystem.State(),
        system: ProbeSystem(feedbacks: [
          ProbeSystem.started(started),
          Feedback(.onChanged(\.query)) { state, send in
            guard !state.query.isEmpty else { return }
            await requests.perform(state.query)
            await send(.log("slow \(state.query)"))
          },
          Feedback(.onChanged(\.count)) { state in
            state.count > 0 ? .log("fast \(state.count)") : nil
          },
        ]))
      let loop = Task { await store.run() }
      await started.wait()

      let slow = store.send(.setQuery("a"))
      await requests.started("a")
      await store.send(.increment).finish()
      #expect(store.log == ["fast 1"])
      #expect(!slow.hasFinished)

      requests.answer("a")
      await slow.finish()
      #expect(store.log == ["fast 1", "slow a"])
      loop.cancel()
      await loop.value
    }

    @Test func aNewerStateCancelsAStaleRunOfTheSameFeedback() async {
      // swiftui-async-feedback never cancelled a stale feedback: the answer for an old query,
      // arriving last, overwrote the answer for the new one.
      let started = Gate()
      let requests = Requests()
      let cancelledRuns = LockIsolated<[String]>([])
      let store = Store(
        initialState: ProbeSystem.State(),
        system: ProbeSystem(feedbacks: [
          ProbeSystem.started(started),
          Feedback(.onChanged(\.query)) { state, send in
            guard !state.query.isEmpty else { return }
            await requests.perform(state.query)
            if Task.isCancelled { cancelledRuns.withValue { $0.append(state.query) } }
            await send(.log("results \(state.query)"))
          },
        ]))
      let loop = Task { await store.run() }
      await started.wait()

      let older = store.send(.setQuery("a"))
      await requests.started("a")
      let newer = store.send(.setQuery("ab"))
      await requests.started("ab")
      requests.answer("ab")
      await newer.finish()
      #expect(store.log == ["results ab"])

      requests.answer("a")
      await older.finish()
      #expect(store.log == ["results ab"])
      #expect(cancelledRuns.value == ["a"])
      loop.cancel()
      await loop.value
    }

    @Test func cancellingTheRunTaskStopsEveryFeedback() async {
      // swiftui-async-feedback left feedback tasks running after the loop was cancelled.
      let started = Gate()
      let queryStarted = Gate()
      let onceStopped = Gate()
      let queryStopped = Gate()
      let queries = LockIsolated<[String]>([])
      let store = Store(
        initialState: ProbeSystem.State(),
        system: ProbeSystem(feedbacks: [
          Feedback(.once) { _, _ in
            started.open()
            do { try await Task.never() } catch { onceStopped.open() }
          },
          Feedback(.onChanged(\.query)) { state, _ in
            guard !state.query.isEmpty else { return }
            queries.withValue { $0.append(state.query) }
            queryStarted.open()
            do { try await Task.never() } catch { queryStopped.open() }
          },
        ]))
      let loop = Task { await store.run() }
      await started.wait()
      store.send(.setQuery("a"))
      await queryStarted.wait()
      #expect(store.runningEffectCount == 2)

      loop.cancel()
      await loop.value
      // When the task running the loop ends, no feedback is still running: both were cancelled
      // and have ended.
      #expect(store.runningEffectCount == 0)
      await onceStopped.wait()
      await queryStopped.wait()

      // Stopped: events are reduced, and no feedback starts until the next `run()`.
      store.send(.setQuery("b"))
      #expect(store.query == "b")
      #expect(queries.value == ["a"])
    }

    @Test func theRunTaskEndsOnlyOnceAFeedbackSlowToStopHasEnded() async {
      // A feedback may take a while to honour cancellation (here: it waits for a request that
      // completes anyway). The task running the loop ends after it, not before.
      let requests = Requests()
      let order = LockIsolated<[String]>([])
      let store = Store(
        initialState: ProbeSystem.State(),
        system: ProbeSystem(feedbacks: [
          Feedback(.once) { _, _ in
            await requests.perform("slow to stop")
            order.withValue { $0.append("feedback ended") }
          }
        ]))
      let loop = Task {
        await store.run()
        order.withValue { $0.append("run returned") }
      }
      await requests.started("slow to stop")

      loop.cancel()
      requests.answer("slow to stop")
      await loop.value
      #expect(order.value == ["feedback ended", "run returned"])
      #expect(store.runningEffectCount == 0)
    }
  }
}
