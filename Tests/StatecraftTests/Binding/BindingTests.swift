import ConcurrencyExtras
import Testing

@testable import Statecraft

extension Engine {
  @MainActor
  @Suite struct BindingTests {
    struct Form: Reducer {
      struct State: Equatable, Sendable {
        var query = ""
        var settings = Settings()
        var log: [String] = []
      }
      struct Settings: Equatable, Sendable {
        var isOn = false
        var volume = 0
      }
      enum Action: BindableAction, Equatable, Sendable {
        case binding(BindingAction<State>)
        case queryChanged(String)
      }

      var body: some Reducer<State, Action> {
        BindingReducer { if case .binding(let binding) = $0 { binding } else { nil } }
        Reduce { state, action in
          switch action {
          case .binding(let binding):
            state.log.append("binding \(binding.writes(\State.query) ? "query" : "other")")
          case .queryChanged(let query):
            state.query = query
            state.log.append("queryChanged")
          }
          return .none
        }
      }
    }

    @Test func anActionBindingReadsStateAndSendsOnSet() {
      let store = Store(initialState: Form.State()) { Form() }
      let query = store.binding(\.query, send: Form.Action.queryChanged)
      #expect(query.wrappedValue == "")
      query.wrappedValue = "swift"
      #expect(store.query == "swift")
      #expect(query.wrappedValue == "swift")
      #expect(store.log == ["queryChanged"])
    }

    @Test func aBindableActionWritesThroughTheReducer() {
      let store = Store(initialState: Form.State()) { Form() }
      let query = store.binding(\.query)
      query.wrappedValue = "swift"
      #expect(store.query == "swift")
      #expect(store.log == ["binding query"])
    }

    @Test func aBindingToAPartSendsTheWholeValue() {
      let store = Store(initialState: Form.State()) { Form() }
      let settings = store.binding(\.settings)
      settings.isOn.wrappedValue = true
      settings.volume.wrappedValue = 7
      #expect(store.settings == Form.Settings(isOn: true, volume: 7))
      #expect(store.log == ["binding other", "binding other"])
    }

    @Test func bindingActionsAreEquatableByKeyPathAndValue() {
      typealias Binding = BindingAction<Form.State>
      #expect(Binding.set(\.query, "a") == Binding.set(\.query, "a"))
      #expect(Binding.set(\.query, "a") != Binding.set(\.query, "b"))
      #expect(Binding.set(\.settings.volume, 1) != Binding.set(\.settings, Form.Settings()))
    }

    @Test func readingABindingIsObserved() {
      let store = Store(initialState: Form.State()) { Form() }
      let query = store.binding(\.query)
      var seen: [String] = []
      let token = store.observe { _ in seen.append(query.wrappedValue) }
      store.send(.queryChanged("a"))
      store.send(.binding(.set(\.settings.isOn, true)))
      #expect(seen == ["", "a"])
      token.cancel()
    }
  }
}
