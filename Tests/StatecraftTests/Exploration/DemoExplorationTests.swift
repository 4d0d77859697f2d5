import Clocks
import CounterFeature
import Dependencies
import PagingFeature
import Statecraft
import StatecraftExploration
import StatecraftTestGenerator
import Testing
import TodosFeature

/// The demos' features, explored with fixed seeds, 1,000 sessions each (about 15 s for the four
/// in a debug build, also under the address sanitizer): whatever these find is a bug of the demo.
extension Engine {
  @MainActor
  @Suite struct DemoExplorationTests {
    @Test func todosKeepTheirListTheirCountsAndTheirIDs() async {
      let report = await explore(
        initialState: Todos.State(),
        reducer: { Todos() },
        actions: .weighted([
          (4, .element(of: ["Milk", "Eggs", "", "  Tea "]).map(Todos.Action.add)),
          (2, .int(in: 0...4).map { Todos.Action.toggle(id: $0) }),
          (1, .int(in: 0...4).map { Todos.Action.delete(id: $0) }),
          (1, .int(in: 0...4).map { Todos.Action.edit(id: $0, title: "Bread") }),
          (2, .constant(.undo)),
          (1, .constant(.redo)),
          (1, .cases(of: TodoFilter.self).map(Todos.Action.setFilter)),
          (2, .element(of: ["", "m", "mi", "tea"]).map(Todos.Action.searchChanged)),
          (1, .constant(.syncTapped)),
          (1, .constant(.cancelSyncTapped)),
          // NB: values no effect sends but the Inspector's send box and a recording can: out of
          // range, huge, empty, very long.
          (
            1,
            .element(of: [-1, 110, Int.min, Int.max]).map {
              Todos.Action.syncProgressed(percent: $0)
            }
          ),
          (1, .element(of: [-3, Int.max]).map { Todos.Action.syncFinished(count: $0) }),
          (1, .element(of: [Int.min, -1, Int.max]).map { Todos.Action.toggle(id: $0) }),
          (
            1,
            .element(of: ["", String(repeating: "é", count: Todo.titleLimit + 1)]).map {
              Todos.Action.add($0)
            }
          ),
        ]),
        options: ExplorationOptions(seed: 2026, sessions: 1_000),
        // NB: quitting stops the sync and the search: nothing may run after it.
        sessionEnd: .teardown([Todos.Action.quit]),
        test: TestGenerator.Configuration(
          imports: ["TodosFeature"], reducer: "Todos()",
          dependencies: ["$0.continuousClock = clock"], clock: TestGenerator.Clock(name: "clock"),
          ending: .skipInFlightEffects)
      ) { state in
        let todos = state.todos
        try invariant(
          state.remaining == todos.filter { !$0.isDone }.count,
          "the count of remaining todos matches the list")
        try invariant(
          state.visible.allSatisfy { todos[id: $0.id] == $0 }, "every todo shown is in the list")
        try invariant(
          todos.allSatisfy { $0.id < state.nextID }, "no todo's id will be given again")
        try invariant(
          state.undoStack.count <= Todos.undoLimit, "the undo history stays within its limit")
        if case .syncing(let percent) = state.sync {
          try invariant((0...100).contains(percent), "the sync's percent is within 0...100")
        }
        if case .synced(let count) = state.sync {
          try invariant(count >= 0, "the synced count is not negative")
        }
        // NB: the line the apps draw, for every state a session reaches.
        _ = state.sync.line
      }
      #expect(report.failure == nil)
    }

    @Test func undoAfterAnyChangeRestoresTheListBeforeIt() async {
      // NB: from any state a session reaches, undo brings back the last list of the history,
      // and redo then brings back the list undo left.
      let report = await explore(
        initialState: Todos.State(),
        reducer: { Todos() },
        actions: .weighted([
          (3, .element(of: ["Milk", "Eggs"]).map(Todos.Action.add)),
          (2, .int(in: 0...3).map { Todos.Action.toggle(id: $0) }),
          (1, .int(in: 0...3).map { Todos.Action.delete(id: $0) }),
          (2, .constant(.undo)),
          (2, .constant(.redo)),
        ]),
        options: ExplorationOptions(seed: 7, sessions: 1_000)
      ) { state in
        var replay = state
        let reducer = Todos()
        guard !state.undoStack.isEmpty else { return }
        let before = state.undoStack.last
        _ = reducer.reduce(into: &replay, action: .undo)
        try invariant(replay.todos == before, "undo restores the list before the last change")
        _ = reducer.reduce(into: &replay, action: .redo)
        try invariant(replay.todos == state.todos, "redo after undo restores the list again")
      }
      #expect(report.failure == nil)
    }

    @Test func theCounterShowsAFactAboutItsCount() async {
      let facts = FactsService { number in
        @Dependency(\.continuousClock) var clock
        try await clock.sleep(for: .seconds(1))
        return FactsService.fact(about: number)
      }
      let report = await explore(
        initialState: CounterReactor.State(),
        reactor: CounterReactor(facts: facts),
        actions: .weighted([
          (3, .constant(.increment)),
          (2, .constant(.decrement)),
          (2, .constant(.factTapped)),
          (1, .constant(.cancelFactTapped)),
        ]),
        options: ExplorationOptions(seed: 2026, sessions: 1_000),
        sessionEnd: .whenIdle { !$0.fact.isLoading }
      ) { state in
        try invariant(CounterReactor.range.contains(state.count), "the count stays in range")
        if let fact = state.fact.value {
          try invariant(
            fact == FactsService.fact(about: state.count), "the fact shown is about the count")
        }
      }
      #expect(report.failure == nil)
    }

    @Test func pagingShowsEachPageOnceInOrder() async {
      let report = await explore(
        initialState: Paging.State(),
        system: Paging(),
        actions: .weighted([
          (3, .constant(.loadMore)),
          (2, .element(of: ["", "red", "kite", "zzz"]).map(Paging.Event.queryChanged)),
          (1, .constant(.retry)),
        ]),
        options: ExplorationOptions(seed: 2026, sessions: 1_000),
        sessionEnd: .whenIdle { !$0.isLoading },
        withDependencies: {
          $0.pageService = .inProcess(
            clock: $0.continuousClock, latency: .milliseconds(400), failingPage: 1)
        }
      ) { state in
        let expected = (0..<state.pagesLoaded).flatMap {
          PageService.page(PageRequest(query: state.query, page: $0)).items
        }
        try invariant(state.items == expected, "the items are the query's pages, in order")
        try invariant(Set(state.items).count == state.items.count, "no item is shown twice")
      }
      #expect(report.failure == nil)
    }
  }
}
