import Clocks
import ConcurrencyExtras
import Testing

@testable import Statecraft

/// The examples of the GoodReactor README (a counter view model with State, Action, Mutation,
/// `mutate`, `reduce` and `navigate(action:)` for a coordinator), ported to Statecraft's
/// ``Reactor``, with GoodReactor 2.x's features (`await send` that returns when the work is done,
/// `send(_:while:)`, keyed debounce, `fetch` into idle/loading/success/failure, external event
/// subscriptions), and proof that GoodReactor's faults (jobs never cancelled, values out of
/// order) don't happen here.
extension Engine {
  @MainActor
  @Suite struct GoodReactorTests {
    enum CounterMode: Sendable {
      case increase
      case decrease
    }

    enum AppStep: Equatable, Sendable {
      case home(HomeStep)
    }

    enum HomeStep: Equatable, Sendable {
      case goToAbout
    }

    /// The README's view model. Combine's `Just(mutation)` is `.send(mutation)`; `navigate(action:)`
    /// is `route(for:)`, whose routes a coordinator reads from `store.routes(AppStep.self)`.
    struct CounterViewModel: Reactor {
      struct State: Equatable {
        var counterValue: Int
      }

      enum Action: Sendable {
        case updateCounterValue(CounterMode)
        case goToAbout
      }

      enum Mutation: Sendable {
        case counterValueUpdated(Int)
      }

      func mutate(state: State, action: Action) -> Effect<Mutation> {
        switch action {
        case .updateCounterValue(let mode):
          return updateCounter(state: state, mode: mode)
        case .goToAbout:
          return .none
        }
      }

      func updateCounter(state: State, mode: CounterMode) -> Effect<Mutation> {
        var actualValue = state.counterValue
        switch mode {
        case .increase:
          actualValue += 1
        case .decrease:
          actualValue -= 1
        }
        return .send(.counterValueUpdated(actualValue))
      }

      func reduce(state: inout State, mutation: Mutation) {
        switch mutation {
        case .counterValueUpdated(let newValue):
          state.counterValue = newValue
        }
      }

      func route(for action: Action) -> AppStep? {
        switch action {
        case .goToAbout:
          return .home(.goToAbout)
        default:
          return .none
        }
      }
    }

    /// The README's view controller: `state.map { String($0.counterValue) }.removeDuplicates()`
    /// assigned to a label.
    final class CounterViewController: StateSubscriber {
      private(set) var labelTexts: [String] = []

      func state(_ state: CounterViewModel.State) {
        let text = String(state.counterValue)
        if labelTexts.last != text { labelTexts.append(text) }
      }
    }

    /// A 2.x view model with jobs: pull to refresh, and a save that runs several jobs.
    struct FeedViewModel: Reactor {
      struct State: Equatable {
        var items: [String] = []
        var isRefreshing = false
        var isSaving = false
        var log: [String] = []
        var ticks = 0
      }

      enum Action: Sendable {
        case pullToRefresh
        case save
        case streamProgress
        case startPolling
      }

      enum Mutation: Sendable {
        case setRefreshing(Bool)
        case setItems([String])
        case setSaving(Bool)
        case log(String)
        case tick
      }

      var fetchItems: @Sendable () async -> [String] = { [] }
      var upload: @Sendable () async -> Void = {}
      var notifyFollowers: @Sendable () async -> Void = {}
      var clock: any Clock<Duration> = ContinuousClock()
      var jobCancelled: @Sendable () -> Void = {}

      func mutate(state: State, action: Action) -> Effect<Mutation> {
        switch action {
        case .pullToRefresh:
          return .merge(
            .send(.setRefreshing(true)),
            .run { [fetchItems] send in
              await send(.setItems(await fetchItems()))
              await send(.setRefreshing(false))
            }
          )
        case .save:
          return .merge(
            .send(.setSaving(true)),
            .concatenate(
              .run { [upload] send in
                await upload()
                await send(.log("uploaded"))
              },
              .send(.setSaving(false))
            ),
            .run { [notifyFollowers] send in
              await notifyFollowers()
              await send(.log("notified"))
            }
          )
        case .streamProgress:
          return .run { send in
            for step in 1...50 { await send(.log("step \(step)")) }
          }
        case .startPolling:
          return .run { [clock, jobCancelled] send in
            do {
              while true {
                try await clock.sleep(for: .seconds(1))
                await send(.tick)
              }
            } catch {
              jobCancelled()
            }
          }
        }
      }

