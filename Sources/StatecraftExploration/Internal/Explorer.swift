import Dependencies
import Foundation
import IssueReporting
import Statecraft
import StatecraftTestGenerator
import StatecraftTesting

/// Runs, checks and shrinks the sessions of one exploration.
@MainActor
final class Explorer<State, Action> {
  struct Outcome {
    var failure: (reason: ExplorationFailure<State, Action>.Reason, step: Int?, state: State)?
    var steps: Int
  }

  let feature: ExploredFeature<State, Action>
  let initialState: () -> State
  /// The user actions sessions send; nil when a session is only replayed.
  let actions: ActionGenerator<Action>?
  let options: ExplorationOptions
  let sessionEnd: SessionEnd<State, Action>
  let invariants: (State) throws -> Void
  /// How a generated test names the invariants, when they have a name: the test then replays
  /// the session with them (`replay`) instead of asserting the states it went through.
  let invariantsName: String?
  let prepareDependencies: (inout DependencyValues) -> Void

  init(
    feature: ExploredFeature<State, Action>,
    initialState: @escaping () -> State,
    actions: ActionGenerator<Action>?,
    options: ExplorationOptions,
    sessionEnd: SessionEnd<State, Action>,
    invariants: @escaping (State) throws -> Void,
    invariantsName: String? = nil,
    prepareDependencies: @escaping (inout DependencyValues) -> Void
  ) {
    self.feature = feature
    self.initialState = initialState
    self.actions = actions
    self.options = options
    self.sessionEnd = sessionEnd
    self.invariants = invariants
    self.invariantsName = invariantsName
    self.prepareDependencies = prepareDependencies
  }

  // MARK: - Exploring

  func explore(test: TestGenerator.Configuration?) async -> ExplorationReport<State, Action> {
    MainSerialExecutorUse.begin()
    defer { MainSerialExecutorUse.end() }
    var steps = 0
    for session in 0..<max(0, options.sessions) {
      var random = SeededRandom(seed: sessionSeed(session))
      let generated = generateSession(using: &random)
      let outcome = await run(generated)
      steps += outcome.steps
      guard let found = outcome.failure else { continue }
      let failing = Array(generated.prefix(found.step.map { $0 + 1 } ?? generated.count))
      let shrunk = await shrink(failing, reason: found.reason)
      // NB: the shrunk session once more, recorded where the idiom can become a test.
      let clock = ExplorationClock()
      let recorder =
        test != nil && feature.record != nil
        ? Recorder<State, Action>(initialState: initialState(), clock: clock) : nil
      let final = await run(shrunk, clock: clock, recorder: recorder)
      let failure = final.failure ?? found
      let testSource = test.map { test in
        invariantsName.map {
          replayTest(of: shrunk, reason: failure.reason, invariants: $0, configuration: test)
        }
          ?? generatedTest(
            of: shrunk, failure: failure, recording: recorder?.recording,
            configuration: replaying(clock.reorderings, in: test))
      }
      return ExplorationReport(
        seed: options.seed, sessions: session + 1, steps: steps,
        failure: ExplorationFailure(
          reason: failure.reason, seed: options.seed, session: session,
          steps: shrunk.map(\.exported), failingStep: failure.step, state: failure.state,
          originalStepCount: generated.count, test: testSource,
          sessionEnd: failure.step == nil ? sessionEndDescription : nil))
    }
    return ExplorationReport(
      seed: options.seed, sessions: max(0, options.sessions), steps: steps, failure: nil)
  }

  /// The end of a session as a person reads it.
  private var sessionEndDescription: String? {
    switch sessionEnd.kind {
    case .none: nil
    case .teardown(let actions) where actions.isEmpty: nil
    case .teardown(let actions):
      "after sending " + actions.map { describe($0) }.joined(separator: ", ")
    case .whenIdle: "with the state idle"
    }
  }

  /// The seed of one session: the exploration's seed and the session's index, mixed.
  private func sessionSeed(_ session: Int) -> UInt64 {
    var random = SeededRandom(seed: options.seed ^ (UInt64(session) &* 0x9E37_79B9_7F4A_7C15))
    return random.next()
  }

  /// A session: user actions, each followed by nothing more, a run of the effects that can
  /// run, or a move of the clock.
  func generateSession(using random: inout SeededRandom) -> [Step<Action>] {
    guard let actions else { return [] }
    let count = 1 + random.next(below: options.maxActions)
    var steps: [Step<Action>] = []
    for _ in 0..<count {
      steps.append(.send(actions.run(&random)))
      let roll = random.next(below: 10)
      if roll < 2 { continue }
      if roll < 6 || options.clockAdvances.isEmpty {
        steps.append(.runEffects)
        continue
      }
      let duration = options.clockAdvances[random.next(below: options.clockAdvances.count)]
      // NB: a small seed, so that a report reads well.
      let order: UInt64 = random.chance(1, in: 2) ? UInt64(1 + random.next(below: 99)) : 0
      steps.append(.advanceClock(by: duration, order: order))
    }
    return steps
  }

