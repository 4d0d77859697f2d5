import Clocks
import ConcurrencyExtras
import Observation
import Testing

@testable import Statecraft

/// The AsyncReactor (diamirio) example, ported: the repository search reactor, whose async
/// actions load results, whose query is an `@ActionBinding`, and whose work is cancelled by id
/// (in-flight mode) or with the lifetime of a view (lifecycle mode). Proof that AsyncReactor's
/// faults (overlapping actions letting a stale response overwrite a newer one, cancel ids in a
/// global table) don't happen here.
extension Engine {
  @MainActor
  @Suite struct AsyncReactorTests {
    struct Repository: Equatable, Sendable {
      var name: String
    }

    /// The example's `RepositorySearchReactor`. AsyncReactor's `action(_:) async` changes the
    /// state as it goes; here each change is a mutation sent by the action's effect.
    struct RepositorySearchReactor: Reactor {
      struct State: Equatable {
        var query = ""
        var repositories: [Repository] = []
        var isLoading = false
        var error: String?
        var favoriteCount = 0
      }

      enum Action: Sendable {
        /// The action of the query's `@ActionBinding`.
        case setQuery(String)
        case search
        /// Started from a view's `.task`: lives as long as the view.
        case observeFavorites
      }

      enum Mutation: Sendable {
        case setQuery(String)
        case setLoading(Bool)
        case setRepositories([Repository])
        case setError(String)
        case setFavoriteCount(Int)
      }

      enum CancelID: Hashable, Sendable {
        case search
      }

      var search: @Sendable (String) async throws -> [Repository]
      var favorites: @Sendable () -> AsyncStream<Int> = { AsyncStream { $0.finish() } }

      func mutate(state: State, action: Action) -> Effect<Mutation> {
        switch action {
        case .setQuery(let query):
          return .send(.setQuery(query))
        case .search:
          return .merge(
            .send(.setLoading(true)),
            .run { [search, query = state.query] send in
              do {
                await send(.setRepositories(try await search(query)))
              } catch {
                await send(.setError("\(error)"))
              }
            }
            .cancellable(id: CancelID.search, cancelInFlight: true)
          )
        case .observeFavorites:
          return .run { [favorites] send in
            for await count in favorites() { await send(.setFavoriteCount(count)) }
          }
        }
      }

      func reduce(state: inout State, mutation: Mutation) {
        switch mutation {
        case .setQuery(let query):
          state.query = query
        case .setLoading(let isLoading):
          state.isLoading = isLoading
        case .setRepositories(let repositories):
          state.repositories = repositories
          state.isLoading = false
        case .setError(let error):
          state.error = error
          state.isLoading = false
        case .setFavoriteCount(let count):
          state.favoriteCount = count
        }
      }
    }

    typealias SearchStore = ReactorStoreOf<RepositorySearchReactor>

    /// A fake GitHub search: each query waits until the test answers it, and ignores
    /// cancellation (like a network call that completes anyway), so the test decides which
    /// response comes back last.
    final class FakeSearch: Sendable {
      private let requests = LockIsolated<[String: (started: Gate, answer: Gate)]>([:])

      private func gates(for query: String) -> (started: Gate, answer: Gate) {
        requests.withValue { requests in
          if let gates = requests[query] { return gates }
          let gates = (started: Gate(), answer: Gate())
          requests[query] = gates
          return gates
        }
      }

      func search(_ query: String) async -> [Repository] {
        let gates = gates(for: query)
        gates.started.open()
        // NB: an unstructured task is not cancelled with the effect: the response arrives anyway.
        await Task { await gates.answer.wait() }.value
        return [Repository(name: "\(query)/one"), Repository(name: "\(query)/two")]
      }

      func started(_ query: String) async { await gates(for: query).started.wait() }
      func answer(_ query: String) { gates(for: query).answer.open() }
    }

    func makeStore(_ fake: FakeSearch) -> SearchStore {
      Store(
        initialState: RepositorySearchReactor.State(),
        reactor: RepositorySearchReactor(search: { await fake.search($0) }))
    }

    // MARK: - The example

    @Test func theQueryBindingReadsStateAndSendsItsAction() {
      let store = makeStore(FakeSearch())
      let query = store.binding(\.query, send: RepositorySearchReactor.Action.setQuery)
      #expect(query.wrappedValue == "")

      let notified = LockIsolated(false)
      withObservationTracking {
        _ = query.wrappedValue
      } onChange: {
        notified.setValue(true)
      }
      // A sync action applies at once: the binding reads the new value right after the set.
      query.wrappedValue = "swift"
      #expect(store.query == "swift")
      #expect(query.wrappedValue == "swift")
      #expect(notified.value)
    }

    @Test func searchingLoadsTheRepositoriesOfTheQuery() async {
      let fake = FakeSearch()
      let store = makeStore(fake)
      store.binding(\.query, send: RepositorySearchReactor.Action.setQuery).wrappedValue = "tca"
      let search = store.send(.search)
      #expect(store.isLoading)
      fake.answer("tca")
      await search.finish()
      #expect(!store.isLoading)
      #expect(store.repositories.map(\.name) == ["tca/one", "tca/two"])
    }

