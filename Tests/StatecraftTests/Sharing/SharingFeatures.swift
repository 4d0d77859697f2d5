import Clocks
import Foundation
import Statecraft

/// Settings that two features share.
struct Settings: Codable, Equatable, Sendable {
  var theme = "light"
  var fontSize = 14
}

/// A feature that holds the settings and changes them.
struct SettingsEditor: Reducer {
  struct State: Equatable {
    var settings: Shared<Settings>
    var edits = 0
  }
  enum Action: Equatable {
    case setTheme(String)
    case setFontSize(Int)
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .setTheme(let theme):
      state.settings.theme = theme
    case .setFontSize(let size):
      state.settings.fontSize = size
    }
    state.edits += 1
    return .none
  }
}

/// Two features in one store, both holding the settings.
struct TwoEditors: Reducer {
  struct State: Equatable {
    var first: SettingsEditor.State
    var second: SettingsEditor.State

    init(settings: Shared<Settings>) {
      first = SettingsEditor.State(settings: settings)
      second = SettingsEditor.State(settings: settings)
    }
  }
  enum Action: Equatable {
    case first(SettingsEditor.Action)
    case second(SettingsEditor.Action)
    static let firstCase = casePath(Action.first) {
      if case .first(let action) = $0 { action } else { nil }
    }
    static let secondCase = casePath(Action.second) {
      if case .second(let action) = $0 { action } else { nil }
    }
  }
  var body: some Reducer<State, Action> {
    Scope(state: \.first, action: Action.firstCase) { SettingsEditor() }
    Scope(state: \.second, action: Action.secondCase) { SettingsEditor() }
  }
}

/// A counter kept under a key, with a locked increment from an effect.
struct SharedCounter: Reducer {
  struct State: Equatable {
    var count = Shared(wrappedValue: 0, .inMemory("count"))
  }
  enum Action: Equatable {
    case increment
    case incrementInEffect
    case incremented
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count.wrappedValue += 1
      return .none
    case .incrementInEffect:
      return .run { [count = state.count] send in
        count.withLock { $0 += 1 }
        await send(.incremented)
      }
    case .incremented:
      return .none
    }
  }
}