  // MARK: - Running one session

  /// Runs `steps` as a session, and returns how it failed, if it did: what `replay` checks.
  func replay(
    _ steps: [ExplorationStep<Action>]
  ) async -> (reason: ExplorationFailure<State, Action>.Reason, step: Int?, state: State)? {
    MainSerialExecutorUse.begin()
    defer { MainSerialExecutorUse.end() }
    return await run(steps.map(Step.init)).failure
  }

  func run(_ steps: [Step<Action>]) async -> Outcome {
    await run(steps, clock: ExplorationClock(), recorder: nil)
  }

  private func run(
    _ steps: [Step<Action>], clock: ExplorationClock, recorder: Recorder<State, Action>?
  ) async -> Outcome {
    let issues = IssueCollector()
    return await withIssueReporters([issues]) {
      let state = recorder?.initialState ?? initialState()
      let store = withDependencies {
        $0.continuousClock = clock
        $0.suspendingClock = clock
        prepareDependencies(&$0)
      } operation: {
        feature.makeStore(state)
      }
      if let recorder { feature.record?(store, recorder) }
      let loop: Task<Void, Never>? = feature.runsLoop ? Task { await store.run() } : nil
      defer {
        store.runtime.effects.cancelAll()
        loop?.cancel()
      }
      await settle(store)
      let baseline = store.runtime.effects.activeEffectCount
      var checked = 0
      @MainActor func check(after step: Int?) -> Outcome? {
        if let reason = self.check(store, issues: issues) {
          return Outcome(
            failure: (reason, step, store.withState { $0 }), steps: checked)
        }
        return nil
      }
      if let failure = check(after: nil) { return failure }
      for (index, step) in steps.enumerated() {
        switch step {
        case .send(let action):
          // NB: as a test store's `send` does, so that a session is one a test can replay:
          // an effect that answers at once has answered before the next step. With no effect
          // doing work, there is nothing to wait for.
          store.send(action.value)
          if store.runtime.effects.activeEffectCount > 0 { await settle(store) }
        case .runEffects:
          await settle(store)
        case .advanceClock(let duration, let order):
          await settle(store)
          _ = await clock.advance(by: duration, order: order) { await self.settle(store) }
        }
        checked += 1
        if let failure = check(after: index) { return failure }
      }
      // NB: the end of the session.
      switch sessionEnd.kind {
      case .none:
        break
      case .teardown(let actions):
        await settle(store)
        for action in actions {
          store.send(action)
          await settle(store)
          if let failure = check(after: nil) { return failure }
        }
        await settle(store)
        if let failure = check(after: nil) { return failure }
        let running = store.runtime.effects.activeEffectCount - baseline
        if running > 0 {
          return Outcome(
            failure: (.effectsStillRunning(running), nil, store.withState { $0 }), steps: checked)
        }
      case .whenIdle(let isIdle):
        await settle(store)
        if let failure = check(after: nil) { return failure }
        let running = store.runtime.effects.activeEffectCount - baseline
        if running > 0 && isIdle(store.withState { $0 }) {
          return Outcome(
            failure: (.effectsStillRunning(running), nil, store.withState { $0 }), steps: checked)
        }
      }
      if let message = roundTrip(store.withState { $0 }) {
        return Outcome(
          failure: (.stateRoundTrip(message), nil, store.withState { $0 }), steps: checked)
      }
      return Outcome(failure: nil, steps: checked)
    }
  }

  /// Checks the invariants and the issues reported since the session began.
  private func check(
    _ store: Store<State, Action>, issues: IssueCollector
  ) -> ExplorationFailure<State, Action>.Reason? {
    if issues.count > 0 { return .runtimeIssue(issues.message(at: 0)) }
    do {
      try invariants(store.withState { $0 })
    } catch let violation as InvariantViolation {
      return .invariant(violation.message)
    } catch {
      return .invariant("\(error)")
    }
    if issues.count > 0 { return .invariant(issues.message(at: 0)) }
    return nil
  }

  /// Lets the work that can run, run: yields until eight yields in a row change nothing in the
  /// store: fewer than a test store's twenty, because a session settles after most of its steps
  /// and the yields are most of a step's cost.
  func settle(_ store: Store<State, Action>) async {
    await store.runtime.settle(quietYields: 8)
  }

