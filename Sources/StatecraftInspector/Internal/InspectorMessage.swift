// Owns the socket's protocol: the JSON messages the server sends a page and the ones it reads
// from it. No message the server sends is larger than `InspectedTree.maximumMessageSize`.
// Version 3:
//
// server → page
//   {"type":"welcome","protocol":3,"feature":…,"capabilities":{…},"stepCount":N}
//   {"type":"timeline","firstStep":F,"stepCount":N,"branch":{"from":K,"stepCount":M}|null,
//     "note":String|null}          (forget the steps known: the ones from F + 1 to N follow)
//   {"type":"steps","steps":[{"i":1,"c":"list.toggle","o":"send","s":"…"},…]}   (in order;
//     a skipped step has "k":true)
//   {"type":"trimmed","firstStep":F}                    (steps up to F were dropped)
//   {"type":"detail","step":N,"viewing":Bool,"liveStep":N,"recomputed":Bool,"skipped":Bool,
//     "action":JSON|null,"state":JSON,"cuts":[{"path":P,"shown":K,"count":C},…],
//     "changes":[{"path":P,"kind":"added"|"removed"|"changed","old":JSON?,"new":JSON?,
//     "cut":true?},…]|null,"changeCount":N,"diff":String|null}
//                      (the state cut to a budget: each container in "cuts" shows K of its C
//                       children; the paths that changed from the step before, and a diff of
//                       those paths alone; see InspectedTree.swift)
//   {"type":"children","step":N,"path":P,"offset":K,"count":C,"entries":[[key,JSON],…],
//     "cuts":[…]}                                      (more of a container of a step's state)
//   {"type":"live","stepCount":N}                      (the page follows the live steps again)
//   {"type":"sent"} · {"type":"generatedTest","source":…}
//   {"type":"progress","context":"detail"|"jump"|"follow"|"children"|"generateTest","step":N,
//     "done":K,"total":T}  (a request that takes long: K of its T actions recomputed or
//                          encoded; sent at most every `SliceBudget.progressInterval`, and
//                          only once the request has taken that long)
//   {"type":"cancelled","requests":K}  (the answer to "cancel": K requests were stopped, and
//                                       no answer to any of them follows)
//   {"type":"error","context":…,"message":…}
// page → server (read and checked by `PageRequest`, the one place that reads a page's messages)
//   {"type":"detail","step":N} · {"type":"jump","step":N} (view a step: the store goes on)
//   {"type":"follow"}          (the live step's detail, whichever step that is when it is read:
//                               a page that follows the app asks this way, so that it is never
//                               answered with a step the app left behind, recomputed)
//   {"type":"children","step":N,"path":P,"offset":K}  (the children of a container, from K)
//   {"type":"resume"} (back to the live steps) · {"type":"continue","step":N}
//   {"type":"undoContinue"} · {"type":"commit"} (the timeline starts at the live state)
//   {"type":"skip","step":N} · {"type":"unskip","step":N}  (leave a step's action out of the
//     session, or put it back: the steps after it are recomputed, the store is put at the
//     result, and the timeline is sent again)
//   {"type":"send","action":JSON} · {"type":"generateTest"}
//   {"type":"cancel"}  (stops the page's detail, jump, children, follow and generateTest
//                       requests under way or waiting; its other requests are answered)
//   Requests are answered in the order they are sent, and the socket is read meanwhile.
//   where N is a whole number from 0: a step of the timeline, and P a path: an array of
//   object keys (strings) and array indices (whole numbers from 0).
import Foundation

/// The version of the socket protocol.
let inspectorProtocolVersion = 3

/// The messages the server sends, as JSON text.
enum InspectorMessage {
  static func error(context: String, message: String) -> String {
    #"{"type":"error","context":\#(quoted(context)),"message":\#(quoted(message))}"#
  }

