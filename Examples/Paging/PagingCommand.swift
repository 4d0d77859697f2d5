import ArgumentParser
import DemoTerminal
import Foundation
import PagingFeature
import Statecraft

/// `swift run paging`: the Feedback-idiom paged list demo.
@main
struct PagingCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "paging",
    abstract: "A paged list built on Statecraft's Feedback idiom.",
    discussion: """
      Full screen when run in a terminal; one command per line when input is piped.
      Pages load from an in-process service; one page fails once, to show a retry.

      KEYS (full screen):
        ↑↓ scroll (↓ at the end loads more) · / search · r retry
        Ctrl-L redraw · q quit
      COMMANDS (piped input):
        search [TEXT] · more · retry · wait · list · help · quit
      FILE:
        None: the paging list keeps nothing on disk.
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
      "How long the in-process page service takes to answer, in milliseconds (0 to 60000).",
      valueName: "ms"))
  var latency = WholeNumber(300)

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "The page whose first load fails, to show a retry: a page number from 1, or 'none'.",
      valueName: "page"))
  var failingPage = FailingPage(page: WholeNumber(3))

  @Flag(help: "Start the Statecraft Inspector and print the URL of its page to standard error.")
  var inspect = false

  func validate() throws {
    guard latency.isIn(Self.latencies) else {
      throw ValidationError(
        "--latency must be from 0 to 60000 milliseconds; \(latency) is out of range.")
    }
    if let page = failingPage.page, !page.isIn(1...Int.max) {
      throw ValidationError(
        "--failing-page must be a page number from 1, or 'none'; \(page) is out of range.")
    }
  }

  func run() async throws {
    await PagingApp.main(
      service: .inProcess(
        clock: ContinuousClock(), latency: .milliseconds(latency.value ?? 0),
        failingPage: failingPage.page?.value.map { $0 - 1 }), inspect: inspect)
  }
}

/// The value of `--failing-page`: a page number, or `none`.
struct FailingPage: ExpressibleByArgument {
  /// The page, counted from 1; nil for none.
  var page: WholeNumber?

  init(page: WholeNumber?) {
    self.page = page
  }

  init?(argument: String) {
    if argument == "none" {
      page = nil
    } else if let page = WholeNumber(argument: argument) {
      self.page = page
    } else {
      return nil
    }
  }

  var defaultValueDescription: String { page?.description ?? "none" }
}

/// Runs the paging feedback system in the terminal.
@MainActor
final class PagingApp: StateSubscriber {
  let store: FeedbackStoreOf<Paging>
  /// Called with the state of each batch.
  var onState: (Paging.State) -> Void = { _ in }

  init(initialState: Paging.State = Paging.State(), service: PageService) {
    // NB: the store keeps the values in force when it is created: its feedbacks load pages
    // from this service for as long as it runs.
    store = withDependencies {
      $0.pageService = service
    } operation: {
      Store(initialState: initialState, system: Paging())
    }
  }

  static func main(service: PageService, inspect: Bool = false) async {
    let app = PagingApp(service: service)
    let inspector = inspect ? await app.startInspector() : nil
    let loop = Task { await app.store.run() }
    await Terminal.run(fullScreen: { FullScreenPaging(app: app) }, lines: { LinePaging(app: app) })
    loop.cancel()
    await loop.value
    await inspector?.stop()
  }

  func state(_ state: Paging.State) {
    onState(state)
  }

  var statusLine: String {
    if let request = store.request { return "loading \(request)…" }
    if let failure = store.failure {
      return "\(failure.request) failed: \(failure.message) (retry asks again)"
    }
    return store.hasMore ? "more below" : "end of the list"
  }
}

/// The paging list driven one command per line, for piped input and CI.
@MainActor
struct LinePaging: DemoMode {
  let app: PagingApp

  static let usage = "Commands: search [TEXT] · more · retry · wait · list · help · quit"

  func run() async {
    printLine("Statecraft paging (Feedback idiom). \(Self.usage)")
    var previous = app.store.state
    if let request = previous.request { printLine("loading \(request)…") }
    app.onState = { state in
      defer { previous = state }
      if state.cancelled != previous.cancelled, let cancelled = state.cancelled {
        printLine("cancelled \(cancelled): the query changed")
      }
      if state.pagesLoaded > previous.pagesLoaded {
        printLine(
          "loaded page \(state.pagesLoaded): \(state.items.count) items"
            + (state.hasMore ? "" : ", the end of the list"))
      }
      if let failure = state.failure, failure.request != previous.failure?.request {
        printLine("\(failure.request) failed: \(failure.message); type retry")
      }
      if let request = state.request, request != previous.request {
        printLine("loading \(request)…")
      }
    }
    let subscription = app.store.subscribe(app)
    defer { subscription.cancel() }

    for await command in StandardInput.commands() {
      switch command.word {
      case "search": app.store.send(.queryChanged(command.rest))
      case "more":
        if app.store.isLoading {
          printLine("Still loading; type wait.")
        } else if app.store.failure != nil {
          printLine("The last page failed; type retry.")
        } else if !app.store.hasMore {
          printLine("That was the last page.")
        } else {
          app.store.send(.loadMore)
        }
      case "retry":
        if app.store.failure == nil { printLine("Nothing failed.") } else { app.store.send(.retry) }
      case "wait": await app.store.wait { $0.isLoading }
      case "list":
        for (index, item) in app.store.items.enumerated() { printLine("\(index + 1). \(item)") }
        printLine("(\(app.statusLine))")
      case "help": printLine(Self.usage)
      case "quit", "q": return
      default: printLine("Unknown command '\(command.line)'. \(Self.usage)")
      }
    }
  }
}
