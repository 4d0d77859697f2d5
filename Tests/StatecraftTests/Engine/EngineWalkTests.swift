#if canImport(Runtime) && canImport(Glibc)
  import Glibc
  import IdentifiedCollections
  import Runtime
  import Testing

  @testable import Statecraft

  // NB: the walks of Engine.md, counted: how many calls, in how many of the library's files, a
  // root action and a row store's action go through between `Store.send` and the reducer, read
  // from the debug build's stack (the toolchain's `Runtime` module symbolicates it with the
  // source files). The bounds are today's counts: a change that adds a hop fails here, and
  // says which calls the walk now makes. Not under a sanitizer: symbolicating the instrumented
  // binary is slow, and the walk is the same.
  extension Engine {
    @MainActor
    @Suite(.enabled(if: !Walk.isSanitized)) struct EngineWalkTests {
      @Test func aRootActionReachesItsReducerThroughFewCallsAndFiles() {
        let store = Store(initialState: Walked.State()) { Walked() }
        let walk = Walk.measure { store.send(.tap) }
        #expect(
          walk.calls <= 7 && walk.files <= 2,
          "a root action went through \(walk.calls) calls in \(walk.files) files:\n\(walk.text)")
      }

      @Test func aRowStoresActionReachesItsReducerThroughFewCallsAndFiles() {
        let store = Store(initialState: WalkedRows.State()) { WalkedRows() }
        let row = store.scope(state: \.rows, id: 1, action: WalkedRows.Action.rows)!
        let walk = Walk.measure { row.send(.tap) }
        #expect(
          walk.calls <= 15 && walk.files <= 6,
          "a row store's action went through \(walk.calls) calls in \(walk.files) files:\n\(walk.text)"
        )
      }
    }
  }

  /// The frames between a `measure` call and the reducer that `body` reaches.
  @MainActor
  enum Walk {
    struct Measured {
      /// The library's functions between the call and the reducer, outermost first, with the
      /// file of each.
      var frames: [(name: String, file: String)] = []
      var calls: Int { frames.count }
      var files: Int { Set(frames.map(\.file)).count }
      var text: String { frames.map { "  \($0.name)  (\($0.file))" }.joined(separator: "\n") }
    }

    private static var captured: SymbolicatedBacktrace?

    /// Whether the test binary runs under the thread or the address sanitizer.
    nonisolated static var isSanitized: Bool {
      dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
        || dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
    }

    /// Called by the reducers below.
    static func capture() {
      captured = try? Backtrace.capture().symbolicated()
    }

    /// Runs `body`, whose send reaches a reducer that calls `capture()`, and returns the frames
    /// of the library's sources between the two, outermost first.
    static func measure(_ body: () -> Void) -> Measured {
      captured = nil
      body()
      guard let frames = captured?.frames else {
        Issue.record("the reducer was not reached")
        return Measured()
      }
      var measured = Measured()
      for frame in frames {
        guard let symbol = frame.symbol, let path = symbol.sourceLocation?.path else { continue }
        // NB: from the innermost frame out: the reducer's own frames (this file) come first, and
        // the test's call (this file again) ends the walk.
        if path.hasSuffix("EngineWalkTests.swift") {
          if measured.frames.isEmpty { continue }
          break
        }
        guard path.contains("/Sources/Statecraft/") else { continue }
        let file = path.components(separatedBy: "/Sources/Statecraft/").last ?? path
        measured.frames.insert((symbol.name, file), at: 0)
      }
      return measured
    }
  }

  struct Walked: Reducer {
    struct State: Equatable { var count = 0 }
    enum Action: Equatable { case tap }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.count += 1
      MainActor.assumeIsolated { Walk.capture() }
      return .none
    }
  }

  struct WalkedRows: Reducer {
    struct State: Equatable {
      var rows: IdentifiedArrayOf<Walked.State.Row> = [.init(id: 1), .init(id: 2)]
    }
    enum Action: Equatable {
      case rows(IdentifiedAction<Int, Walked.Action>)
      static let rowsCase = casePath(Action.rows) {
        if case .rows(let action) = $0 { action } else { nil }
      }
    }

    var body: some Reducer<State, Action> {
      EmptyReducer()
        .forEach(\.rows, action: Action.rowsCase) { WalkedRow() }
    }
  }

  extension Walked.State {
    struct Row: Equatable, Identifiable {
      let id: Int
      var count = 0
    }
  }

  struct WalkedRow: Reducer {
    func reduce(into state: inout Walked.State.Row, action: Walked.Action) -> Effect<Walked.Action>
    {
      state.count += 1
      MainActor.assumeIsolated { Walk.capture() }
      return .none
    }
  }
#endif
