import ArgumentParser
import CounterFeature
import DemoTerminal
import Foundation
import Statecraft

/// `swift run counter`: the Reactor-idiom counter demo.
@main
struct CounterCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "counter",
    abstract: "A counter built on Statecraft's Reactor idiom.",
    discussion: """
      Full screen when run in a terminal; one command per line when input is piped.
      The count stays within 0 to 20; f loads a fact about it from an effect,
      which takes --latency.

      KEYS (full screen):
        + or ↑ → more · - or ↓ ← less · f fact · c cancel · Ctrl-L redraw · q quit
      COMMANDS (piped input):
        + · - · fact · cancel · wait · help · quit
      FILE:
        None: the counter keeps nothing on disk.
      ENVIRONMENT:
        None is read.
      """
  )

  // NB: errors that repeat what was typed are escaped before they reach the terminal.
  static func main() async { await runEscapingErrors() }

  /// The latencies `--latency` accepts, in milliseconds.
  static let latencies = 0...60_000

  // NB: `.unconditional` takes `-5` as the value, so that it gets the range error below rather
  // than "Missing value" (as `--latency=-5` does).
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "How long the in-process facts service takes to answer, in milliseconds (0 to 60000).",
      valueName: "ms"))
  var latency = WholeNumber(1000)

  @Flag(help: "Start the Statecraft Inspector and print the URL of its page to standard error.")
  var inspect = false

  func validate() throws {
    guard latency.isIn(Self.latencies) else {
      throw ValidationError(
        "--latency must be from 0 to 60000 milliseconds; \(latency) is out of range.")
    }
  }

  func run() async throws {
    await CounterApp.main(latency: .milliseconds(latency.value ?? 0), inspect: inspect)
  }
}

/// Runs the counter reactor in the terminal.
@MainActor
final class CounterApp: StateSubscriber {
  let store: ReactorStoreOf<CounterReactor>
  let tasks = TaskTracker()
  /// Called with each alert, each time it is set (equal messages included).
  var onAlert: (AlertState<Never>) -> Void = { _ in }
  /// Called with the state of each batch.
  var onState: (CounterReactor.State) -> Void = { _ in }

  init(initialState: CounterReactor.State = CounterReactor.State(), latency: Duration) {
    store = Store(
      initialState: initialState,
      reactor: CounterReactor(facts: .inProcess(clock: ContinuousClock(), latency: latency)))
  }

  static func main(latency: Duration, inspect: Bool = false) async {
    let app = CounterApp(latency: latency)
    let inspector = inspect ? await app.startInspector() : nil
    await Terminal.run(
      fullScreen: { FullScreenCounter(app: app) }, lines: { LineCounter(app: app) })
    // NB: a fact still loading is not waited for: quitting cancels it.
    app.tasks.cancelAll()
    await app.tasks.waitForAll()
    await inspector?.stop()
  }

  func state(_ state: CounterReactor.State) {
    state.$alert.updated { alert in
      if let alert { onAlert(alert) }
    }
    onState(state)
  }

  @discardableResult
  func send(_ action: CounterReactor.Action) -> StoreTask {
    tasks.track(store.send(action))
  }

  static func describe(_ fact: Loadable<String>) -> String {
    switch fact {
    case .idle: return "-"
    case .loading: return "loading…"
    case .success(let fact): return fact
    case .failure(let error, _): return "failed: \(error)"
    }
  }
}

/// The counter driven one command per line, for piped input and CI.
@MainActor
struct LineCounter: DemoMode {
  let app: CounterApp

  static let usage = "Commands: + · - · fact · cancel · wait · help · quit"

  func run() async {
    printLine("Statecraft counter (Reactor idiom). \(Self.usage)")
    var last = app.store.state
    app.onAlert = { printLine("alert: \($0.title)") }
    app.onState = { state in
      defer { last = state }
      guard state.fact != last.fact else { return }
      if state.fact != .idle {
        printLine("fact: \(CounterApp.describe(state.fact))")
      } else if last.fact.isLoading, state.count == last.count {
        printLine("fact: cancelled")
      }
    }
    let subscription = app.store.subscribe(app)
    defer { subscription.cancel() }
    printLine("count: \(app.store.count)")

    for await command in StandardInput.commands() {
      switch command.line {
      case "+":
        app.send(.increment)
        printLine("count: \(app.store.count)")
      case "-":
        app.send(.decrement)
        printLine("count: \(app.store.count)")
      case "fact": app.send(.factTapped)
      case "cancel": app.send(.cancelFactTapped)
      case "wait": await app.tasks.waitForAll()
      case "help": printLine(Self.usage)
      case "quit", "q": return
      default: printLine("Unknown command '\(command.line)'. \(Self.usage)")
      }
    }
  }
}
