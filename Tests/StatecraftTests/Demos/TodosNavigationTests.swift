import Clocks
import Foundation
import IdentifiedCollections
import StatecraftTesting
import Testing
import TodosFeature

@testable import Statecraft

extension Engine {
  /// The todo demo's screens: a detail screen on a stack, a confirmation before a delete.
  @MainActor
  @Suite struct TodosNavigationTests {
    func makeStore(
      _ todos: [Todo] = [Todo(id: 1, title: "Buy milk"), Todo(id: 2, title: "Walk the dog")]
    ) -> TestStore<TodosNavigation.State, TodosNavigation.Action, TodosNavigation.Action> {
      TestStore(
        initialState: TodosNavigation.State(
          list: Todos.State(todos: IdentifiedArray(uniqueElements: todos)))
      ) {
        TodosNavigation { Todos() }
      } withDependencies: {
        $0.continuousClock = TestClock()
      }
    }

    @Test func aDetailScreenEditsTheTitleAndNotesAndGoesBackWithItsDismissal() async {
      let store = makeStore()
      store.exhaustivity = .off
      await store.send(.open(id: 2)) {
        $0.path = [TodoDetail.State(todo: Todo(id: 2, title: "Walk the dog"))]
      }
      let screen = store.state.path.ids[0]
      await store.send(.path(.element(id: screen, action: .setTitle("Walk the cat")))) {
        $0.path[id: screen]?.title = "Walk the cat"
      }
      await store.receive(.list(.edit(id: 2, title: "Walk the cat"))) {
        $0.list.todos[id: 2]?.title = "Walk the cat"
      }
      await store.send(.path(.element(id: screen, action: .setNotes("Before noon")))) {
        $0.path[id: screen]?.notes = "Before noon"
      }
      await store.receive(.list(.setNotes(id: 2, notes: "Before noon"))) {
        $0.list.todos[id: 2]?.notes = "Before noon"
      }
      await store.send(.path(.element(id: screen, action: .backTapped)))
      await store.receive(.path(.popFrom(id: screen))) { $0.path = [] }
      await store.send(.back) { $0.list.notice = "Already at the list." }
    }

    @Test func anOpenDetailScreenFollowsItsTodoAndGoesWhenTheTodoGoesByAnyPath() async {
      let store = makeStore()
      store.exhaustivity = .off
      await store.send(.open(id: 2)) {
        $0.path = [TodoDetail.State(todo: Todo(id: 2, title: "Walk the dog"))]
      }
      let screen = store.state.path.ids[0]
      // An edit made by the list (an undo, a line-mode `edit`) shows on the open screen.
      await store.send(.list(.edit(id: 2, title: "Walk the cat"))) {
        $0.list.todos[id: 2]?.title = "Walk the cat"
        $0.path[id: screen]?.title = "Walk the cat"
      }
      // The todo leaving the list by another way than the confirmation (an undo) pops its screen.
      await store.send(.list(.delete(id: 2))) {
        $0.list.todos.remove(id: 2)
        $0.path = []
      }
    }

    @Test func aDeleteIsAskedFirstAndKeepLeavesTheTodo() async {
      let store = makeStore()
      store.exhaustivity = .off
      await store.send(.deleteTapped(id: 1)) {
        $0.confirmation = ConfirmationDialogState(
          title: "Delete “Buy milk”?", titleVisibility: .visible,
          buttons: [
            ButtonState(role: .destructive, action: .delete(id: 1), label: "Delete"),
            ButtonState(role: .cancel, label: "Keep"),
          ])
      }
      await store.send(.confirmation(.press(store.state.confirmation!.buttons[1]))) {
        $0.confirmation = nil
      }
      #expect(store.state.list.todos.count == 2)
      await store.send(.open(id: 1)) {
        $0.path = [TodoDetail.State(todo: Todo(id: 1, title: "Buy milk"))]
      }
      await store.send(.deleteTapped(id: 1)) {
        $0.confirmation = TodosNavigation.deleteConfirmation(Todo(id: 1, title: "Buy milk"))
      }
      await store.send(.confirmation(.press(store.state.confirmation!.buttons[0]))) {
        $0.confirmation = nil
        $0.path = []
      }
      await store.receive(.list(.delete(id: 1))) {
        $0.list.todos = [Todo(id: 2, title: "Walk the dog")]
      }
    }

    @Test func notesSurviveAFileRoundTripAndAreLeftOutWhenEmpty() throws {
      let plain = try JSONEncoder().encode(Todo(id: 1, title: "a"))
      #expect(!String(decoding: plain, as: UTF8.self).contains("notes"))
      let noted = Todo(id: 1, title: "a", notes: "b")
      #expect(try JSONDecoder().decode(Todo.self, from: JSONEncoder().encode(noted)) == noted)
      #expect(try JSONDecoder().decode(Todo.self, from: plain) == Todo(id: 1, title: "a"))
    }
  }
}
