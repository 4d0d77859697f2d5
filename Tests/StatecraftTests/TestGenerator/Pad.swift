import IdentifiedCollections
import Statecraft

/// A small feature for the test generator: fields of each kind, rows with ids, an enum with
/// payloads, an optional, and effects that send at once and after a sleep.
struct Pad: Reducer {
  struct State: Codable, Equatable, Sendable {
    var count = 0
    var title = ""
    var rows: IdentifiedArrayOf<Row> = []
    var log: [String] = []
    var status: Status = .idle
    var draft: Draft?
    var tags: [String: Int] = [:]
  }

  struct Row: Codable, Equatable, Identifiable, Sendable {
    var id: Int
    var name: String
    var isOn = false
  }

  struct Draft: Codable, Equatable, Sendable {
    var text: String
    var words: Int
  }

  enum Status: Codable, Equatable, Sendable {
    case idle
    case waiting(seconds: Int)
    case done(String, code: Int)
  }

  enum Action: Codable, Equatable, Sendable {
    case increment
    case rename(String)
    case addRow(Int, String)
    case toggle(id: Int)
    case removeRow(id: Int)
    case write(String?)
    case tag(String, Int?)
    case start(seconds: Int)
    case tick
    case finished(String, code: Int)
  }

  let clock: any Clock<Duration>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .rename(let title):
      state.title = title
      state.log.append("renamed")
      return .none
    case .addRow(let id, let name):
      state.rows.append(Row(id: id, name: name))
      return .none
    case .toggle(let id):
      state.rows[id: id]?.isOn.toggle()
      return .none
    case .removeRow(let id):
      state.rows.remove(id: id)
      return .send(.finished("removed \(id)", code: id))
    case .write(let text):
      if let text {
        if state.draft == nil {
          state.draft = Draft(text: text, words: 1)
        } else {
          state.draft?.text = text
          state.draft?.words += 1
        }
      } else {
        state.draft = nil
      }
      return .none
    case .tag(let key, let value):
      state.tags[key] = value
      return .none
    case .start(let seconds):
      state.status = .waiting(seconds: seconds)
      return .run { [clock] send in
        for _ in 0..<seconds {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
        await send(.finished("on time", code: 0))
      }
    case .tick:
      if case .waiting(let seconds) = state.status {
        state.status = .waiting(seconds: seconds - 1)
      }
      return .none
    case .finished(let message, let code):
      state.status = .done(message, code: code)
      return .none
    }
  }
}
