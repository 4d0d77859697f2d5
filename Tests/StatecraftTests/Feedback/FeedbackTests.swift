import Clocks
import ConcurrencyExtras
import Testing

@testable import Statecraft

extension Engine {
  @MainActor
  @Suite struct FeedbackTests {
    /// A system whose feedbacks record when they fire.
    struct Recorder: FeedbackSystem {
      struct State: Equatable, Sendable {
        var count = 0
        var text = ""
        var log: [String] = []
      }
      enum Event: Equatable, Sendable {
        case increment
        case setText(String)
        case log(String)
      }

      func reduce(into state: inout State, event: Event) {
        switch event {
        case .increment: state.count += 1
        case .setText(let text): state.text = text
        case .log(let entry): state.log.append(entry)
        }
      }

      var feedbacks: [Feedback<State, Event>] {
        [
          Feedback(.once) { _ in .log("once") },
          Feedback(.onChanged(\.count)) { state in .log("count \(state.count)") },
          Feedback(.filter { $0.text == "go" }) { _, send in
            // Ends the condition first: a filter fires again after each event while it holds.
            await send(.setText("went"))
            await send(.log("filter"))
          },
        ]
      }
    }

    @Test func onceAndOnChangedFireOnTheInitialState() async {
      let store = Store(initialState: Recorder.State(), system: Recorder())
      let run = Task { await store.run() }
      await store.wait(while: { $0.log.count < 2 })
      #expect(Set(store.log) == ["once", "count 0"])
      run.cancel()
      await run.value
    }

    @Test func onChangedFiresOnlyWhenTheValueChanges() async {
      let store = Store(initialState: Recorder.State(), system: Recorder())
      let run = Task { await store.run() }
      await store.wait(while: { $0.log.count < 2 })
      await store.send(.setText("unrelated")).finish()
      await store.send(.increment).finish()
      #expect(store.log.filter { $0.hasPrefix("count") } == ["count 0", "count 1"])
      run.cancel()
      await run.value
    }

    @Test func filterFiresWheneverThePredicateHolds() async {
      let store = Store(initialState: Recorder.State(), system: Recorder())
      let run = Task { await store.run() }
      await store.wait(while: { $0.log.count < 2 })
      await store.send(.increment).finish()
      #expect(!store.log.contains("filter"))
      await store.send(.setText("go")).finish()
      await store.send(.setText("go")).finish()
      #expect(store.log.filter { $0 == "filter" }.count == 2)
      #expect(store.text == "went")
      run.cancel()
      await run.value
    }

    @Test func eventsSentBeforeTheSystemStartsAreReducedAndShownToTheFeedbacksWhenItStarts() async {
      let store = Store(initialState: Recorder.State(), system: Recorder())
      store.send(.increment)
      store.send(.increment)
      #expect(store.count == 2)
      #expect(store.log.isEmpty)
      let run = Task { await store.run() }
      await store.wait(while: { !$0.log.contains("count 2") })
      #expect(store.count == 2)
      run.cancel()
      await run.value
    }

    /// A paged list: the next page loads through `react(to:)`.
    struct Paging: FeedbackSystem {
      struct State: Equatable, Sendable {
        var query = ""
        var page: Int?
        var items: [String] = []
        var started: [String] = []

        var request: Request? {
          page.map { Request(query: query, page: $0) }
        }
      }
      enum Event: Equatable, Sendable {
        case search(String)
        case nextPage
        case loaded(String, [String])
        case started(String)
        case cancelLoading
      }

      let load: @Sendable (String, Int) async throws -> [String]

      func reduce(into state: inout State, event: Event) {
        switch event {
        case .search(let query):
          state.query = query
          state.items = []
          state.page = 1
        case .nextPage:
          state.page = (state.items.count / 2) + 1
        case .loaded(let query, let items):
          guard query == state.query else { return }
          state.items += items
          state.page = nil
        case .started(let request):
          state.started.append(request)
        case .cancelLoading:
          state.page = nil
        }
      }

      struct Request: Equatable, Sendable {
        let query: String
        let page: Int
      }

      var feedbacks: [Feedback<State, Event>] {
        [
          .react(to: \.request) { request, send in
            await send(.started("\(request.query)#\(request.page)"))
            let items = try await load(request.query, request.page)
            await send(.loaded(request.query, items))
          }
        ]
      }
    }

    @Test func reactRunsOneEffectPerRequestAndCancelsTheStaleOne() async {
      let clock = TestClock()
      let store = Store(
        initialState: Paging.State(),
        system: Paging(load: { query, page in
          try await clock.sleep(for: .seconds(1))
          return ["\(query)\(page)a", "\(query)\(page)b"]
        }))
      let run = Task { await store.run() }
      let first = store.send(.search("sw"))
      let second = store.send(.search("swift"))
      await first.finish()
      await clock.advance(by: .seconds(1))
      await second.finish()
      await store.wait(while: { $0.page != nil })
      #expect(store.items == ["swift1a", "swift1b"])
      let next = store.send(.nextPage)
      await clock.advance(by: .seconds(1))
      await next.finish()
      #expect(store.items == ["swift1a", "swift1b", "swift2a", "swift2b"])
      run.cancel()
      await run.value
    }

    @Test func aNilRequestCancelsTheRunningEffect() async {
      let clock = TestClock()
      let store = Store(
        initialState: Paging.State(),
        system: Paging(load: { _, _ in
          try await clock.sleep(for: .seconds(1))
          return ["late"]
        }))
      let run = Task { await store.run() }
      // NB: not awaited: its task lasts until the load, which the clock holds.
      let search = store.send(.search("swift"))
      await store.wait(while: { $0.started.isEmpty })
      #expect(store.runningEffectCount == 1)
      store.send(.cancelLoading)
      await clock.run()
      await search.finish()
      #expect(store.items == [])
      run.cancel()
      await run.value
      #expect(store.runningEffectCount == 0)
    }

    @Test func feedbacksRunConcurrently() async {
      let slow = Gate()
      struct TwoFeedbacks: FeedbackSystem {
        let slow: Gate
        func reduce(into state: inout [String], event: String) { state.append(event) }
        var feedbacks: [Feedback<[String], String>] {
          [
            Feedback(.once) { [slow] _ in
              await slow.wait()
              return "slow"
            },
            Feedback(.once) { _ in "fast" },
          ]
        }
      }
      let store = Store(initialState: [String](), system: TwoFeedbacks(slow: slow))
      let run = Task { await store.run() }
      await store.wait(while: { !$0.contains("fast") })
      #expect(store.state == ["fast"])
      slow.open()
      await store.wait(while: { $0.count < 2 })
      #expect(store.state == ["fast", "slow"])
      run.cancel()
      await run.value
    }

    @Test func cancellingTheRunStopsEveryFeedback() async {
      let started = Gate()
      let stopped = LockIsolated(false)
      struct Forever: FeedbackSystem {
        let started: Gate
        let stopped: LockIsolated<Bool>
        func reduce(into state: inout Int, event: Int) { state += event }
        var feedbacks: [Feedback<Int, Int>] {
          [
            Feedback(.once) { [started, stopped] _ in
              started.open()
              do { try await Task.never() } catch { stopped.setValue(true) }
              return nil
            }
          ]
        }
      }
      let store = Store(initialState: 0, system: Forever(started: started, stopped: stopped))
      let run = Task { await store.run() }
      await started.wait()
      #expect(store.runningEffectCount == 1)
      run.cancel()
      await run.value
      #expect(stopped.value)
      #expect(store.runningEffectCount == 0)
    }

  }
}
