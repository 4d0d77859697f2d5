import Foundation
import Statecraft
import Testing

@testable import StatecraftInspector

extension Engine {
  /// The Inspector's moves (skip, unskip, continue, undo continue, commit), views and exports,
  /// in random orders with the app's sends between them, against a model of the timeline: after
  /// each operation the store is at the state the model's steps lead to, every step viewed is
  /// the model's, and an export replays to the live state with the model's actions.
  @MainActor
  @Suite struct InspectorMoveModelTests {
    /// The timeline as the model has it: the state the window starts from, and the steps after.
    struct Model {
      struct Step {
        let action: Tally.Action
        var isSkipped = false
      }
      var base = Tally.State()
      var first = 0
      var steps: [Step] = []
      /// The steps "continue from here" set aside, after step `from`.
      var branch: (from: Int, steps: [Step])?

      var last: Int { first + steps.count }

      func state(at step: Int) -> Tally.State {
        var state = base
        for recorded in steps.prefix(step - first) where !recorded.isSkipped {
          _ = Tally().reduce(into: &state, action: recorded.action)
        }
        return state
      }

      /// The actions an export from `step` on holds: those not skipped.
      func recordedActions(after step: Int) -> [Tally.Action] {
        steps.dropFirst(step - first).filter { !$0.isSkipped }.map(\.action)
      }
    }

    enum Operation {
      case send, view, skip, unskip, continueFromHere, undoContinue, commit, export
    }

    static let weighted: [Operation] = [
      .send, .send, .send, .view, .view, .skip, .unskip, .continueFromHere, .undoContinue, .export,
    ]

    @Test(.timeLimit(.minutes(1)), arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func movesViewsAndExportsAgreeWithAModelOfTheTimeline(seed: UInt64) async throws {
      var random = SplitMix64(seed: seed)
      let store = Store(initialState: Tally.State()) { Tally() }
      var configuration = InspectorConfiguration()
      configuration.checkpointInterval = 2
      configuration.maximumCheckpoints = 4
      // NB: with half the seeds, the oldest steps leave the window as the session goes on.
      configuration.maximumSteps = seed.isMultiple(of: 2) ? 8 : 100_000
      let inspector = try await Inspector(store: store, configuration: configuration)
      try await withInspectorPage(inspector) { page, _ in
        var model = Model()
        var sent = 0
        for round in 0..<160 {
          // NB: sends weigh most, so that the timeline grows past the window; a commit, which
          // starts it over, comes every 50 rounds.
          let operation =
            round < 6
            ? .send : round % 50 == 49 ? .commit : Self.weighted.randomElement(using: &random)!
          let context = "seed \(seed), round \(round), \(operation)"
          let window = inspector.session.windowStart
          switch operation {
          case .send:
            for _ in 0..<Int.random(in: 1...3, using: &random) {
              sent += 1
              if Int.random(in: 0..<5, using: &random) == 0 {
                // NB: its effect sends `fetched`, whose effect sends a note: three steps, two of
                // them an effect's, which a replay reduces without running any effect.
                store.send(.fetch)
                model.steps += [.init(action: .fetch), .init(action: .fetched(100))]
                model.steps.append(.init(action: .note("fetched")))
                _ = try await page.readSteps(count: 3)
                continue
              }
              let action: Tally.Action =
                Bool.random(using: &random)
                ? .add(Int.random(in: 1...9, using: &random)) : .note("n\(sent)")
              store.send(action)
              model.steps.append(.init(action: action))
              _ = try await page.readSteps(count: 1)
            }
          case .view:
            let step = Int.random(in: window...model.last, using: &random)
            try await page.sendText(#"{"type":"detail","step":\#(step)}"#)
            let detail = try await page.read(until: "detail").message
            let expected = model.state(at: step)
            let state = detail["state"] as? [String: Any]
            #expect(state?["count"] as? Int == expected.count, "\(context), step \(step)")
            #expect(state?["notes"] as? [String] == expected.notes, "\(context), step \(step)")
          case .skip, .unskip:
            let skipping = operation == .skip
            let candidates = model.steps.indices.filter {
              model.first + $0 >= window && model.steps[$0].isSkipped != skipping
            }
            guard let index = candidates.randomElement(using: &random) else { continue }
            let step = model.first + index + 1
            let type = skipping ? "skip" : "unskip"
            let accepted = try await move(#"{"type":"\#(type)","step":\#(step)}"#, on: &page)
            // NB: refused only before steps set aside (their states would change under them).
            #expect(accepted || model.branch.map { step <= $0.from } == true, "\(context)")
            if accepted { model.steps[index].isSkipped = skipping }
          case .continueFromHere:
            guard model.last > window else { continue }
            let step = Int.random(in: window..<model.last, using: &random)
            let accepted = try await move(#"{"type":"continue","step":\#(step)}"#, on: &page)
            #expect(accepted, "\(context), step \(step)")
            if accepted {
              let kept = step - model.first
              model.branch = (step, Array(model.steps[kept...]))
              model.steps.removeSubrange(kept...)
            }
          case .undoContinue:
            let accepted = try await move(#"{"type":"undoContinue"}"#, on: &page)
            #expect(accepted == (model.branch != nil), "\(context)")
            if accepted, let branch = model.branch {
              let kept = branch.from - model.first
              // NB: the steps taken since the continue are set aside in turn (none: nothing is).
              let taken = Array(model.steps[kept...])
              model.branch = taken.isEmpty ? nil : (branch.from, taken)
              model.steps.replaceSubrange(kept..., with: branch.steps)
            }
          case .commit:
            let accepted = try await move(#"{"type":"commit"}"#, on: &page)
            #expect(accepted == (model.branch == nil), "\(context)")
            if accepted {
              model.base = model.state(at: model.last)
              model.first = model.last
              model.steps = []
            }
          case .export:
            let recording = try RecordingOf<Tally>(
              jsonData: try await inspector.session.exportData())
            let first = try #require(inspector.session.timeline?.firstStep)
            #expect(recording.initialState == model.state(at: first), "\(context)")
            #expect(recording.actions == model.recordedActions(after: first), "\(context)")
            #expect(recording.replay(against: Tally()).isReproduced, "\(context)")
          }
          #expect(store.state == model.state(at: model.last), "\(context)")
        }
        print(
          "END", seed, inspector.session.windowStart, inspector.session.timeline?.firstStep ?? -1,
          model.last, inspector.setAsideSessions().count)
        for (index, data) in inspector.setAsideSessions().enumerated() {
          let recording = try RecordingOf<Tally>(jsonData: data)
          #expect(
            recording.replay(against: Tally()).isReproduced, "seed \(seed), set aside \(index)")
        }
      }
      await inspector.stop()
    }

    /// Asks for a move and reads its answer: the timeline sent again (and its steps), or an
    /// error. Returns whether the move was made.
    func move(_ request: String, on page: inout WireConnection) async throws -> Bool {
      try await page.sendText(request)
      while true {
        let message = try await page.readMessage()
        switch message["type"] as? String {
        case "timeline":
          // NB: the steps of the window are sent again after it.
          let count = (message["stepCount"] as? Int ?? 0) - (message["firstStep"] as? Int ?? 0)
          if count > 0 { _ = try await page.readSteps(count: count) }
          return true
        case "error":
          return false
        default:
          continue
        }
      }
    }
  }
}
