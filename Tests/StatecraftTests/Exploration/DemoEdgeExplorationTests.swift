import CounterFeature
import DemoTerminal
import Dependencies
import PagingFeature
import Statecraft
import StatecraftExploration
import StatecraftTestGenerator
import Testing
import TodosFeature

@testable import counter
@testable import paging
@testable import todos

/// The demos explored with values at their edges, as the Inspector's send box and a replayed
/// recording can send them: negative, huge, empty, very long, unprintable. After every step the
/// state keeps its invariants, and every screen of the demo is drawn from it at sizes down to
/// none, and must fit the screen, show no control character and keep the quit key.
extension Engine {
  @MainActor
  @Suite struct DemoEdgeExplorationTests {
    /// The sizes every reached state is drawn at, rows × columns: none, one cell, a row of no
    /// columns, a few cells, the smallest screen the demos promise to fit (40×10), the usual one
    /// and a wide one.
    static let sizes = [(0, 0), (1, 1), (1, 0), (2, 3), (10, 40), (24, 80), (5, 300)]
    /// The sizes a screen's other modes (a hint, a prompt, the log) are drawn at: one cell and
    /// the smallest promised screen, so that a session's thousands of draws take a few seconds.
    static let fewSizes = [(1, 1), (10, 40)]

    // MARK: - Todos

    static let ids = ValueGenerator<Int>.edgeBiasedInt(in: 1...4)
    static let titles = ValueGenerator<String>.edgeBiasedString(
      from: ["Milk", "Eggs", "  Tea "], longerThan: Todo.titleLimit)

    /// Every action of the list, each value drawn at its edges, and the navigation's actions
    /// over it.
    static let todosActions = ActionGenerator<TodosNavigation.Action>.weighted([
      (4, titles.map { .list(.add($0)) }),
      (1, titles.map { .list(.edit(id: 1, title: $0)) }),
      (1, ids.map { .list(.edit(id: $0, title: "Bread")) }),
      (
        1,
        ValueGenerator<String>.edgeBiasedString(from: ["", "Two"], longerThan: Todo.notesLimit)
          .map { .list(.setNotes(id: 1, notes: $0)) }
      ),
      (1, ids.map { .list(.setNotes(id: $0, notes: "Soon")) }),
      (2, ids.map { .list(.toggle(id: $0)) }),
      (1, ids.map { .list(.delete(id: $0)) }),
      (1, .cases(of: TodoFilter.self).map { .list(.setFilter($0)) }),
      (2, .constant(.list(.undo))),
      (1, .constant(.list(.redo))),
      (
        2,
        ValueGenerator<String>.edgeBiasedString(from: ["", "mi"]).map { .list(.searchChanged($0)) }
      ),
      (1, ValueGenerator<String>.edgeBiasedString(from: ["tea"]).map { .list(.searchApplied($0)) }),
      (1, .constant(.list(.syncTapped))),
      (1, .constant(.list(.cancelSyncTapped))),
      // NB: what the sync's effect sends, which the Inspector's send box can send with any value.
      (
        2,
        ValueGenerator<Int>.edgeBiasedInt(in: 0...100).map { .list(.syncProgressed(percent: $0)) }
      ),
      (2, ValueGenerator<Int>.edgeBiasedInt(in: 0...4).map { .list(.syncFinished(count: $0)) }),
      (
        1,
        ValueGenerator<String>.edgeBiasedString(from: ["Disk full."]).map { .list(.saveFailed($0)) }
      ),
      (1, ids.map { .open(id: $0) }),
      (1, ids.map { .deleteTapped(id: $0) }),
      (1, .constant(.back)),
    ])

    @Test func todosHandleAnyValueAndDrawEveryStateAtAnySize() async {
      let report = await explore(
        initialState: TodosNavigation.State(list: Todos.State()),
        reducer: { TodosNavigation { Todos() } },
        actions: Self.todosActions,
        options: ExplorationOptions(seed: 41, sessions: 60),
        // NB: quitting stops the sync and the search: nothing may run after it.
        sessionEnd: .teardown([.list(.quit)]),
        test: TestGenerator.Configuration(
          imports: ["TodosFeature"], reducer: "TodosNavigation { Todos() }",
          dependencies: ["$0.continuousClock = clock"], clock: TestGenerator.Clock(name: "clock"),
          ending: .skipInFlightEffects)
      ) { state in
        let list = state.list
        if case .syncing(let percent) = list.sync {
          try invariant((0...100).contains(percent), "the sync's percent is within 0...100")
        }
        if case .synced(let count) = list.sync {
          try invariant(count >= 0, "the synced count is not negative")
        }
        try invariant(
          list.todos.allSatisfy {
            $0.title.count <= Todo.titleLimit && $0.notes.count <= Todo.notesLimit
          },
          "no title or notes is longer than its limit")
        try invariant(
          list.todos.allSatisfy { !$0.title.isEmpty }, "no todo has an empty title")
        try invariant(
          list.todos.allSatisfy { $0.id > 0 && $0.id < list.nextID }, "ids are positive and fresh")
        try invariant(
          state.path.ids.allSatisfy { list.todos[id: state.path[id: $0]!.id] != nil },
          "a detail screen shows a todo of the list")
        try Self.drawTodos(state)
      }
      #expect(report.failure == nil)
    }

