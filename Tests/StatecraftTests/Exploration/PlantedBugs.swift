import CasePathsCore
import Dependencies
import Statecraft

// Features with planted bugs, for exploration to find. Each has a flag that removes its bug, so
// that the tests also show a correct feature passes.

/// A list with a selection. The bug: `select` accepts the index one past the end.
struct Picker: Reducer {
  struct State: Equatable, Codable {
    var items: [Int] = []
    var selection: Int?
  }

  enum Action: Equatable, Sendable {
    case add
    case removeLast
    case select(Int)
  }

  var offByOne = true

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add:
      state.items.append(state.items.count)
    case .removeLast:
      guard !state.items.isEmpty else { break }
      state.items.removeLast()
      if let selection = state.selection, selection >= state.items.count { state.selection = nil }
    case .select(let index):
      let isValid = offByOne ? index <= state.items.count : index < state.items.count
      if isValid { state.selection = index }
    }
    return .none
  }
}

/// A tap whose effect answers at once. The bug: the third answer is not counted.
struct Echoer: Reducer {
  struct State: Equatable {
    var taps = 0
    var echoes = 0
  }

  enum Action: Equatable, Sendable {
    case tap
    case echo
  }

  var losesThirdEcho = true

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tap:
      state.taps += 1
      return .run { send in await send(.echo) }
    case .echo:
      if !(losesThirdEcho && state.taps == 3) { state.echoes += 1 }
      return .none
    }
  }
}

/// A refresh whose responses take the same time. The bug: a new refresh doesn't cancel the one
/// in flight, so when two responses arrive at once in the other order, the older one is shown.
struct Refresher: Reducer {
  struct State: Equatable {
    var version = 0
    var shown = 0
    var inFlight = 0
  }

  enum Action: Equatable, Sendable {
    case refresh
    case loaded(Int)
  }

  private enum CancelID { case refresh }

  var cancelsInFlight = false
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .refresh:
      state.version += 1
      state.inFlight = cancelsInFlight ? 1 : state.inFlight + 1
      let version = state.version
      let effect = Effect<Action>.run { [clock] send in
        try await clock.sleep(for: .milliseconds(500))
        await send(.loaded(version))
      }
      return cancelsInFlight
        ? effect.cancellable(id: CancelID.refresh, cancelInFlight: true) : effect
    case .loaded(let version):
      state.inFlight -= 1
      state.shown = version
      return .none
    }
  }
}

/// A parent that presents a child with a ticking timer. The bug: the parent starts the timer, so
/// it is not the child's effect and outlives it.
struct TimerSheet: Reducer {
  struct State: Equatable {
    var child: Child.State?
  }

  enum Action: Equatable, Sendable {
    case open
    case close
    case child(Child.Action)

    static let childCase = AnyCasePath<Action, Child.Action>(
      embed: Action.child,
      extract: { if case .child(let action) = $0 { action } else { nil } })
  }

  struct Child: Reducer {
    struct State: Equatable {
      var ticks = 0
    }

    enum Action: Equatable, Sendable {
      case start
      case tick
    }

    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start:
        return .run { [clock] send in
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.tick)
          }
        }
      case .tick:
        state.ticks += 1
        return .none
      }
    }
  }

  var timerOutlivesChild = true
  @Dependency(\.continuousClock) var clock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .open:
        guard state.child == nil else { return .none }
        state.child = Child.State()
        guard timerOutlivesChild else { return .send(.child(.start)) }
        return .run { [clock] send in
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.child(.tick))
          }
        }
      case .close:
        state.child = nil
        return .none
      case .child:
        return .none
      }
    }
    .ifLet(\.child, action: Action.childCase) { Child() }
  }
}

/// A thermostat reactor. The bug: `up` checks the limit before raising, one step too late.
final class Thermostat: Reactor {
  struct State: Equatable {
    var target = 0
  }

  enum Action: CaseIterable, Equatable, Sendable {
    case up
    case down
  }

  enum Mutation: Equatable, Sendable {
    case setTarget(Int)
  }

