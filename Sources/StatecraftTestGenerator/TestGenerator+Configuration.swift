extension TestGenerator {
  /// What a generated test needs to know that a recording doesn't hold: how to build the
  /// feature, its dependencies, its initial state and its clock, and what to call the test.
  ///
  /// ```swift
  /// TestGenerator.Configuration(
  ///   imports: ["TodosFeature"],
  ///   reducer: "Todos()",
  ///   dependencies: ["$0.continuousClock = clock"],
  ///   testName: "recordedSession",
  ///   initialState: .expression("Todos.State()"),
  ///   clock: TestGenerator.Clock(name: "clock"))
  /// ```
  public struct Configuration: Sendable {
    /// The modules the test imports besides `Testing`, `Statecraft`, `StatecraftTesting` (and
    /// the clock's ``TestGenerator/Clock/module``), which it always imports: the feature's module, and those of the
    /// types its state and actions use (`IdentifiedCollections`).
    public var imports: [String]
    /// The expression, in the test's body, of the feature the test store runs: a call of the
    /// feature's initializer (`Todos()`), a reducer unless ``idiom`` says otherwise. It may use
    /// the clock by ``TestGenerator/Clock/name``.
    public var reducer: String
    /// Which kind of feature ``reducer`` makes, and so how the test store is made:
    /// `TestStore(initialState:) { Todos() }` for a reducer,
    /// `TestStore(initialState:reactor:)` or `TestStore(initialState:system:)` otherwise.
    public var idiom: Idiom
    /// The statements of the test store's `withDependencies` closure, one per line, each setting
    /// a dependency on `$0` (`$0.continuousClock = clock`); empty writes no closure. They may use
    /// the clock by ``TestGenerator/Clock/name``.
    public var dependencies: [String]
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

    /// A configuration; see each property.
    public init(
      imports: [String] = [],
      reducer: String,
      idiom: Idiom = .reducer,
      dependencies: [String] = [],
      testName: String = "recordedSession",
      initialState: InitialState = .recorded,
      clock: Clock? = nil,
      suite: String? = nil,
      extending: String? = nil,
      ending: Ending = .finish
    ) {
      self.imports = imports
      self.reducer = reducer
      self.idiom = idiom
      self.dependencies = dependencies
      self.testName = testName
      self.initialState = initialState
      self.clock = clock
      self.suite = suite
      self.extending = extending
      self.ending = ending
    }
  }

  /// The kind of feature a generated test's store runs.
  public enum Idiom: Sendable, Equatable {
    /// A reducer: `TestStore(initialState: ...) { Feature() }`.
    case reducer
    /// A reactor: `TestStore(initialState: ..., reactor: Feature())`.
    case reactor
    /// A feedback system: `TestStore(initialState: ..., system: Feature())`.
    case feedbackSystem
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

  /// The `TestClock` (or another test clock) a generated test gives its feature.
  ///
  /// The test declares `let <name> = TestClock()` (``initializer``) before the test store, so that
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
    /// The expression that makes the clock: `TestClock()`, or another clock with an
    /// `advance(by:)` (`ExplorationClock(orders: [.milliseconds(500): 17])`, which an
    /// exploration writes for a session whose sleepers due together resumed in another order).
    public var initializer: String
    /// The module the clock's type comes from, which the test imports: `Clocks` for a
    /// `TestClock`.
    public var module: String

    /// A clock named `name`, made by `initializer` from `module`: a swift-clocks `TestClock` by
    /// default.
    public init(
      name: String = "clock", initializer: String = "TestClock()", module: String = "Clocks"
    ) {
      self.name = name
      self.initializer = initializer
      self.module = module
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