  static func welcome(
    feature: String, capabilities: [String: Bool], stepCount: Int
  ) -> String {
    let flags = capabilities.keys.sorted().map { "\(quoted($0)):\(capabilities[$0]!)" }
    return
      #"{"type":"welcome","protocol":\#(inspectorProtocolVersion),"feature":\#(quoted(feature)),"#
      + #""capabilities":{\#(flags.joined(separator: ","))},"stepCount":\#(stepCount)}"#
  }

  static func steps(_ summaries: [String]) -> String {
    #"{"type":"steps","steps":[\#(summaries.joined(separator: ","))]}"#
  }

  static func step(
    index: Int, caseName: String, origin: String, summary: String, skipped: Bool = false
  ) -> String {
    #"{"i":\#(index),"c":\#(quoted(caseName)),"o":\#(quoted(origin)),"s":\#(quoted(summary))"#
      + (skipped ? #","k":true}"# : "}")
  }

  /// `kept`: the sessions set aside by earlier continues, which the app keeps at quit.
  static func timeline(
    firstStep: Int, stepCount: Int, branch: (from: Int, stepCount: Int)?, kept: Int = 0,
    note: String?
  ) -> String {
    let branch = branch.map { #"{"from":\#($0.from),"stepCount":\#($0.stepCount)}"# } ?? "null"
    return #"{"type":"timeline","firstStep":\#(firstStep),"stepCount":\#(stepCount),"#
      + #""branch":\#(branch),"kept":\#(kept),"note":\#(note.map(quoted) ?? "null")}"#
  }

  static func trimmed(firstStep: Int) -> String {
    #"{"type":"trimmed","firstStep":\#(firstStep)}"#
  }

  static func live(stepCount: Int) -> String {
    #"{"type":"live","stepCount":\#(stepCount)}"#
  }

  static let sent = #"{"type":"sent"}"#

  static func cancelled(requests: Int) -> String {
    #"{"type":"cancelled","requests":\#(requests)}"#
  }

  static func progress(context: String, step: Int, done: Int, total: Int) -> String {
    #"{"type":"progress","context":\#(quoted(context)),"step":\#(step),"done":\#(done),"total":\#(total)}"#
  }

  static func generatedTest(_ source: String) -> String {
    #"{"type":"generatedTest","source":\#(quoted(source))}"#
  }

  /// `text` as a JSON string.
  static func quoted(_ text: String) -> String { JSONText.quoted(text) }
}

/// A message a page sent, read and checked at the edge: the session gets a kind with its fields
/// in range, or an error that says what is wrong, never an unchecked value.
struct PageRequest: Equatable {
  enum Kind: Equatable {
    /// Show a step's action, state and diff.
    case detail(step: Int)
    /// Show the live step's detail: a page that follows the app asks for the newest step, never
    /// for one the app has since left behind (which would have to be recomputed).
    case follow
    /// View a step: the page shows it, and the store goes on from its live state.
    case jump(step: Int)
    /// Follow the live steps again.
    case resume
    /// Go on from a past step: it becomes the live state, and the steps after it are set aside.
    case continueFrom(step: Int)
    /// Bring back what the last `continueFrom` set aside.
    case undoContinue
    /// Start the timeline at the live state, dropping the steps before it.
    case commit
    /// Send the store an action, given as JSON.
    case send(actionJSON: Data)
    /// Make a test from the session.
    case generateTest
    /// Show more of a container of a step's state: its children from `offset`.
    case children(step: Int, path: JSONPath, offset: Int)
    /// Stop the page's views and generated test under way or waiting, and its "follow".
    case cancel
    /// Leave a step's action out of the session (`skipped`), or put it back: the steps after it
    /// are recomputed, and the store is put at the result.
    case skip(step: Int, skipped: Bool)

    /// Whether a "cancel" stops it: what only reads the session, never a change of the store
    /// (a "send" or a "continue" the page asked for is made).
    var isCancellable: Bool {
      switch self {
      // NB: a move (continue, its undo, skip) changes the store only once its steps are
      // recomputed, in one step: cancelled before, it changed nothing.
      case .detail, .follow, .jump, .children, .generateTest, .continueFrom, .undoContinue,
        .skip:
        true
      case .resume, .commit, .send, .cancel: false
      }
    }
  }

  let kind: Kind

  /// Reads a page's message, or throws an error that says what is wrong with it.
  init(_ text: String) throws(PageRequestError) {
    let data = Data(text.utf8)
    guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    else {
      throw PageRequestError(
        "The message is not JSON. Send an object such as {\"type\":\"jump\",\"step\":3}.")
    }
    guard let fields = object as? [String: Any], let type = fields["type"] as? String else {
      throw PageRequestError(
        "The message is JSON but not an object with a \"type\": send {\"type\":\"resume\"}, for one."
      )
    }
    func step() throws(PageRequestError) -> Int {
      guard let given = fields["step"] else {
        throw PageRequestError("A \"\(type)\" message needs a \"step\": a whole number from 0.")
      }
      // NB: read again by `JSONDecoder`, whose `Int` is strict where a bridged `NSNumber` is
      // not: it refuses `true`, `"3"`, `3.5` and a number beyond `Int`.
      guard let step = try? JSONDecoder().decode(StepField.self, from: data).step, step >= 0
      else {
        throw PageRequestError(
          """
          The "step" of a "\(type)" message must be a whole number from 0 to the last step; \
          \(Self.excerpt(given)) is not.
          """)
      }
      return step
    }
    switch type {
    case "detail": kind = .detail(step: try step())
    case "jump": kind = .jump(step: try step())
    case "follow": kind = .follow
    case "resume": kind = .resume
    case "continue": kind = .continueFrom(step: try step())
    case "undoContinue": kind = .undoContinue
    case "commit": kind = .commit
    case "generateTest": kind = .generateTest
    case "cancel": kind = .cancel
    case "skip": kind = .skip(step: try step(), skipped: true)
    case "unskip": kind = .skip(step: try step(), skipped: false)
    case "children":
      let step = try step()
      guard let given = fields["path"] as? [Any], given.count <= 256,
        let request = try? JSONDecoder().decode(ChildrenFields.self, from: data),
        request.offset >= 0
      else {
        throw PageRequestError(
          """
          A "children" message needs a "path" (an array of keys and indices, as a detail's \
          "cuts" give it) and an "offset" (a whole number from 0).
          """)
      }
      kind = .children(step: step, path: request.path.map(\.component), offset: request.offset)
    case "send":
      guard let action = fields["action"],
        let data = try? JSONSerialization.data(withJSONObject: action, options: [.fragmentsAllowed])
      else {
        throw PageRequestError("A \"send\" message needs an \"action\": the action as JSON.")
      }
      kind = .send(actionJSON: data)
    default:
      throw PageRequestError(
        """
        Unknown message type "\(Self.excerpt(type))": this inspector (protocol \
        \(inspectorProtocolVersion)) reads detail, follow, jump, children, resume, continue, \
        undoContinue, skip, unskip, commit, send, generateTest and cancel.
        """)
    }
  }

  private struct StepField: Decodable {
    let step: Int
  }

  private struct ChildrenFields: Decodable {
    let path: [Component]
    let offset: Int

    /// A key or an index: a string or a whole number.
    struct Component: Decodable {
      let component: PathComponent

      init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let index = try? container.decode(Int.self) {
          guard index >= 0 else {
            throw DecodingError.dataCorruptedError(
              in: container, debugDescription: "an index is a whole number from 0")
          }
          component = .index(index)
        } else {
          component = .key(try container.decode(String.self))
        }
      }
    }
  }

  /// A value from the page as JSON, cut to a length that fits in a message.
  private static func excerpt(_ value: Any) -> String {
    let json = (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]))
      .map { String(decoding: $0, as: UTF8.self) }
    return excerpt(json ?? "\(value)")
  }

  private static func excerpt(_ text: String) -> String {
    text.count > 40 ? String(text.prefix(39)) + "…" : text
  }
}

/// Why a page's message could not be read.
struct PageRequestError: Error, Equatable {
  let message: String
  init(_ message: String) { self.message = message }
}