      func reduce(state: inout State, mutation: Mutation) {
        switch mutation {
        case .setRefreshing(let isRefreshing): state.isRefreshing = isRefreshing
        case .setItems(let items): state.items = items
        case .setSaving(let isSaving): state.isSaving = isSaving
        case .log(let entry): state.log.append(entry)
        case .tick: state.ticks += 1
        }
      }
    }

    /// 2.x's keyed `debounce`: each key waits on its own.
    struct SearchViewModel: Reactor {
      struct State: Equatable {
        var results: [String] = []
        var savedDrafts: [String] = []
      }

      enum Action: Sendable {
        case search(String)
        case saveDraft(String)
      }

      enum Mutation: Sendable {
        case setResults([String])
        case draftSaved(String)
      }

      enum DebounceID: Hashable, Sendable {
        case search
        case draft
      }

      let clock: any Clock<Duration>
      let search: @Sendable (String) async -> [String]

      func mutate(state: State, action: Action) -> Effect<Mutation> {
        switch action {
        case .search(let query):
          return .run { [search] send in await send(.setResults(await search(query))) }
            .debounce(id: DebounceID.search, for: .milliseconds(300), clock: clock)
        case .saveDraft(let draft):
          return .send(.draftSaved(draft))
            .debounce(id: DebounceID.draft, for: .milliseconds(300), clock: clock)
        }
      }

      func reduce(state: inout State, mutation: Mutation) {
        switch mutation {
        case .setResults(let results): state.results = results
        case .draftSaved(let draft): state.savedDrafts.append(draft)
        }
      }
    }

    /// 2.x's `fetch`: a ``Loadable`` driven idle → loading → success / failure.
    ///
    /// `Effect.load` and `Effect.cancelLoad` take the loadable `inout`, but a reactor's
    /// `mutate(state:action:)` gets the state by value: the view model updates a copy and sends
    /// it back as a mutation.
    struct ProfileViewModel: Reactor {
      struct State: Equatable {
        var profile: Loadable<String> = .idle
      }

      enum Action: Sendable {
        case fetch
        case refreshSilently
        case cancel
      }

      enum Mutation: Sendable {
        case setProfile(Loadable<String>)
        case profileLoaded(Result<String, any Error>)
      }

      enum CancelID: Hashable, Sendable { case profile }

      let load: @Sendable () async throws -> String

      func mutate(state: State, action: Action) -> Effect<Mutation> {
        var profile = state.profile
        switch action {
        case .fetch, .refreshSilently:
          let isSilent: Bool
          if case .refreshSilently = action { isSilent = true } else { isSilent = false }
          let load = Effect<Mutation>.load(
            &profile, id: CancelID.profile, silent: isSilent, operation: self.load
          ) { .profileLoaded($0) }
          return .merge(.send(.setProfile(profile)), load)
        case .cancel:
          let cancel = Effect<Mutation>.cancelLoad(&profile, id: CancelID.profile)
          return .merge(cancel, .send(.setProfile(profile)))
        }
      }

      func reduce(state: inout State, mutation: Mutation) {
        switch mutation {
        case .setProfile(let profile): state.profile = profile
        case .profileLoaded(let result): state.profile.finish(with: result)
        }
      }
    }

    /// 2.x's external event subscriptions: a service's stream feeds mutations.
    struct InboxViewModel: Reactor {
      struct State: Equatable {
        var unread: [String] = []
      }

      enum Action: Sendable {
        case markAllRead
      }

      enum Mutation: Sendable {
        case received(String)
        case clear
      }

      let messages: AsyncStream<String>

      func mutate(state: State, action: Action) -> Effect<Mutation> {
        .send(.clear)
      }

      func reduce(state: inout State, mutation: Mutation) {
        switch mutation {
        case .received(let message): state.unread.append(message)
        case .clear: state.unread.removeAll()
        }
      }

      func subscriptions() -> Effect<Mutation> {
        .run { [messages] send in
          for await message in messages { await send(.received(message)) }
        }
      }
    }

    /// 1.x's defaults: without a `Mutation` type, every action is its own mutation.
    struct ToggleViewModel: Reactor {
      struct State: Equatable { var isOn = false }
      enum Action: Sendable { case toggle }

      func reduce(state: inout State, mutation: Action) {
        state.isOn.toggle()
      }
    }

    // MARK: - The README