  /// Nil when the state is not `Codable` and `Equatable`, or survives a JSON round trip;
  /// otherwise what went wrong.
  private func roundTrip(_ state: State) -> String? {
    guard let codable = state as? any (Codable & Equatable) else { return nil }
    return Self.roundTrip(codable)
  }

  private static func roundTrip<Value: Codable & Equatable>(_ value: Value) -> String? {
    do {
      let data = try JSONEncoder().encode(value)
      let decoded = try JSONDecoder().decode(Value.self, from: data)
      return decoded == value ? nil : "decoded, it is \(decoded)"
    } catch {
      return "\(error)"
    }
  }

  // MARK: - Shrinking

  /// The smallest session found that fails for the same reason: removes chunks of steps, then
  /// single steps, shortens clock advances, restores the default order of sleepers due
  /// together, merges two clock advances into one of their sum, and simplifies actions, until
  /// nothing smaller fails. The result is locally minimal (within the budget): no step can be
  /// removed, no two advances merged, no action simplified, and still fail the same way.
  func shrink(_ steps: [Step<Action>], reason: ExplorationFailure<State, Action>.Reason) async
    -> [Step<Action>]
  {
    var current = steps
    var budget = options.shrinkBudget
    func fails(_ candidate: [Step<Action>]) async -> [Step<Action>]? {
      guard budget > 0 else { return nil }
      budget -= 1
      let outcome = await run(candidate)
      guard let failure = outcome.failure, failure.reason.isSameFailure(as: reason) else {
        return nil
      }
      return Array(candidate.prefix(failure.step.map { $0 + 1 } ?? candidate.count))
    }
    var improved = true
    while improved && budget > 0 {
      improved = false
      // Chunks, halving in size down to single steps.
      var size = max(1, current.count / 2)
      while size >= 1 {
        var start = 0
        while start + size <= current.count {
          var candidate = current
          candidate.removeSubrange(start..<(start + size))
          if let smaller = await fails(candidate) {
            current = smaller
            improved = true
          } else {
            start += size
          }
        }
        size /= 2
      }
      // Clock advances: the default order, then shorter, then no advance at all.
      for index in current.indices {
        guard case .advanceClock(let duration, let order) = current[index] else { continue }
        var candidates: [Step<Action>] = []
        if order != 0 { candidates.append(.advanceClock(by: duration, order: 0)) }
        for shorter in options.clockAdvances.sorted() where shorter < duration {
          candidates.append(.advanceClock(by: shorter, order: order))
        }
        candidates.append(.runEffects)
        for candidate in candidates {
          var session = current
          session[index] = candidate
          if let smaller = await fails(session), index < smaller.count {
            current = smaller
            improved = true
            break
          }
        }
      }
      // Clock advances merged: where two advances are adjacent, or have only other steps
      // between them, one advance of their sum in the later one's place, with either's order
      // of sleepers due together. The time passes later, and the session is a step shorter.
      var earlierIndex = 0
      while earlierIndex < current.count {
        guard case .advanceClock(let earlier, let earlierOrder) = current[earlierIndex],
          let laterIndex = current[(earlierIndex + 1)...].firstIndex(where: \.isAdvance),
          case .advanceClock(let later, let laterOrder) = current[laterIndex]
        else {
          earlierIndex += 1
          continue
        }
        var merged = false
        for order in laterOrder == earlierOrder ? [laterOrder] : [laterOrder, earlierOrder] {
          var session = current
          session[laterIndex] = .advanceClock(by: earlier + later, order: order)
          session.remove(at: earlierIndex)
          if let smaller = await fails(session) {
            current = smaller
            improved = true
            merged = true
            break
          }
        }
        if !merged { earlierIndex += 1 }
      }
      // Actions: their simpler values, as long as one fails.
      var index = 0
      while index < current.count {
        if case .send(let action) = current[index] {
          for simpler in action.shrinks() {
            var session = current
            session[index] = .send(simpler)
            if let smaller = await fails(session), index < smaller.count {
              current = smaller
              improved = true
              break
            }
          }
        }
        index += 1
      }
    }
    return current
  }

  // MARK: - The generated test

