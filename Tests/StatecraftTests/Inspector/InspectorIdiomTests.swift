import CasePathsCore
import Foundation
import Statecraft
import Testing

@testable import StatecraftInspector

extension Engine {
  /// The Inspector on stores of every idiom, and on one feature of a larger store.
  @MainActor
  @Suite struct InspectorIdiomTests {
    struct Clicker: Reactor {
      enum Action: Equatable, Sendable { case click }
      enum Mutation: Equatable, Sendable { case setCount(Int) }
      struct State: Equatable, Sendable { var count = 0 }

      func mutate(state: State, action: Action) -> Effect<Mutation> {
        .run { [count = state.count] send in await send(.setCount(count + 1)) }
      }

      func reduce(state: inout State, mutation: Mutation) {
        switch mutation {
        case .setCount(let count): state.count = count
        }
      }
    }

    struct Steps: FeedbackSystem {
      struct State: Equatable, Sendable { var count = 0 }
      enum Event: Equatable, Sendable { case step }

      func reduce(into state: inout State, event: Event) { state.count += 1 }
      var feedbacks: [Feedback<State, Event>] { [] }
    }

    /// A feature holding `Tally` beside state of its own.
    struct Desk: Reducer {
      struct State: Equatable, Sendable {
        var tally = Tally.State()
        var lamp = false
      }
      enum Action: Equatable, Sendable {
        case tally(Tally.Action)
        case lampToggled
      }
      static let tallyCase = AnyCasePath<Action, Tally.Action>(embed: Action.tally) {
        if case .tally(let action) = $0 { action } else { nil }
      }

      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .tally(let action):
          return Tally().reduce(into: &state.tally, action: action).map(Action.tally)
        case .lampToggled:
          state.lamp.toggle()
          return .none
        }
      }
    }

    func withPage<Result>(
      _ inspector: Inspector<some Any, some Any>,
      _ body: @MainActor (inout WireConnection, [String: Any]) async throws -> Result
    ) async throws -> Result {
      try await withInspectorPage(inspector, host: "localhost", body)
    }

    @Test func aReactorStoreShowsItsActionsAndMutationsAndContinuesFromAStep() async throws {
      let store = Store(initialState: Clicker.State(), reactor: Clicker())
      let inspector = try await Inspector(store: store)
      try await withPage(inspector) { page, welcome in
        #expect(welcome["feature"] as? String == "Clicker")
        await store.send(.click).finish()
        await store.send(.click).finish()
        let steps = try await page.readSteps(count: 4)
        #expect(
          steps.map { $0["c"] as? String }
            == ["action.click", "mutation.setCount", "action.click", "mutation.setCount"])
        #expect(steps.map { $0["o"] as? String } == ["send", "effect", "send", "effect"])
        try await page.sendText(#"{"type":"jump","step":2}"#)
        let detail = try await page.read(until: "detail").message
        #expect((detail["state"] as? [String: Any])?["count"] as? Int == 1)
        #expect(store.count == 2)
        try await page.sendText(#"{"type":"continue","step":2}"#)
        _ = try await page.read(until: "timeline")
        #expect(store.count == 1)
        await store.send(.click).finish()
        #expect(store.count == 2)
      }
      await inspector.stop()
    }

    @Test func aFeedbackSystemStoreShowsItsEventsAndContinuesFromAStep() async throws {
      let store = Store(initialState: Steps.State(), system: Steps())
      let run = Task { await store.run() }
      let inspector = try await Inspector(store: store)
      try await withPage(inspector) { page, _ in
        store.send(.step)
        store.send(.step)
        var steps: [[String: Any]] = []
        while steps.count(where: { $0["c"] as? String == "event.step" }) < 2 {
          steps += try await page.readSteps(count: 1)
        }
        let events = steps.filter { ($0["c"] as? String)?.hasPrefix("event") == true }
        #expect(events.map { $0["o"] as? String } == ["send", "send"])
        try await page.sendText(#"{"type":"jump","step":0}"#)
        let detail = try await page.read(until: "detail").message
        #expect((detail["state"] as? [String: Any])?["count"] as? Int == 0)
        #expect(store.count == 2)
        try await page.sendText(#"{"type":"continue","step":0}"#)
        _ = try await page.read(until: "timeline")
        #expect(store.count == 0)
      }
      await inspector.stop()
      #expect(store.count == 0)
      run.cancel()
      await run.value
    }

    @Test func aScopedStoreIsRefusedWithTheWayToInspectItsFeature() async throws {
      let store = Store(initialState: Desk.State()) { Desk() }
      let tally = store.scope(state: \.tally, action: Desk.Action.tally)
      await #expect {
        _ = try await Inspector(store: tally)
      } throws: { error in
        guard case .scopedStore(let root) = error as? InspectorError else { return false }
        return root.hasSuffix("Desk.State")
          && "\(error)".contains("Inspector(store: root, state: \\.feature, action: ...)")
      }
      await #expect(throws: InspectorError.self) {
        _ = try await Inspector(
          store: tally, state: \.count,
          action: AnyCasePath<Tally.Action, Int>(embed: Tally.Action.add) {
            if case .add(let amount) = $0 { amount } else { nil }
          })
      }
    }

    @Test func oneFeatureOfALargerStoreIsInspectedAndExportedAlone() async throws {
      let store = Store(initialState: Desk.State()) { Desk() }
      let inspector = try await Inspector(store: store, state: \.tally, action: Desk.tallyCase)
      inspector.replaysImports(against: Tally())
      try await withPage(inspector) { page, welcome in
        #expect(welcome["feature"] as? String == "Tally")
        store.send(.tally(.add(2)))
        store.send(.lampToggled)
        store.send(.tally(.note("on")))
        let steps = try await page.readSteps(count: 2)
        #expect(steps.map { $0["c"] as? String } == ["add", "note"])

        try await page.sendText(#"{"type":"jump","step":1}"#)
        let detail = try await page.read(until: "detail").message
        #expect((detail["state"] as? [String: Any])?["count"] as? Int == 2)
        #expect(store.state == Desk.State(tally: Tally.State(count: 2, notes: ["on"]), lamp: true))
        // NB: "continue" puts the feature's state of that step into the root's current state.
        try await page.sendText(#"{"type":"continue","step":1}"#)
        _ = try await page.read(until: "timeline")
        #expect(store.state == Desk.State(tally: Tally.State(count: 2), lamp: true))

        try await page.sendText(#"{"type":"send","action":{"add":{"_0":3}}}"#)
        _ = try await page.read(until: "sent")
        #expect(store.tally.count == 5)

        let export = try await inspector.session.exportData()
        let recording = try RecordingOf<Tally>(jsonData: export)
        #expect(recording.actions == [.add(2), .add(3)])
        #expect(recording.replay(against: Tally()).isReproduced)
      }
      await inspector.stop()
    }

    @Test func aStateThatIsNotCodableIsShownAsATree() async throws {
      struct Plain: Equatable {
        var name = "x"
        var sizes: [Int] = [1, 2]
        var kind: Kind = .big(3)
        enum Kind: Equatable { case small, big(Int) }
      }
      let store = Store(initialState: Plain()) {
        Reduce<Plain, Plain.Kind> { state, action in
          state.kind = action
          return .none
        }
      }
      let inspector = try await Inspector(store: store)
      try await withPage(inspector) { page, welcome in
        let capabilities = welcome["capabilities"] as? [String: Bool]
        #expect(capabilities?["send"] == false)
        #expect(capabilities?["export"] == false)
        store.send(.small)
        let steps = try await page.readSteps(count: 1)
        #expect(steps.first?["c"] as? String == "small")
        try await page.sendText(#"{"type":"detail","step":0}"#)
        let detail = try await page.read(until: "detail").message
        let state = try #require(detail["state"] as? [String: Any])
        #expect(state["name"] as? String == "x")
        #expect(state["sizes"] as? [Int] == [1, 2])
        #expect((state["kind"] as? [String: Any])?["big"] as? Int == 3)
        try await page.sendText(#"{"type":"send","action":"small"}"#)
        let error = try await page.read(until: "error").message
        #expect((error["message"] as? String)?.contains("is not Decodable") == true)
      }
      let export = try await WireClient.request(
        port: inspector.port, target: "/export?token=\(inspector.token)")
      #expect(export.status == 409)
      await inspector.stop()
    }
  }
}