    @Test func theCounterCountsAndNavigatesThroughTheCoordinator() async {
      var store: ReactorStoreOf<CounterViewModel>? = Store(
        initialState: CounterViewModel.State(counterValue: 0), reactor: CounterViewModel())
      let steps = store!.routes(AppStep.self)
      let viewController = CounterViewController()
      store!.subscribe(viewController)

      store!.send(.updateCounterValue(.increase))
      store!.send(.updateCounterValue(.increase))
      store!.send(.goToAbout)
      store!.send(.updateCounterValue(.decrease))
      store!.send(.goToAbout)
      #expect(store!.counterValue == 1)
      // The label follows the value, skipping duplicates (`.goToAbout` changes nothing).
      #expect(viewController.labelTexts == ["0", "1", "2", "1"])

      // The routes stream ends with the store: collect what the coordinator received.
      store = nil
      var received: [AppStep] = []
      for await step in steps { received.append(step) }
      #expect(received == [.home(.goToAbout), .home(.goToAbout)])
    }

    @Test func withoutAMutationTypeEachActionIsItsOwnMutation() {
      let store = Store(initialState: ToggleViewModel.State(), reactor: ToggleViewModel())
      store.send(.toggle)
      #expect(store.isOn)
      store.send(.toggle)
      #expect(!store.isOn)
    }

    // MARK: - 2.x

    @Test func awaitingASendReturnsWhenEveryJobItSpawnedIsDone() async {
      let uploadStarted = Gate()
      let finishUpload = Gate()
      let notifyStarted = Gate()
      let finishNotify = Gate()
      let store = Store(
        initialState: FeedViewModel.State(),
        reactor: FeedViewModel(
          upload: {
            uploadStarted.open()
            await finishUpload.wait()
          },
          notifyFollowers: {
            notifyStarted.open()
            await finishNotify.wait()
          }
        ))
      let save = store.send(.save)
      #expect(store.isSaving)
      await uploadStarted.wait()
      await notifyStarted.wait()

      finishNotify.open()
      await store.wait(while: { !$0.log.contains("notified") })
      #expect(!save.hasFinished)
      #expect(store.isSaving)

      finishUpload.open()
      await save.finish()
      #expect(save.hasFinished)
      #expect(store.log.sorted() == ["notified", "uploaded"])
      #expect(!store.isSaving)
      #expect(store.runningEffectCount == 0)
    }

    @Test func pullToRefreshSuspendsWhileRefreshing() async {
      let fetchStarted = Gate()
      let finishFetch = Gate()
      let store = Store(
        initialState: FeedViewModel.State(),
        reactor: FeedViewModel(fetchItems: {
          fetchStarted.open()
          await finishFetch.wait()
          return ["new post"]
        }))
      let returned = LockIsolated(false)
      let refresh = Task {
        await store.send(.pullToRefresh, while: \.isRefreshing)
        returned.setValue(true)
      }
      await fetchStarted.wait()
      #expect(store.isRefreshing)
      #expect(!returned.value)

      finishFetch.open()
      await refresh.value
      #expect(returned.value)
      #expect(!store.isRefreshing)
      #expect(store.items == ["new post"])
    }

    @Test func debounceIsKeyed() async {
      let clock = TestClock()
      let searched = LockIsolated<[String]>([])
      let store = Store(
        initialState: SearchViewModel.State(),
        reactor: SearchViewModel(
          clock: clock,
          search: { query in
            searched.withValue { $0.append(query) }
            return ["\(query) 1", "\(query) 2"]
          }
        ))
      let firstSearch = store.send(.search("s"))
      let draft = store.send(.saveDraft("note"))
      await clock.advance(by: .milliseconds(200))
      // A new search restarts the search's wait, not the draft's.
      let lastSearch = store.send(.search("sw"))
      await clock.advance(by: .milliseconds(100))
      await draft.finish()
      await firstSearch.finish()
      #expect(store.savedDrafts == ["note"])
      #expect(searched.value == [])

      await clock.advance(by: .milliseconds(199))
      #expect(searched.value == [])
      await clock.advance(by: .milliseconds(1))
      await lastSearch.finish()
      #expect(searched.value == ["sw"])
      #expect(store.results == ["sw 1", "sw 2"])
    }