    @Test func aFailedSearchShowsTheError() async {
      struct RateLimited: Error {}
      let store = Store(
        initialState: RepositorySearchReactor.State(),
        reactor: RepositorySearchReactor(search: { _ in throw RateLimited() }))
      await store.send(.search).finish()
      #expect(store.error == "RateLimited()")
      #expect(!store.isLoading)
      #expect(store.repositories == [])
    }

    // MARK: - In-flight mode

    @Test func aStaleResponseNeverOverwritesANewerOne() async {
      // AsyncReactor let overlapping actions interleave: the older request, answered last,
      // overwrote the newer results.
      let fake = FakeSearch()
      let store = makeStore(fake)
      store.send(.setQuery("sw"))
      let older = store.send(.search)
      await fake.started("sw")

      store.send(.setQuery("swift"))
      let newer = store.send(.search)
      await fake.started("swift")
      fake.answer("swift")
      await newer.finish()
      #expect(store.repositories.map(\.name) == ["swift/one", "swift/two"])

      // The older request completes last; its response is dropped.
      fake.answer("sw")
      await older.finish()
      #expect(store.repositories.map(\.name) == ["swift/one", "swift/two"])
      #expect(!store.isLoading)
      #expect(store.runningEffectCount == 0)
    }

    @Test func aStaleResponseOnAClockNeverOverwritesANewerOne() async {
      // The same race on a clock: the older search takes 2s, the newer 1s.
      let clock = TestClock()
      let store = Store(
        initialState: RepositorySearchReactor.State(),
        reactor: RepositorySearchReactor(search: { query in
          // NB: the delay runs in an unstructured task, so cancelling the effect doesn't end it.
          await Task { try? await clock.sleep(for: .seconds(query.count == 2 ? 2 : 1)) }.value
          return [Repository(name: query)]
        }))
      store.send(.setQuery("sw"))
      let older = store.send(.search)
      await clock.advance(by: .milliseconds(500))
      store.send(.setQuery("swift"))
      let newer = store.send(.search)
      await clock.advance(by: .seconds(1))
      await newer.finish()
      #expect(store.repositories == [Repository(name: "swift")])
      await clock.advance(by: .seconds(1))
      await older.finish()
      #expect(store.repositories == [Repository(name: "swift")])
    }

    @Test func cancelIDsBelongToOneStore() async {
      // AsyncReactor kept cancel ids in a global table: a search in one screen cancelled the
      // search in another.
      let firstFake = FakeSearch()
      let secondFake = FakeSearch()
      let first = makeStore(firstFake)
      let second = makeStore(secondFake)
      first.send(.setQuery("a"))
      second.send(.setQuery("b"))

      let firstSearch = first.send(.search)
      await firstFake.started("a")
      let secondSearch = second.send(.search)
      await secondFake.started("b")
      #expect(first.runningEffectCount == 1)
      #expect(second.runningEffectCount == 1)

      secondFake.answer("b")
      firstFake.answer("a")
      await firstSearch.finish()
      await secondSearch.finish()
      #expect(first.repositories.map(\.name) == ["a/one", "a/two"])
      #expect(second.repositories.map(\.name) == ["b/one", "b/two"])
    }

    // MARK: - Lifecycle mode

    /// A favorites service: a stream the test feeds, and whether its reader went away.
    final class Favorites: Sendable {
      let stream: AsyncStream<Int>
      let continuation: AsyncStream<Int>.Continuation
      let readerCancelled = LockIsolated(false)

      init() {
        (stream, continuation) = AsyncStream.makeStream()
        continuation.onTermination = { [readerCancelled] termination in
          if case .cancelled = termination { readerCancelled.setValue(true) }
        }
      }
    }

    func makeStore(favorites: Favorites) -> SearchStore {
      Store(
        initialState: RepositorySearchReactor.State(),
        reactor: RepositorySearchReactor(search: { _ in [] }, favorites: { favorites.stream }))
    }

    @Test func workBoundToAViewEndsWhenTheViewsTaskIsCancelled() async {
      let favorites = Favorites()
      let store = makeStore(favorites: favorites)
      // SwiftUI: `.task { await store.send(.observeFavorites).finish() }`
      let view = Task { await store.send(.observeFavorites).finish() }
      favorites.continuation.yield(3)
      await store.wait(while: { $0.favoriteCount != 3 })
      #expect(store.runningEffectCount == 1)

      view.cancel()
      await view.value
      #expect(favorites.readerCancelled.value)
      #expect(store.runningEffectCount == 0)
    }

    @Test func workBoundToAStoreTaskEndsWhenItIsCancelled() async {
      let favorites = Favorites()
      let store = makeStore(favorites: favorites)
      let lifetime = store.send(.observeFavorites)
      favorites.continuation.yield(1)
      await store.wait(while: { $0.favoriteCount != 1 })

      lifetime.cancel()
      await lifetime.finish()
      #expect(lifetime.isCancelled)
      #expect(favorites.readerCancelled.value)
      #expect(store.runningEffectCount == 0)
    }

    @Test func workBoundToTheStoreEndsWhenTheStoreIsReleased() async {
      let favorites = Favorites()
      var store: SearchStore? = makeStore(favorites: favorites)
      weak let released = store
      let lifetime = store!.send(.observeFavorites)
      favorites.continuation.yield(1)
      await store!.wait(while: { $0.favoriteCount != 1 })

      store = nil
      #expect(released == nil)
      await lifetime.finish()
      #expect(favorites.readerCancelled.value)
    }
  }
}
