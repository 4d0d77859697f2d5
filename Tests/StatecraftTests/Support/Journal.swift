import Statecraft
import Synchronization

/// Entries and the last 100 versions of their list, as an undo stack keeps them: a step's
/// state shares all but one entry and one list with the step before it. Counts the times an
/// entry is encoded (the Inspector) and read by reflection (the test generator).
struct Journal: Reducer {
  struct Entry: Equatable, Codable, CustomReflectable {
    static let reflections = Mutex(0)
    static let encodeCount = Mutex(0)
    let id: Int
    var note: String

    enum CodingKeys: CodingKey { case id, note }

    init(id: Int, note: String) {
      self.id = id
      self.note = note
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      id = try container.decode(Int.self, forKey: .id)
      note = try container.decode(String.self, forKey: .note)
    }

    func encode(to encoder: any Encoder) throws {
      Self.encodeCount.withLock { $0 += 1 }
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      try container.encode(note, forKey: .note)
    }

    var customMirror: Mirror {
      Self.reflections.withLock { $0 += 1 }
      return Mirror(self, children: ["id": id, "note": note], displayStyle: .struct)
    }
  }

  struct State: Equatable, Codable {
    var entries: [Entry] = []
    var history: [[Entry]] = []
  }

  enum Action: Equatable, Codable {
    case add(Int)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let id):
      state.history.append(state.entries)
      if state.history.count > 100 { state.history.removeFirst() }
      // NB: longer than a string held inline: a copy decoded from JSON has other bits.
      state.entries.append(Entry(id: id, note: "Entry \(id) of the journal"))
    }
    return .none
  }
}