    @Test func fetchGoesThroughIdleLoadingSuccessAndFailure() async {
      struct Offline: Error {}
      let response = LockIsolated<Result<String, any Error>>(.success("Ada"))
      let store = Store(
        initialState: ProfileViewModel.State(),
        reactor: ProfileViewModel(load: { try response.value.get() }))
      #expect(store.profile == .idle)

      let fetch = store.send(.fetch)
      #expect(store.profile == .loading(previous: nil))
      #expect(store.profile.isLoading)
      await fetch.finish()
      #expect(store.profile == .success("Ada"))

      response.setValue(.failure(Offline()))
      let failing = store.send(.fetch)
      #expect(store.profile == .loading(previous: "Ada"))
      await failing.finish()
      #expect(store.profile.error is Offline)
      #expect(store.profile.value == "Ada")
      #expect(!store.profile.isLoading)
    }

    @Test func aSilentRefreshKeepsShowingTheValue() async {
      let response = LockIsolated("Ada")
      let store = Store(
        initialState: ProfileViewModel.State(),
        reactor: ProfileViewModel(load: { response.value }))
      await store.send(.fetch).finish()
      #expect(store.profile == .success("Ada"))

      response.setValue("Grace")
      let refresh = store.send(.refreshSilently)
      #expect(store.profile == .success("Ada"))
      await refresh.finish()
      #expect(store.profile == .success("Grace"))

      // A refresh that is not silent shows the loading state, with the value it had.
      let loud = store.send(.fetch)
      #expect(store.profile == .loading(previous: "Grace"))
      await loud.finish()
    }

    @Test func cancellingAFetchReturnsToIdleAndDropsTheResponse() async {
      let started = Gate()
      let never = Gate()
      let store = Store(
        initialState: ProfileViewModel.State(),
        reactor: ProfileViewModel(load: {
          started.open()
          await never.wait()
          return "late"
        }))
      let fetch = store.send(.fetch)
      await started.wait()
      #expect(store.profile.isLoading)

      store.send(.cancel)
      #expect(store.profile == .idle)
      await fetch.finish()
      #expect(store.profile == .idle)
      #expect(store.runningEffectCount == 0)
    }

    @Test func externalEventsArriveThroughSubscriptionsUntilTheStoreIsReleased() async {
      let (messages, continuation) = AsyncStream.makeStream(of: String.self)
      let subscriptionCancelled = Gate()
      continuation.onTermination = { termination in
        if case .cancelled = termination { subscriptionCancelled.open() }
      }
      var store: ReactorStoreOf<InboxViewModel>? = Store(
        initialState: InboxViewModel.State(), reactor: InboxViewModel(messages: messages))
      weak let released = store

      continuation.yield("a")
      continuation.yield("b")
      await store!.wait(while: { $0.unread.count < 2 })
      #expect(store!.unread == ["a", "b"])
      store!.send(.markAllRead)
      #expect(store!.unread == [])
      continuation.yield("c")
      await store!.wait(while: { $0.unread.isEmpty })
      #expect(store!.unread == ["c"])

      store = nil
      #expect(released == nil)
      await subscriptionCancelled.wait()
      guard case .terminated = continuation.yield("d") else {
        Issue.record("The subscription still reads the service's stream.")
        return
      }
    }

    // MARK: - GoodReactor's faults

    @Test func jobsAreCancelledWhenTheStoreIsReleased() async {
      // GoodReactor never cancelled the jobs of a released view model.
      let clock = TestClock()
      let cancelled = LockIsolated(false)
      var store: ReactorStoreOf<FeedViewModel>? = Store(
        initialState: FeedViewModel.State(),
        reactor: FeedViewModel(clock: clock, jobCancelled: { cancelled.setValue(true) }))
      weak let released = store
      let polling = store!.send(.startPolling)
      await clock.advance(by: .seconds(3))
      #expect(store!.ticks == 3)
      #expect(store!.runningEffectCount == 1)

      store = nil
      #expect(released == nil)
      await polling.finish()
      #expect(cancelled.value)
      #expect(polling.hasFinished)
      await clock.run()
    }

    @Test func valuesArriveInTheOrderTheyWereSent() async {
      // GoodReactor could deliver a job's values out of order.
      final class Recorder: StateSubscriber {
        var seen: [String] = []
        func state(_ state: FeedViewModel.State) {
          if let last = state.log.last, seen.last != last { seen.append(last) }
        }
      }
      let store = Store(initialState: FeedViewModel.State(), reactor: FeedViewModel())
      let recorder = Recorder()
      store.subscribe(recorder)
      await store.send(.streamProgress).finish()
      let expected = (1...50).map { "step \($0)" }
      #expect(store.log == expected)
      #expect(recorder.seen == expected)
    }
  }
}
