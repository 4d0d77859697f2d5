import Clocks
import ConcurrencyExtras
import Foundation
import IssueReporting
import Observation
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  @MainActor
  @Suite struct SharedTests {
    @Test func dataInMemoryReadsBackAsWritten() throws {
      // Past 14 bytes, `Data` holds its bytes out of line: what the memory backings convert.
      let bytes = Data((0..<40).map { UInt8($0) })
      let defaults = SharedDefaults.inMemory()
      defaults.set(bytes, forKey: "blob")
      #expect(defaults.value(forKey: "blob", as: Data.self) == bytes)
      #expect(defaults.value(forKey: "blob", as: String.self) == nil)
      let files = SharedFileSystem.inMemory()
      let url = URL(fileURLWithPath: "/memory/blob.json")
      try files.setContents(bytes, of: url)
      #expect(try files.contents(of: url) == bytes)
    }

    @Test func twoFeaturesInOneStoreSeeEachOthersWrites() {
      let store = Store(initialState: TwoEditors.State(settings: Shared(value: Settings()))) {
        TwoEditors()
      }
      store.send(.first(.setTheme("dark")))
      #expect(store.second.settings.theme == "dark")
      store.send(.second(.setFontSize(20)))
      #expect(store.first.settings.fontSize == 20)
    }

    @Test func twoStoresInOneProcessSeeEachOthersWrites() {
      withSharedStorage(.inMemory()) {
        let first = Store(initialState: SharedCounter.State()) { SharedCounter() }
        let second = Store(initialState: SharedCounter.State()) { SharedCounter() }
        first.send(.increment)
        #expect(second.count.wrappedValue == 1)
        second.send(.increment)
        #expect(first.count.wrappedValue == 2)
      }
    }

    @Test func aReaderOfThemeIsNotifiedWhenAnyFeatureChangesThemeNotFontSize() {
      let settings = Shared(value: Settings())
      let reader = Store(initialState: SettingsEditor.State(settings: settings)) {
        SettingsEditor()
      }
      let writer = Store(initialState: TwoEditors.State(settings: settings)) { TwoEditors() }
      let notified = track { _ = reader.settings.theme }
      writer.send(.first(.setFontSize(30)))
      #expect(notified.value == 0)
      writer.send(.second(.setTheme("dark")))
      #expect(notified.value == 1)
    }

    @Test func readersOfOneFieldFromTwoPlacesAreBothNotifiedAndReadAgainAfterTheChange() {
      let settings = Shared(value: Settings())
      let store = Store(initialState: SettingsEditor.State(settings: settings)) {
        SettingsEditor()
      }
      // NB: two key path literals for `theme`, one per call site: two objects, one field.
      let first = track { _ = store.settings.theme }
      let second = track { _ = store.settings[dynamicMember: \Settings.theme] }
      settings.withLock { $0.fontSize = 9 }
      #expect(first.value == 0)
      #expect(second.value == 0)
      settings.withLock { $0.theme = "dark" }
      #expect(first.value == 1)
      #expect(second.value == 1)

      let again = track { _ = store.settings[dynamicMember: \Settings.theme] }
      settings.withLock { $0.theme = "light" }
      #expect(again.value == 1)
    }

    @Test func aFieldReadThroughKeyPathsBuiltAtEachReadKeepsItsEntriesBounded() {
      let settings = Shared(value: Settings())
      let theme: KeyPath<Settings, String> = \Settings.theme
      for _ in 1...1_000 {
        // A key path built at run time is a new object at each read.
        let built = (\Settings.self).appending(path: theme)
        _ = settings[dynamicMember: built]
      }
      #expect(settings.reference!.observed.count <= ObservedFieldEntry<Settings>.aliasLimit)
      let notified = track { _ = settings[dynamicMember: (\Settings.self).appending(path: theme)] }
      settings.withLock { $0.theme = "dark" }
      #expect(notified.value == 1)
      #expect(settings.reference!.observed.isEmpty)
    }

    @Test func readsFromManyThreadsThroughNewKeyPathsBesideLockedWritesLoseNothing() {
      let settings = Shared(value: Settings())
      DispatchQueue.concurrentPerform(iterations: 1_000) { n in
        let fontSize: KeyPath<Settings, Int> = \Settings.fontSize
        if n.isMultiple(of: 2) {
          settings.withLock { $0.fontSize += 1 }
        } else {
          _ = settings[dynamicMember: (\Settings.self).appending(path: fontSize)]
          _ = settings.theme
        }
      }
      #expect(settings.fontSize == Settings().fontSize + 500)
      #expect(settings.reference!.observed.count <= ObservedFieldEntry<Settings>.aliasLimit)
    }

    @Test func aReaderOfTheWholeValueIsNotifiedOfAnyChange() {
      let settings = Shared(value: Settings())
      let store = Store(initialState: SettingsEditor.State(settings: settings)) {
        SettingsEditor()
      }
      let notified = track { _ = store.settings.wrappedValue }
      settings.withLock { $0.fontSize = 9 }
      #expect(notified.value == 1)
    }

    @Test func anObserveClosureOfAStoreRerunsWhenAnotherStoreChangesWhatItRead() async {
      let settings = Shared(value: Settings())
      let reader = Store(initialState: SettingsEditor.State(settings: settings)) {
        SettingsEditor()
      }
      let writer = Store(initialState: SettingsEditor.State(settings: settings)) {
        SettingsEditor()
      }
      var themes: [String] = []
      let token = reader.observe { themes.append($0.settings.theme) }
      writer.send(.setFontSize(1))
      writer.send(.setTheme("dark"))
      await Task.megaYield()
      #expect(themes == ["light", "dark"])
      token.cancel()
    }

    /// The TCA spelling, as the migration guide shows it.
    struct Launches: Reducer {
      struct State: Equatable {
        @Shared(.appStorage("launches")) var launches = 0
        @Shared(.inMemory("isSignedIn")) var isSignedIn = false
        @Shared(.fileStorage(URL(fileURLWithPath: "/tmp/todos.json"))) var todos: [String] = []
      }
      func reduce(into state: inout State, action: Void) -> Effect<Void> {
        state.launches += 1
        state.$isSignedIn.withLock { $0 = true }
        state.todos.append("Launch \(state.launches)")
        return .none
      }
    }

    @Test func theTCASpellingWorksAsAPropertyWrapper() async {
      let store = TestStore(initialState: Launches.State()) { Launches() }
      await store.send(()) {
        $0.launches = 1
        $0.isSignedIn = true
        $0.todos = ["Launch 1"]
      }
    }

    @Test func concurrentLockedWritesLoseNothing() {
      let count = Shared(value: 0)
      DispatchQueue.concurrentPerform(iterations: 1_000) { _ in
        count.withLock { $0 += 1 }
      }
      #expect(count.wrappedValue == 1_000)
    }

    @Test func aPlainWriteOffTheMainActorIsReportedAndStillApplied() {
      let count = Shared(value: 0)
      /// Runs `body` on a thread of its own and waits for it.
      func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
          body()
          done.signal()
        }
        thread.start()
        done.wait()
      }
      // NB: the thread has no task, so the test's reporters are installed on it.
      let recorder = IssueRecorder()
      onAnotherThread { withIssueReporters([recorder]) { count.wrappedValue = 5 } }
      #expect(recorder.messages.count == 1)
      #expect(recorder.messages.value.first?.contains("written off the main actor") == true)
      #expect(recorder.messages.value.first?.contains("withLock") == true)
      #expect(count.wrappedValue == 5)
      // NB: a locked mutation off the main actor is the way, and is not reported.
      onAnotherThread { withIssueReporters([recorder]) { count.withLock { $0 += 1 } } }
      #expect(recorder.messages.count == 1)
      #expect(count.wrappedValue == 6)
    }

    @Test func sharedValuesAreEqualByValue() {
      #expect(Shared(value: 1) == Shared(value: 1))
      #expect(Shared(value: 1) != Shared(value: 2))
      let shared = Shared(value: Settings())
      let copy = shared
      copy.theme = "dark"
      #expect(shared.theme == "dark")
    }

    @Test func anInMemoryKeyOutlivesItsHoldersInItsStorage() {
      withSharedStorage(.inMemory()) {
        do {
          let count = Shared(wrappedValue: 0, .inMemory("count"))
          count.wrappedValue = 7
        }
        #expect(Shared(wrappedValue: 0, .inMemory("count")).wrappedValue == 7)
      }
      withSharedStorage(.inMemory()) {
        #expect(Shared(wrappedValue: 0, .inMemory("count")).wrappedValue == 0)
      }
    }

    @Test func appStorageKeepsTheValueInTheDefaults() {
      let storage = SharedStorage.inMemory()
      withSharedStorage(storage) {
        do {
          let launches = Shared(wrappedValue: 0, .appStorage("launches"))
          launches.wrappedValue += 1
        }
        #expect(storage.defaults.value(forKey: "launches", as: Int.self) == 1)
        #expect(Shared(wrappedValue: 0, .appStorage("launches")).wrappedValue == 1)
      }
    }

    @Test func aPersistedValueInATestLivesInTheTestsOwnStorage() {
      let launches = Shared(wrappedValue: 0, .appStorage("launches-of-this-test"))
      launches.wrappedValue += 1
      let defaults = SharedStorage.current.defaults
      #expect(defaults.value(forKey: "launches-of-this-test", as: Int.self) == 1)
      #expect(SharedDefaults.standard.value(forKey: "launches-of-this-test", as: Int.self) == nil)
    }

    @Test func aKeyAskedForAnotherTypeIsReported() {
      withSharedStorage(.inMemory()) {
        let count = Shared(wrappedValue: 0, .inMemory("value"))
        withKnownIssue {
          _ = Shared(wrappedValue: "", .inMemory("value"))
        } matching: {
          $0.description.contains("another type")
        }
        _ = count
      }
    }
  }
}
