import Clocks
import ConcurrencyExtras
import Testing

@testable import Statecraft

extension Engine {
  @MainActor
  @Suite struct EffectTests {
    @Test func runDeliversActionsOnTheMainActorInOrder() async {
      let store = Store(initialState: [Int]()) {
        Reduce<[Int], Int> { state, action in
          guard action == 0 else {
            MainActor.assertIsolated()
            state.append(action)
            return .none
          }
          return .run { send in
            for value in 1...100 { await send(value) }
          }
        }
      }
      await store.send(0).finish()
      #expect(store.state == Array(1...100))
    }

    @Test func catchTurnsAnErrorIntoAnAction() async {
      struct Failure: Error {}
      let store = Store(initialState: "") {
        Reduce<String, String> { state, action in
          guard action == "load" else {
            state = action
            return .none
          }
          return .run { _ in
            throw Failure()
          } catch: { _, send in
            await send("failed")
          }
        }
      }
      await store.send("load").finish()
      #expect(store.state == "failed")
    }

    @Test func cancellationIsNotAnError() async {
      let clock = TestClock()
      let store = Store(initialState: 0) {
        Reduce<Int, Int> { _, action in
          action == 1
            ? .run { _ in try await clock.sleep(for: .seconds(1)) }.cancellable(id: "sleep")
            : .cancel(id: "sleep")
        }
      }
      let task = store.send(1)
      store.send(2)
      await task.finish()
      #expect(store.runningEffectCount == 0)
    }

    @Test func mergedEffectsRunConcurrently() async {
      let first = Gate()
      let second = Gate()
      let store = Store(initialState: [String]()) {
        Reduce<[String], String> { state, action in
          guard action == "start" else {
            state.append(action)
            return .none
          }
          return .merge(
            .run { send in
              await first.wait()
              await send("first")
            },
            .run { send in
              await second.wait()
              await send("second")
            }
          )
        }
      }
      let task = store.send("start")
      // The second effect finishes while the first is still waiting.
      second.open()
      first.open()
      await task.finish()
      #expect(Set(store.state) == ["first", "second"])
      #expect(store.state.count == 2)
    }

    @Test func concatenatedEffectsRunOneAfterAnother() async {
      let started = Gate()
      let release = Gate()
      let store = Store(initialState: [String]()) {
        Reduce<[String], String> { state, action in
          guard action == "start" else {
            state.append(action)
            return .none
          }
          return .concatenate(
            .run { send in
              started.open()
              await release.wait()
              await send("first")
            },
            .send("second"),
            .run { send in await send("third") }
          )
        }
      }
      let task = store.send("start")
      await started.wait()
      #expect(store.state == [])
      release.open()
      await task.finish()
      #expect(store.state == ["first", "second", "third"])
    }

    @Test func mapTransformsEverySentAction() async {
      let store = Store(initialState: [String]()) {
        Reduce<[String], String> { state, action in
          guard action == "start" else {
            state.append(action)
            return .none
          }
          let child: Effect<Int> = .merge(.send(1), .run { send in await send(2) })
          return child.map { "child \($0)" }
        }
      }
      await store.send("start").finish()
      #expect(store.state == ["child 1", "child 2"])
    }

    @Test func cancelInFlightCancelsTheRunningEffectWithTheSameID() async {
      let clock = TestClock()
      let store = Store(initialState: [String]()) {
        Reduce<[String], String> { state, action in
          if action.hasPrefix("result ") {
            state.append(action)
            return .none
          }
          return .run { send in
            try await clock.sleep(for: .seconds(1))
            await send("result \(action)")
          }
          .cancellable(id: "search", cancelInFlight: true)
        }
      }
      let first = store.send("a")
      let second = store.send("ab")
      await clock.advance(by: .seconds(1))
      await first.finish()
      await second.finish()
      #expect(store.state == ["result ab"])
    }

    @Test func cancelStopsEffectsByID() async {
      let clock = TestClock()
      let store = Store(initialState: [String]()) {
        Reduce<[String], String> { state, action in
          switch action {
          case "start":
            return .run { send in
              try await clock.sleep(for: .seconds(1))
              await send("done")
            }
            .cancellable(id: 1)
          case "stop":
            return .cancel(id: 1)
          default:
            state.append(action)
            return .none
          }
        }
      }
      let task = store.send("start")
      #expect(store.runningEffectCount == 1)
      store.send("stop")
      await task.finish()
      await clock.run()
      #expect(store.state == [])
      #expect(store.runningEffectCount == 0)
    }

    @Test func debounceRunsOnlyTheLastEffectOfABurst() async {
      let clock = TestClock()
      let store = Store(initialState: [String]()) {
        Reduce<[String], String> { state, action in
          if action.hasPrefix("search ") {
            state.append(action)
            return .none
          }
          return .send("search \(action)")
            .debounce(id: "query", for: .milliseconds(300), clock: clock)
        }
      }
      store.send("a")
      await clock.advance(by: .milliseconds(200))
      store.send("ab")
      await clock.advance(by: .milliseconds(200))
      let last = store.send("abc")
      await clock.advance(by: .milliseconds(299))
      #expect(store.state == [])
      await clock.advance(by: .milliseconds(1))
      await last.finish()
      #expect(store.state == ["search abc"])
    }

    @Test func throttleRunsTheFirstAtOnceAndTheLatestAtTheEndOfTheWindow() async {
      let clock = TestClock()
      let store = Store(initialState: [Int]()) {
        Reduce<[Int], Int> { state, action in
          if action >= 100 {
            state.append(action)
            return .none
          }
          return .send(action + 100)
            .throttle(id: "save", for: .seconds(1), clock: clock, latest: true)
        }
      }
      store.send(1)
      #expect(store.state == [101])
      store.send(2)
      let last = store.send(3)
      #expect(store.state == [101])
      await clock.advance(by: .seconds(1))
      await last.finish()
      #expect(store.state == [101, 103])
      await clock.advance(by: .seconds(1))
      store.send(4)
      #expect(store.state == [101, 103, 104])
      await clock.run()
    }

    @Test func throttleWithoutLatestKeepsTheFirstHeldBackEffect() async {
      let clock = TestClock()
      let store = Store(initialState: [Int]()) {
        Reduce<[Int], Int> { state, action in
          if action >= 100 {
            state.append(action)
            return .none
          }
          return .send(action + 100)
            .throttle(id: "save", for: .seconds(1), clock: clock, latest: false)
        }
      }
      store.send(1)
      let held = store.send(2)
      store.send(3)
      await clock.advance(by: .seconds(1))
      await held.finish()
      #expect(store.state == [101, 102])
      await clock.run()
    }

    @Test func cancelDropsWhatAThrottleHeldBack() async {
      let clock = TestClock()
      let store = Store(initialState: [Int]()) {
        Reduce<[Int], Int> { state, action in
          if action == 0 { return .cancel(id: "save") }
          if action >= 100 {
            state.append(action)
            return .none
          }
          return .send(action + 100)
            .throttle(id: "save", for: .seconds(1), clock: clock, latest: true)
        }
      }
      store.send(1)
      let held = store.send(2)
      store.send(0)
      await clock.advance(by: .seconds(1))
      await held.finish()
      #expect(store.state == [101])
      store.send(5)
      #expect(store.state == [101, 105])
      await clock.run()
    }

  }
}