  /// The test that replays the shrunk session: step by step from its recording (a reducer's),
  /// or from its steps and the state it failed in.
  private func generatedTest(
    of steps: [Step<Action>],
    failure: (reason: ExplorationFailure<State, Action>.Reason, step: Int?, state: State),
    recording: Recording<State, Action>?,
    configuration: TestGenerator.Configuration
  ) -> String {
    let source: String
    if let recording {
      source = TestGenerator.generate(from: recording, configuration: configuration)
    } else {
      var replayed: [TestGenerator.Session<State, Action>.Step] = steps.compactMap { step in
        switch step {
        case .send(let action): .send(action.value)
        case .runEffects: nil
        case .advanceClock(let duration, _): .advanceClock(by: duration)
        }
      }
      if failure.step == nil, case .teardown(let actions) = sessionEnd.kind {
        replayed += actions.map { .send($0) }
      }
      source = TestGenerator.generate(
        session: TestGenerator.Session(
          initialState: initialState(), steps: replayed, finalState: failure.state),
        configuration: configuration)
    }
    let found = "Exploration (seed \(options.seed)) found: \(failure.reason)"
      .split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "//" : "// \($0)" }
    let header =
      found + [
        "// The test replays the shrunk session; assert what should have held where it failed."
      ]
    return (header + [source]).joined(separator: "\n")
  }

  /// The test that replays the shrunk session with `replay` and the exploration's named
  /// invariants: it checks what exploration checked, so it fails on the bug and passes once the
  /// bug is fixed. The steps keep the order of sleepers due together that the session used.
  private func replayTest(
    of steps: [Step<Action>],
    reason: ExplorationFailure<State, Action>.Reason,
    invariants: String,
    configuration: TestGenerator.Configuration
  ) -> String {
    var lines =
      "Exploration (seed \(options.seed)) found: \(reason)"
      .split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "//" : "// \($0)" }
    lines.append(
      "// The test replays the shrunk session with the exploration's checks: it fails while the")
    lines.append("// bug is there, and passes once it is fixed.")
    let imports = Set(configuration.imports).union([
      "Statecraft", "StatecraftExploration", "Testing",
    ])
    lines += imports.sorted().map { "import \($0)" }
    lines.append("")
    var indent = ""
    func line(_ text: String) { lines.append(text.isEmpty ? "" : indent + text) }
    if let extending = configuration.extending {
      line("extension \(extending) {")
      indent += "  "
    }
    line("@MainActor")
    if let suite = configuration.suite {
      line("@Suite struct \(suite) {")
      indent += "  "
    }
    line("@Test func \(configuration.testName)() async {")
    indent += "  "
    line("await replay(")
    indent += "  "
    line("initialState: \(TestGenerator.swiftSource(initialState())),")
    switch configuration.idiom {
    case .reducer: line("reducer: { \(configuration.reducer) },")
    case .reactor: line("reactor: \(configuration.reducer),")
    case .feedbackSystem: line("system: \(configuration.reducer),")
    }
    let written = steps.map { step in
      switch step {
      case .send(let action): ".send(\(TestGenerator.swiftSource(action.value)))"
      case .runEffects: ".runEffects"
      case .advanceClock(let duration, let order):
        ".advanceClock(by: \(TestGenerator.swiftSource(duration)), order: \(order))"
      }
    }
    // NB: as swift-format writes them: one step on the line of its array, more one a line.
    if written.count <= 1 {
      line("steps: [\(written.joined())],")
    } else {
      line("steps: [")
      for step in written { line("  \(step),") }
      line("],")
    }
    switch sessionEnd.kind {
    case .none: break
    case .teardown(let actions):
      let sent = actions.map { TestGenerator.swiftSource($0) }.joined(separator: ", ")
      line("sessionEnd: .teardown([\(sent)]),")
    case .whenIdle:
      // NB: a closure has no source to write: the user passes the exploration's own.
      line("// The exploration's sessions ended `.whenIdle { … }`: pass the same `sessionEnd:`.")
    }
    // NB: `replay` puts its own clock in the dependencies: the configuration's lines that set
    // the clock are left out.
    let clockName = configuration.clock?.name
    let dependencies = configuration.dependencies.filter { dependency in
      guard let clockName else { return true }
      return !dependency.replacingOccurrences(of: " ", with: "").hasSuffix("=" + clockName)
    }
    if !dependencies.isEmpty {
      line("withDependencies: {")
      for dependency in dependencies { line("  " + dependency) }
      line("},")
    }
    line("checking: \(invariants)")
    indent.removeLast(2)
    line(")")
    while !indent.isEmpty {
      indent.removeLast(2)
      line("}")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The configuration of a test whose clock resumes the sleepers due together in the orders
  /// the session's clock did (`ExplorationClock(orders:)`), when it changed any.
  private func replaying(
    _ reorderings: [Duration: UInt64], in configuration: TestGenerator.Configuration
  ) -> TestGenerator.Configuration {
    guard !reorderings.isEmpty, var clock = configuration.clock else { return configuration }
    let orders = reorderings.sorted { $0.key < $1.key }
      .map { "\(TestGenerator.swiftSource($0.key)): \($0.value)" }
    clock.initializer = "ExplorationClock(orders: [\(orders.joined(separator: ", "))])"
    clock.module = "StatecraftExploration"
    var configuration = configuration
    configuration.clock = clock
    return configuration
  }
}
