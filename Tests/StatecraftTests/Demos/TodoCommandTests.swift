import Testing
import TodosFeature

extension Engine {
  @MainActor @Suite struct TodoCommandTests {
    var state: Todos.State {
      var state = Todos.State(todos: [
        Todo(id: 4, title: "Buy milk", isDone: true), Todo(id: 9, title: "Walk the dog"),
      ])
      state.filter = .active
      return state
    }

    func parse(_ line: String) -> Result<TodoCommand, TodoCommand.Hint> {
      TodoCommand.parse(line, in: state)
    }

    @Test func numbersNameTodosByTheirPlaceInTheVisibleList() {
      #expect(parse("toggle 1") == .success(.send(.toggle(id: 9))))
      #expect(parse("delete 1") == .success(.send(.delete(id: 9))))
      #expect(
        parse("edit 1  Walk the cat ") == .success(.send(.edit(id: 9, title: "Walk the cat"))))
      #expect(parse("toggle 2") == .failure(.init("There is no todo 2; pick 1 to 1.")))
      #expect(
        parse("toggle x")
          == .failure(.init("'toggle' needs the todo's number, as the list shows it.")))
    }

    @Test(arguments: ["0", "-1", "-9223372036854775808", "9223372036854775807"])
    func aNumberOutsideTheListNeverOverflows(number: String) {
      #expect(
        parse("toggle \(number)") == .failure(.init("There is no todo \(number); pick 1 to 1.")))
    }

    @Test func wordsBecomeActionsOrAppCommands() {
      #expect(parse("add Buy bread") == .success(.send(.add("Buy bread"))))
      #expect(parse("filter done") == .success(.send(.setFilter(.done))))
      #expect(parse("search  dog") == .success(.send(.searchChanged("dog"))))
      #expect(parse("search") == .success(.send(.searchChanged(""))))
      #expect(parse("undo") == .success(.send(.undo)))
      #expect(parse("sync") == .success(.send(.syncTapped)))
      #expect(parse("cancel") == .success(.send(.cancelSyncTapped)))
      #expect(parse("wait") == .success(.wait))
      #expect(parse("log") == .success(.toggleLog))
      #expect(parse("q") == .success(.quit))
    }

    @Test func badInputGetsAShortHint() {
      #expect(parse("") == .failure(.init("Type a command, or 'help'.")))
      #expect(
        parse("frobnicate 3")
          == .failure(.init("Unknown command 'frobnicate'. Type 'help' for the list.")))
      #expect(parse("filter later") == .failure(.init("Filters are all, active and done.")))
      #expect(
        TodoCommand.parse("toggle 1", in: Todos.State()) == .failure(.init("The list is empty.")))
    }
  }
}
