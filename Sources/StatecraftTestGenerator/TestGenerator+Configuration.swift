extension TestGenerator {
  /// What a generated test needs to know that a recording doesn't hold: how to build the
  /// feature, its initial state and its clock, and what to call the test.
  ///
  /// ```swift
  /// TestGenerator.Configuration(
  ///   imports: ["TodosFeature"],
  ///   reducer: "Todos(clock: clock, save: { _ in })",
  ///   testName: "recordedSession",
  ///   initialState: .expression("Todos.State()"),
  ///   clock: TestGenerator.Clock(name: "clock"))
  /// ```
  public struct Configuration: Sendable {
    /// The modules the test imports besides `Testing`, `Statecraft`, `StatecraftTesting` (and
    /// `Clocks` with a clock), which it always imports: the feature's module, and those of the
    /// types its state and actions use (`IdentifiedCollections`).
    public var imports: [String]
    /// The expression, in the test's body, of the reducer the test store runs: a call of the
    /// feature's initializer, with test dependencies (`Todos(clock: clock, save: { _ in })`).
    /// It may use the clock by ``TestGenerator/Clock/name``.
    public var reducer: String
    /// The name of the test function: a Swift identifier.
    public var testName: String
    /// The state the test store starts from.
    public var initialState: InitialState
    /// The `TestClock` the feature is given, if it runs time-based effects.
    public var clock: Clock?
    /// A suite type to put the test in (`@MainActor @Suite struct Name { ... }`), if any.
    public var suite: String?
    /// A type to extend with the suite or test (`extension Name { ... }`), if any: in a test
    /// target whose suites nest in one parent suite.
    public var extending: String?
    /// What the test does after the last step.
    public var ending: Ending
    /// The lines of the test store's `withDependencies` closure, if any: how the feature gets
    /// the clock and its other dependencies (`$0.continuousClock = clock`).
    public var dependencies: [String]

    /// A configuration; see each property.
    public init(
      imports: [String] = [],
      reducer: String,
      testName: String = "recordedSession",
      initialState: InitialState = .recorded,
      clock: Clock? = nil,
      suite: String? = nil,
      extending: String? = nil,
      ending: Ending = .finish,
      dependencies: [String] = []
    ) {
      self.imports = imports
      self.reducer = reducer
      self.testName = testName
      self.initialState = initialState
      self.clock = clock
      self.suite = suite
      self.extending = extending
      self.ending = ending
      self.dependencies = dependencies
    }
  }

  /// How a generated test writes the state its test store starts from.
  public struct InitialState: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
      case recorded
      case expression(String)
    }
    let kind: Kind

    /// The recording's initial state, written by ``TestGenerator/swiftSource(_:)``: for a state
    /// whose memberwise initializer is public.
    public static let recorded = InitialState(kind: .recorded)

    /// An expression of the feature's initial state (`Todos.State(todos: [...])`): for a state
    /// built by an initializer of its own. It must equal the recording's initial state.
    public static func expression(_ source: String) -> InitialState {
      InitialState(kind: .expression(source))
    }
  }

  /// The `TestClock` a generated test gives its feature.
  ///
  /// The test declares `let <name> = TestClock()` before the test store, so that
  /// ``TestGenerator/Configuration/reducer`` can pass it to the feature, and advances it before
  /// each step to the time the step was recorded at (`Recording.times`, measured from the start of
  /// the recording): before each received action exactly, before a sent one when a millisecond or
  /// more passed since the last advance. A timer that fired before a step in the session has fired
  /// before that step in the test: the test clock starts each sleep no later than the session did.
  /// Steps without a recorded time don't advance it.
  ///
  /// Record the session with the clock its effects run on
  /// (`Recorder(initialState:clock:)`), so that the times are the effects' times.
  public struct Clock: Sendable, Equatable {
    /// The clock's name in the test (`clock`).
    public var name: String

    /// A clock named `name`.
    public init(name: String = "clock") {
      self.name = name
    }
  }

  /// What a generated test does after the last step.
  public struct Ending: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
      case finish, skipInFlightEffects, nothing
    }
    let kind: Kind

    /// `await store.finish()`: every effect must have ended (the session ended with none
    /// running, as after the todos demo's `quit`).
    public static let finish = Ending(kind: .finish)
    /// `await store.skipInFlightEffects(strict: false)`: the session ended with effects still
    /// running (a timer, a long request), which the test cancels.
    public static let skipInFlightEffects = Ending(kind: .skipInFlightEffects)
    /// Nothing: the test store's own checks at the end of the test apply.
    public static let nothing = Ending(kind: .nothing)
  }
}