    /// Draws every screen of the todo app from `state`: the list, with a hint, a prompt and the
    /// change log, and the detail screen or the question on top when the state has one; then
    /// the lines line mode prints.
    static func drawTodos(_ state: TodosNavigation.State) throws {
      let app = TodosApp(
        navigation: Store(initialState: state) { TodosNavigation { Todos() } },
        log: ChangeLogBuffer())
      let screen = FullScreenTodos(app: app)
      // NB: past the end of the list, as after a delete from elsewhere.
      screen.selection = .max
      try check(screen.lines(rows:columns:), "the list")
      screen.hint = state.list.notice ?? state.list.query
      try check(screen.lines(rows:columns:), "the list with a hint", at: fewSizes)
      screen.hint = nil
      screen.editor = LineEditor(prompt: "Search", text: state.list.query)
      screen.editing = .search
      try check(screen.lines(rows:columns:), "the list with a prompt", at: fewSizes)
      screen.editor = nil
      screen.editing = nil
      app.showsLog = true
      try check(screen.lines(rows:columns:), "the list with the change log", at: fewSizes)

      _ = app.listLines()
      _ = app.listLines(in: 0..<Int.max, width: 0)
      _ = app.summary
      _ = app.syncLine
      if let top = app.topScreen { _ = TodosApp.detailLines(top.state) }
      if let dialog = app.navigation.confirmation { _ = TodosApp.confirmationLine(dialog) }
    }

    // MARK: - Counter

    static let edgeTexts = ValueGenerator<String>.edgeStrings(longerThan: 40)

    @Test func theCounterDrawsEveryStateAtAnySize() async {
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
        options: ExplorationOptions(seed: 41, sessions: 30),
        sessionEnd: .whenIdle { !$0.fact.isLoading }
      ) { state in
        try invariant(CounterReactor.range.contains(state.count), "the count stays in range")
        let app = CounterApp(initialState: state, latency: .zero)
        let screen = FullScreenCounter(app: app)
        try Self.check(screen.lines(rows:columns:), "the counter")
        for text in Self.edgeTexts {
          screen.alert = (text, .max)
          screen.hint = text
          try Self.check(
            screen.lines(rows:columns:), "the counter with an alert and a hint", at: Self.fewSizes)
        }
        _ = CounterApp.describe(state.fact)
      }
      #expect(report.failure == nil)
    }

    // MARK: - Paging

    @Test func pagingHandlesAnyQueryAndDrawsEveryStateAtAnySize() async {
      let queries = ValueGenerator<String>.edgeBiasedString(from: ["", "red", "kite"])
      let report = await explore(
        initialState: Paging.State(),
        system: Paging(),
        actions: .weighted([
          (3, .constant(.loadMore)),
          (2, queries.map(Paging.Event.queryChanged)),
          (1, .constant(.retry)),
          // NB: what a server may say when a page fails: any text.
          (
            1,
            ValueGenerator<String>.edgeBiasedString(from: ["timed out"]).map {
              Paging.Event.pageFailed(PageRequest(query: "", page: 0), $0)
            }
          ),
        ]),
        options: ExplorationOptions(seed: 41, sessions: 60),
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
        let app = PagingApp(
          initialState: state, service: .inProcess(clock: ContinuousClock(), latency: .zero))
        let screen = FullScreenPaging(app: app)
        screen.selection = .max
        try Self.check(screen.lines(rows:columns:), "the list")
        screen.editor = LineEditor(prompt: "Search", text: state.query)
        screen.hint = state.failure?.message
        try Self.check(screen.lines(rows:columns:), "the list with a prompt", at: Self.fewSizes)
        _ = app.statusLine
      }
      #expect(report.failure == nil)
    }

    // MARK: - Drawing

    /// Draws `screen` at each of `sizes` and checks what reaches the terminal: no more
    /// rows than the screen has, each row within its width once cut and with no control
    /// character, and the quit key from 40×10 up.
    static func check(
      _ screen: (_ rows: Int, _ columns: Int) -> [StyledText], _ name: String,
      at sizes: [(Int, Int)] = Self.sizes
    ) throws {
      for (rows, columns) in sizes {
        let lines = screen(rows, columns)
        try invariant(lines.count <= rows, "\(name) has no more rows than the screen")
        var showsQuitKey = false
        for line in lines {
          let shown = line.fitted(to: columns).plain
          try invariant(Text.cellWidth(shown) <= columns, "\(name) fits the screen's width")
          try invariant(Text.escaped(shown) == shown, "\(name) draws no control character")
          if shown.contains("q quit") { showsQuitKey = true }
        }
        if rows >= 10, columns >= 40 {
          try invariant(showsQuitKey, "\(name) shows the quit key")
        }
      }
    }
  }
}
