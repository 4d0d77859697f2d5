// Owns the socket's protocol: the JSON messages the server sends a page and the ones it reads
// from it. Version 1:
//
// server → page
//   {"type":"welcome","protocol":1,"feature":…,"capabilities":{…},"stepCount":N}
//   {"type":"steps","steps":[{"i":1,"c":"list.toggle","o":"send","s":"…"},…]}   (in order)
//   {"type":"detail","step":N,"jumped":Bool,"action":JSON|null,"state":JSON,"diff":String|null}
//   {"type":"live","stepCount":N}                      (the store is back at its live state)
//   {"type":"sent"} · {"type":"generatedTest","source":…} · {"type":"reset","stepCount":0}
//   {"type":"error","context":…,"message":…}
// page → server
//   {"type":"detail","step":N} · {"type":"jump","step":N} · {"type":"resume"}
//   {"type":"send","action":JSON} · {"type":"generateTest"}
import Foundation

/// The version of the socket protocol.
let inspectorProtocolVersion = 1

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

  static func step(index: Int, caseName: String, origin: String, summary: String) -> String {
    #"{"i":\#(index),"c":\#(quoted(caseName)),"o":\#(quoted(origin)),"s":\#(quoted(summary))}"#
  }

  static func detail(
    step: Int, jumped: Bool, action: String?, state: String, diff: String?
  ) -> String {
    #"{"type":"detail","step":\#(step),"jumped":\#(jumped),"action":\#(action ?? "null"),"#
      + #""state":\#(state),"diff":\#(diff.map(quoted) ?? "null")}"#
  }

  static func live(stepCount: Int) -> String {
    #"{"type":"live","stepCount":\#(stepCount)}"#
  }

  static let sent = #"{"type":"sent"}"#

  static func generatedTest(_ source: String) -> String {
    #"{"type":"generatedTest","source":\#(quoted(source))}"#
  }

  static let reset = #"{"type":"reset","stepCount":0}"#

  /// `text` as a JSON string.
  static func quoted(_ text: String) -> String {
    (try? String(decoding: JSONEncoder().encode(text), as: UTF8.self)) ?? "\"\""
  }
}

/// A message a page sent.
struct PageRequest {
  enum Kind {
    case detail(step: Int)
    case jump(step: Int)
    case resume
    case send(actionJSON: Data)
    case generateTest
  }

  let kind: Kind

  /// Reads a page's message, or throws an error that says what is wrong with it.
  init(_ text: String) throws(PageRequestError) {
    guard let data = text.data(using: .utf8),
      let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
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
      guard let step = fields["step"] as? Int else {
        throw PageRequestError("A \"\(type)\" message needs a \"step\": a whole number.")
      }
      return step
    }
    switch type {
    case "detail": kind = .detail(step: try step())
    case "jump": kind = .jump(step: try step())
    case "resume": kind = .resume
    case "generateTest": kind = .generateTest
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
        Unknown message type "\(type)": this inspector (protocol \(inspectorProtocolVersion)) \
        reads detail, jump, resume, send and generateTest.
        """)
    }
  }
}

/// Why a page's message could not be read.
struct PageRequestError: Error {
  let message: String
  init(_ message: String) { self.message = message }
}
