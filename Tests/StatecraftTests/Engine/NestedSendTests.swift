import CasePaths
import Testing

@testable import Statecraft

extension Engine {
  /// A store several levels below its root sends its actions embedded at every level, whatever
  /// the actions carry (an object, a payload wider than the other actions on the way) and however
  /// each level was scoped: each action reaches the root once, in order, and nothing it carries
  /// is kept or freed twice.
  @MainActor
  @Suite struct NestedSendTests {
    /// An object an action carries: a nested send moves it to the root, and neither keeps it
    /// nor frees it twice.
    final class Payload: Sendable {
      let value: Int
      init(_ value: Int) { self.value = value }
    }

    /// A payload wider than the other actions on the way, with a string that must be moved
    /// whole.
    struct Wide: Equatable, Sendable {
      var a = 1, b = 2, c = 3, d = 4
      var text = "a string too long to be stored inline, so that it is a heap object"
    }

    struct Leaf: Reducer {
      struct State: Equatable {
        var log: [String] = []
      }
      @CasePathable
      enum Action: Sendable {
        case text(String)
        case object(Payload)
        case wide(Wide)
        case tap
      }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .text(let text): state.log.append("text \(text)")
        case .object(let payload): state.log.append("object \(payload.value)")
        case .wide(let wide):
          state.log.append("wide \(wide.a + wide.b + wide.c + wide.d) \(wide.text)")
        case .tap: state.log.append("tap")
        }
        return .none
      }
    }

    /// A level whose action is wider than its child's: the chain's buffers must fit the widest
    /// action on the way, not the leaf's.
    struct Middle: Reducer {
      struct State: Equatable {
        var leaf = Leaf.State()
        var leafActionsSeen = 0
      }
      @CasePathable
      enum Action: Sendable {
        case leaf(Leaf.Action)
        case pair(Wide, Wide)
      }
      var body: some Reducer<State, Action> {
        Scope(state: \.leaf, action: \.leaf) { Leaf() }
        Reduce { state, action in
          if case .leaf = action { state.leafActionsSeen += 1 }
          return .none
        }
      }
    }

    /// A level whose action only wraps its child's.
    struct Narrow: Reducer {
      struct State: Equatable {
        var middle = Middle.State()
      }
      @CasePathable
      enum Action: Sendable {
        case middle(Middle.Action)
      }
      var body: some Reducer<State, Action> {
        Scope(state: \.middle, action: \.middle) { Middle() }
      }
    }

    struct Top: Reducer {
      struct State: Equatable {
        var narrow = Narrow.State()
        var rootActions: [String] = []
      }
      @CasePathable
      enum Action: Sendable {
        case narrow(Narrow.Action)
        case other
      }
      var body: some Reducer<State, Action> {
        Reduce { state, action in
          if case .narrow(.middle(.leaf(let leaf))) = action {
            state.rootActions.append("\(leaf)".components(separatedBy: "(").first ?? "")
          }
          return .none
        }
        Scope(state: \.narrow, action: \.narrow) { Narrow() }
      }
    }

    /// What every test sends to the leaf, and what the leaf and its parents must have seen.
    func sendEveryKind(to leaf: StoreOf<Leaf>, root: StoreOf<Top>) {
      leaf.send(.text("one"))
      leaf.send(.wide(Wide()))
      leaf.send(.tap)
      weak var sent: Payload?
      do {
        let payload = Payload(7)
        sent = payload
        leaf.send(.object(payload))
      }
      #expect(sent == nil, "the leaf's reducer keeps nothing: the send must not either")
      let wideText = "wide 10 \(Wide().text)"
      #expect(leaf.log == ["text one", wideText, "tap", "object 7"])
      #expect(root.narrow.middle.leafActionsSeen == 4)
      #expect(root.rootActions == ["text", "wide", "tap", "object"])
    }

    @Test func aStoreThreeLevelsDownScopedWithCaseKeyPathsSendsEachActionEmbeddedAtEveryLevel() {
      let root = Store(initialState: Top.State()) { Top() }
      let leaf = root.scope(state: \.narrow, action: \.narrow)
        .scope(state: \.middle, action: \.middle)
        .scope(state: \.leaf, action: \.leaf)
      sendEveryKind(to: leaf, root: root)
    }

    @Test
    func aStoreThreeLevelsDownScopedWithEmbeddingFunctionsSendsEachActionEmbeddedAtEveryLevel() {
      let root = Store(initialState: Top.State()) { Top() }
      let leaf = root.scope(state: \.narrow, action: Top.Action.narrow)
        .scope(state: \.middle, action: Narrow.Action.middle)
        .scope(state: \.leaf, action: Middle.Action.leaf)
      sendEveryKind(to: leaf, root: root)
    }

    @Test func aStoreBelowALevelScopedWithAClosureSendsEachActionEmbeddedAtEveryLevel() {
      let root = Store(initialState: Top.State()) { Top() }
      let leaf = root.scope(state: \.narrow, action: \.narrow)
        .scope(state: { $0.middle }, action: Narrow.Action.middle)
        .scope(state: \.leaf, action: \.leaf)
      sendEveryKind(to: leaf, root: root)
    }

    @Test func aStoreOneLevelDownSendsAWideActionAndAnObject() {
      let root = Store(initialState: Middle.State()) { Middle() }
      let leaf = root.scope(state: \.leaf, action: \.leaf)
      leaf.send(.wide(Wide()))
      leaf.send(.object(Payload(3)))
      #expect(leaf.log == ["wide 10 \(Wide().text)", "object 3"])
      #expect(root.leafActionsSeen == 2)
    }
  }
}
