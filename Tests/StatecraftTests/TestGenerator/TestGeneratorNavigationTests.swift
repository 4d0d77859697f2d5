import Foundation
import StatecraftTestGenerator
import Testing

@testable import Statecraft

extension Engine {
  /// The test generator on navigation state: stacks and presentations written through their
  /// public API, changes beside them and inside them as the smallest mutations, and stack
  /// element ids in actions read from the test store's state. A whole session of such a
  /// feature is committed, compiled and run as GeneratedTrailSessionTests.swift.
  @MainActor
  @Suite struct TestGeneratorNavigationTests {
    // MARK: - Values as source

    @Test func navigationStateIsWrittenThroughPublicAPIWithoutItsIDs() {
      var state = Trail.State(visits: Shared(value: 2))
      state.path.append(Trail.Page.State(title: "a"))
      state.sheet = Trail.Sheet.State(text: "t", words: 1)
      let source = TestGenerator.swiftSource(state)
      #expect(
        source
          == #"Trail.State(path: StackState([Trail.Page.State(title: "a", edits: 0)]), "#
          + #"sheet: Trail.Sheet.State(text: "t", words: 1), alert: nil, "#
          + #"visits: Shared(value: 2), titles: [])"#)
      #expect(!source.contains("rawValue"))
      #expect(!source.contains("elements:"))
      #expect(TestGenerator.swiftSource(StackState<Int>()) == "StackState()")
      #expect(TestGenerator.swiftSource(StackState([7, 8])) == "StackState([7, 8])")
      #expect(
        TestGenerator.swiftSource(PresentationState(wrappedValue: 5))
          == "PresentationState(wrappedValue: 5)")
      #expect(
        TestGenerator.swiftSource(PresentationState<Int>(wrappedValue: nil))
          == "PresentationState(wrappedValue: nil)")
      #expect(
        TestGenerator.swiftSource(Trail.clearAlert)
          == #"AlertState<Trail.Action.Alert>(title: "Clear?", message: nil, buttons: ["#
          + #"ButtonState<Trail.Action.Alert>(role: .destructive, action: .clear, label: "Clear"), "#
          + #"ButtonState<Trail.Action.Alert>(role: .cancel, action: nil, label: "Keep")])"#)
    }

    @Test func aStackElementIDHasNoPublicSpellingAndIsAFreshOneAlone() {
      #expect(
        TestGenerator.swiftSource(Trail.Action.path(.popFrom(id: StackElementID())))
          == ".path(.popFrom(id: StackElementID()))")
    }

    // MARK: - The smallest mutations

    @Test func aChangeBesideNavigationStateIsTheSmallestMutation() {
      var before = Trail.State(visits: Shared(value: 0))
      before.path.append(Trail.Page.State(title: "a"))
      before.sheet = Trail.Sheet.State()
      before.alert = Trail.clearAlert
      var after = before
      after.titles.append("x")
      #expect(TestGenerator.mutations(from: before, to: after) == [#"$0.titles.append("x")"#])
    }

    @Test func stacksChangeAsArraysOfTheirElements() {
      var before = Trail.State(visits: Shared(value: 0))
      before.path.append(Trail.Page.State(title: "a"))
      var pushed = before
      pushed.path.append(Trail.Page.State(title: "b"))
      #expect(
        TestGenerator.mutations(from: before, to: pushed)
          == [#"$0.path.append(Trail.Page.State(title: "b", edits: 0))"#])
      var edited = pushed
      edited.path[1].edits = 3
      #expect(TestGenerator.mutations(from: pushed, to: edited) == ["$0.path[1].edits = 3"])
      #expect(TestGenerator.mutations(from: pushed, to: before) == ["$0.path.removeLast()"])
      var emptied = before
      emptied.path.removeAll()
      #expect(TestGenerator.mutations(from: before, to: emptied) == ["$0.path = StackState()"])
      // NB: a stack rebuilt with the same elements has new ids, which a test store ignores.
      var rebuilt = pushed
      rebuilt.path = StackState(Array(pushed.path))
      #expect(TestGenerator.mutations(from: pushed, to: rebuilt).isEmpty)
    }

    @Test func aPresentationIsAssignedWhenItComesOrGoesAndMutatedWhileItStays() {
      let before = Trail.State(visits: Shared(value: 0))
      var shown = before
      shown.sheet = Trail.Sheet.State()
      #expect(
        TestGenerator.mutations(from: before, to: shown)
          == ["$0.sheet = Trail.Sheet.State(text: \"\", words: 0)"])
      var typed = shown
      typed.sheet?.text = "two words"
      typed.sheet?.words = 2
      #expect(
        TestGenerator.mutations(from: shown, to: typed)
          == [#"$0.sheet?.text = "two words""#, "$0.sheet?.words = 2"])
      #expect(TestGenerator.mutations(from: typed, to: before) == ["$0.sheet = nil"])
      var alerted = before
      alerted.alert = Trail.clearAlert
      #expect(
        TestGenerator.mutations(from: before, to: alerted)
          == ["$0.alert = \(TestGenerator.swiftSource(Trail.clearAlert))"])
      // NB: presenting an equal value again is a new identity, which a test store ignores.
      var again = shown
      again.sheet = Trail.Sheet.State()
      #expect(TestGenerator.mutations(from: shown, to: again).isEmpty)
      #expect(
        TestGenerator.mutations(
          from: PresentationState<Int>(wrappedValue: nil), to: PresentationState(wrappedValue: 4))
          == ["$0.wrappedValue = 4"])
    }

    // MARK: - A whole session

    /// A session of every kind of navigation change, recorded from a live store: its test is
    /// committed, formatted, as GeneratedTrailSessionTests.swift, which this target compiles
    /// and runs.
    @Test func theTrailSessionGeneratesTheCommittedTest() async throws {
      let source = TestGenerator.generate(
        from: await Self.recordTrailSession(),
        configuration: TestGenerator.Configuration(
          reducer: "Trail()", testName: "trailSession", suite: "GeneratedTrailSessionTests",
          extending: "Engine"))
      #expect(source.contains("store.state.path.ids[0]"))
      #expect(!source.contains("rawValue"))
      let committed = try String(
        contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
          .appendingPathComponent("GeneratedTrailSessionTests.swift"),
        encoding: .utf8)
      #expect(normalized(source) == normalized(committed), "\(source)")
    }

    static func recordTrailSession() async -> Recording<Trail.State, Trail.Action> {
      let recorder = RecorderOf<Trail>(initialState: Trail.State(visits: Shared(value: 0)))
      let store = Store(initialState: recorder.initialState) { Trail() }
      store.record(into: recorder)
      store.send(.open("Home"))
      store.send(.path(.element(id: store.path.ids[0], action: .rename("Start"))))
      store.send(.open("Next"))
      store.send(.path(.element(id: store.path.ids[1], action: .rename("Then"))))
      store.send(.showSheet)
      store.send(.sheet(.presented(.type("two words"))))
      store.send(.sheet(.dismiss))
      store.send(.askToClear)
      store.send(.alert(.presented(.clear)))
      store.send(.open("Again"))
      await store.send(.path(.element(id: store.path.ids[0], action: .close))).finish()
      return recorder.recording
    }
  }
}
