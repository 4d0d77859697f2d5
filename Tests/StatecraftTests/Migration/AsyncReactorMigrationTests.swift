import StatecraftTesting
import Testing

@testable import Statecraft

/// The AsyncReactor (diamirio) migration guide's repository search, converted and run.
extension Engine {
  @MainActor
  @Suite struct AsyncReactorMigrationTests {
    // docs:begin MigratingFromAsyncReactor
    struct Repository: Equatable, Sendable {
      var name: String
    }

    struct GitHubClient: Sendable {
      var search: @Sendable (String) async throws -> [Repository]
    }

    final class RepositorySearchReactor: Reactor {
      enum Action: Sendable {
        case enterQuery(String)
        case load
      }
      enum Mutation: Equatable, Sendable {
        case setQuery(String)
        case setLoading(Bool)
        case setRepositories([Repository])
        case setError(String)
      }
      struct State: Equatable {
        var query = ""
        var repositories: [Repository] = []
        var isLoading = false
        var error: String?
      }
      enum CancelID { case load }

      let github: GitHubClient

      init(github: GitHubClient) {
        self.github = github
      }

      func mutate(state: State, action: Action) -> Effect<Mutation> {
        switch action {
        case .enterQuery(let query):
          return .send(.setQuery(query))
        case .load:
          return .concatenate(
            .send(.setLoading(true)),
            .run { [github, query = state.query] send in
              await send(.setRepositories(try await github.search(query)))
            } catch: { error, send in
              await send(.setError("\(error)"))
            },
            .send(.setLoading(false))
          )
          .cancellable(id: CancelID.load, cancelInFlight: true)
        }
      }

      func reduce(state: inout State, mutation: Mutation) {
        switch mutation {
        case .setQuery(let query): state.query = query
        case .setLoading(let isLoading): state.isLoading = isLoading
        case .setRepositories(let repositories):
          state.repositories = repositories
          state.error = nil
        case .setError(let error): state.error = error
        }
      }
    }
    // docs:end

    @Test func theQueryBindingSendsItsActionAndALoadShowsTheResults() async {
      // docs:begin MigratingFromAsyncReactor
      let github = GitHubClient { query in [Repository(name: "\(query)-kit")] }
      let store = Store(
        initialState: RepositorySearchReactor.State(),
        reactor: RepositorySearchReactor(github: github))
      let query = store.binding(\.query, send: RepositorySearchReactor.Action.enterQuery)
      query.wrappedValue = "swift"  // @ActionBinding: reads state, sends on set
      #expect(store.query == "swift")
      await store.send(.load).finish()
      #expect(store.repositories == [Repository(name: "swift-kit")])
      #expect(!store.isLoading)
      // docs:end
    }

    @Test func aNewerLoadCancelsTheStaleOne() async {
      let first = Gate()
      let github = GitHubClient { query in
        if query == "old" { await first.wait() }
        return [Repository(name: query)]
      }
      let store = TestStore(
        initialState: RepositorySearchReactor.State(),
        reactor: RepositorySearchReactor(github: github))
      await store.send(.enterQuery("old")) { $0.query = "old" }
      await store.send(.load) { $0.isLoading = true }
      await store.send(.enterQuery("new")) { $0.query = "new" }
      await store.send(.load)
      first.open()
      await store.receive(.setRepositories([Repository(name: "new")])) {
        $0.repositories = [Repository(name: "new")]
      }
      await store.receive(.setLoading(false)) { $0.isLoading = false }
      await store.finish()
    }
  }
}