  static let limit = 1
  let offByOne: Bool

  init(offByOne: Bool = true) { self.offByOne = offByOne }

  func mutate(state: State, action: Action) -> Effect<Mutation> {
    switch action {
    case .up:
      let allowed = offByOne ? state.target <= Self.limit : state.target < Self.limit
      return allowed ? .send(.setTarget(state.target + 1)) : .none
    case .down:
      return state.target > 0 ? .send(.setTarget(state.target - 1)) : .none
    }
  }

  func reduce(state: inout State, mutation: Mutation) {
    switch mutation {
    case .setTarget(let target): state.target = target
    }
  }
}

/// A paging feedback system. The bug: `reset` forgets the request in flight, so a page loaded
/// before the reset lands after it.
struct Pager: FeedbackSystem {
  struct State: Equatable, Sendable {
    var pages: [Int] = []
    var request: Int?
  }

  enum Event: Equatable, Sendable {
    case nextPage
    case loaded(Int)
    case reset
  }

  var resetForgetsRequest = true

  func reduce(into state: inout State, event: Event) {
    switch event {
    case .nextPage:
      if state.request == nil { state.request = state.pages.count + 1 }
    case .loaded(let page):
      state.pages.append(page)
      state.request = nil
    case .reset:
      state.pages = []
      if !resetForgetsRequest { state.request = nil }
    }
  }

  var feedbacks: [Feedback<State, Event>] {
    [
      .react(to: \.request) { page, send in
        @Dependency(\.continuousClock) var clock
        try await clock.sleep(for: .milliseconds(100))
        await send(.loaded(page))
      }
    ]
  }
}

/// A toast queue: a notification shows a toast for three seconds, or waits while one is shown.
/// The bug: when a toast hides, the next one waiting is never shown.
struct ToastQueue: Reducer {
  struct State: Equatable {
    var shown: Int?
    var waiting: [Int] = []
    var sent = 0
  }

  enum Action: Equatable, Sendable {
    case notify
    case hide
    case scrolled
  }

  var showsNext = false
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .notify:
      state.sent += 1
      guard state.shown == nil else {
        state.waiting.append(state.sent)
        return .none
      }
      state.shown = state.sent
      return hideLater()
    case .hide:
      state.shown = nil
      guard showsNext, !state.waiting.isEmpty else { return .none }
      state.shown = state.waiting.removeFirst()
      return hideLater()
    case .scrolled:
      return .none
    }
  }

  private func hideLater() -> Effect<Action> {
    .run { [clock] send in
      try await clock.sleep(for: .seconds(3))
      await send(.hide)
    }
  }
}

/// A parent that presents a sheet which uploads for two seconds as it opens. The bug: the parent
/// runs the upload, so it is not the sheet's effect, outlives it, and answers a closed sheet.
struct UploadSheet: Reducer {
  struct State: Equatable {
    var sheet: Sheet.State?
  }

  enum Action: Equatable, Sendable {
    case open
    case close
    case sheet(Sheet.Action)

    static let sheetCase = AnyCasePath<Action, Sheet.Action>(
      embed: Action.sheet,
      extract: { if case .sheet(let action) = $0 { action } else { nil } })
  }

  struct Sheet: Reducer {
    struct State: Equatable {
      var uploaded = false
    }

    enum Action: Equatable, Sendable {
      case upload
      case uploaded
    }

    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .upload:
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(2))
          await send(.uploaded)
        }
      case .uploaded:
        state.uploaded = true
        return .none
      }
    }
  }

  var uploadOutlivesSheet = true
  @Dependency(\.continuousClock) var clock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .open:
        guard state.sheet == nil else { return .none }
        state.sheet = Sheet.State()
        guard uploadOutlivesSheet else { return .send(.sheet(.upload)) }
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(2))
          await send(.sheet(.uploaded))
        }
      case .close:
        state.sheet = nil
        return .none
      case .sheet:
        return .none
      }
    }
    .ifLet(\.sheet, action: Action.sheetCase) { Sheet() }
  }
}
