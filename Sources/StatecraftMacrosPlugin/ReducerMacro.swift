// Owns `@Reducer`, in TCA's two uses:
// - on a struct: the `Reducer` conformance, `@CasePathable` on its `Action` enum (and on a
//   `State` enum, with `@dynamicMemberLookup`), so that `\.child` case key paths work, and
//   `@ReducerBuilder` on its `body`, so that a body of several reducers compiles;
// - on an enum of reducers and values: the `State` and `Action` enums, a static `body` with a
//   `Scope` per reducer case, and the `CaseReducer` conformance, so that `.ifLet` and `.forEach`
//   find the reducer from the state's type and need no child closure.
// What the macro can't expand is diagnosed where it is written, with what to write instead.
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Reducer` on a struct or an enum.
public enum ReducerMacro {}

// MARK: - Roles

extension ReducerMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    if declaration.is(EnumDeclSyntax.self) {
      // NB: `CaseScopable` only where the macro writes `State`, and so `CaseScope` from the
      // same cases; a hand-written `State` may not have a case per case of the enum.
      var conformances: [String] = []
      if !declaration.inherits("CaseReducer") {
        conformances += ["Statecraft.CaseReducer", "Statecraft.Reducer"]
      }
      if !declaration.declaresType(named: "State"), !declaration.inherits("CaseScopable") {
        conformances.append("Statecraft.CaseScopable")
      }
      guard !conformances.isEmpty else { return [] }
      return [
        try ExtensionDeclSyntax(
          "extension \(type.trimmed): \(raw: conformances.joined(separator: ", ")) {}")
      ]
    }
    guard declaration.is(StructDeclSyntax.self), !declaration.inherits("Reducer") else {
      return []
    }
    return [try ExtensionDeclSyntax("extension \(type.trimmed): Statecraft.Reducer {}")]
  }
}

extension ReducerMacro: MemberAttributeMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    guard declaration.is(StructDeclSyntax.self) else { return [] }
    if let property = member.as(VariableDeclSyntax.self) {
      guard property.needsReducerBuilder else { return [] }
      return ["@Statecraft.ReducerBuilder<Self.State, Self.Action>"]
    }
    guard let nested = member.as(EnumDeclSyntax.self) else { return [] }
    var attributes: [AttributeSyntax] = []
    switch nested.name.text {
    case "Action":
      if !nested.attributes.contains(named: "CasePathable") {
        attributes.append("@CasePaths.CasePathable")
      }
    case "State":
      if !nested.attributes.contains(named: "CasePathable") {
        attributes.append("@CasePaths.CasePathable")
      }
      if !nested.attributes.contains(named: "dynamicMemberLookup") {
        attributes.append("@dynamicMemberLookup")
      }
    default:
      break
    }
    return attributes
  }
}

extension ReducerMacro: MemberMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    if let structDecl = declaration.as(StructDeclSyntax.self) {
      if let arguments = node.arguments {
        context.diagnose(
          Diagnostic(node: arguments, message: ReducerDiagnostic.argumentsOnStruct))
      }
      if !structDecl.declaresType(named: "State") {
        context.diagnose(
          Diagnostic(
            node: structDecl.name,
            message: ReducerDiagnostic.missingState(structDecl.name.text)))
      }
      return []
    }
    guard let enumDecl = declaration.as(EnumDeclSyntax.self) else {
      context.diagnose(
        Diagnostic(node: node, message: ReducerDiagnostic.notStructOrEnum(declaration.kindName)))
      return []
    }
    return expandEnum(enumDecl, conformances: synthesizedConformances(node), in: context)
  }
}

// MARK: - An enum of reducers

extension ReducerMacro {
  /// One case of a `@Reducer enum`, and what it becomes.
  struct Case {
    enum Kind {
      /// `case add(AddFeature)`: the reducer's state and action, and a `Scope` that runs it.
      case reducer(type: String, instance: String)
      /// `case alert(AlertState<Alert>)`: the value itself, its buttons' action as the action.
      case ephemeral(type: String, action: String)
      /// `@ReducerCaseIgnored case meeting(Meeting)`, a case of several values, or none: the
      /// values as they are; no action.
      case stateOnly(parameters: String?)
    }

    var name: String
    var kind: Kind
    /// The label of each of the case's values (nil where it has none), for `CaseScope`.
    var labels: [String?] = []

    var stateCase: String {
      switch kind {
      case .reducer(let type, _): "case \(name)(\(type).State)"
      case .ephemeral(let type, _): "case \(name)(\(type))"
      case .stateOnly(let parameters?): "case \(name)\(parameters)"
      case .stateOnly(nil): "case \(name)"
      }
    }

    var actionCase: String {
      switch kind {
      case .reducer(let type, _): "case \(name)(\(type).Action)"
      case .ephemeral(_, let action): "case \(name)(\(action))"
      case .stateOnly: "case \(name)(Swift.Never)"
      }
    }

    var scope: String? {
      guard case .reducer(_, let instance) = kind else { return nil }
      return "Statecraft.Scope(state: \\.\(name), action: \\.\(name)) { \(instance) }"
    }

    /// The case of `CaseScope`: a child store for a reducer, the values as they are otherwise.
    var caseScopeCase: String {
      switch kind {
      case .reducer(let type, _): "case \(name)(Statecraft.StoreOf<\(type)>)"
      case .ephemeral, .stateOnly: stateCase
      }
    }

    /// The lines of `scope(_:)` that return this case when it is the one present. Each asks for
    /// a scope of its case alone, so that reading `store.case` observes which case is present,
    /// not every change inside it.
    var caseScopeReturn: String {
      switch kind {
      case .reducer:
        return
          "if let child = store.scope(state: \\.\(name), action: \\.\(name)) { return .\(name)(child) }"
      case .ephemeral:
        return "if let value = store.scope(state: \\.\(name)).state { return .\(name)(value) }"
      case .stateOnly(nil):
        return "if store.scope(state: \\.\(name)).state != nil { return .\(name) }"
      case .stateOnly(.some):
        let arguments: String
        if labels.count == 1 {
          arguments = labels[0].map { "\($0): value" } ?? "value"
        } else {
          arguments = labels.enumerated().map { index, label in
            label.map { "\($0): value.\(index)" } ?? "value.\(index)"
          }.joined(separator: ", ")
        }
        return
          "if let value = store.scope(state: \\.\(name)).state { return .\(name)(\(arguments)) }"
      }
    }
  }

  /// The conformances `@Reducer(state: .equatable, action: .equatable, .sendable)` asks for on
  /// the `State` and `Action` it writes (TCA's deprecated spelling, still common), as
  /// `(state, action)` lists of protocol names.
  static func synthesizedConformances(_ node: AttributeSyntax) -> (
    state: [String], action: [String]
  ) {
    guard let arguments = node.arguments?.as(LabeledExprListSyntax.self) else { return ([], []) }
    let protocols = [
      "codable": "Codable", "decodable": "Decodable", "encodable": "Encodable",
      "equatable": "Equatable", "hashable": "Hashable", "sendable": "Sendable",
    ]
    var state: [String] = []
    var action: [String] = []
    var label = ""
    for argument in arguments {
      // NB: a variadic list's later values have no label: they belong to the last one.
      if let name = argument.label?.text { label = name }
      guard let member = argument.expression.as(MemberAccessExprSyntax.self),
        let name = protocols[member.declName.baseName.text]
      else { continue }
      if label == "state" { state.append(name) } else if label == "action" { action.append(name) }
    }
    return (state, action)
  }

  static func expandEnum(
    _ enumDecl: EnumDeclSyntax, conformances: (state: [String], action: [String]),
    in context: some MacroExpansionContext
  ) -> [DeclSyntax] {
    var cases: [Case] = []
    for member in enumDecl.memberBlock.members {
      guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
      let ignored = caseDecl.attributes.contains(named: "ReducerCaseIgnored")
      let ephemeral = caseDecl.attributes.contains(named: "ReducerCaseEphemeral")
      for element in caseDecl.elements {
        if let found = classify(element, ignored: ignored, ephemeral: ephemeral, in: context) {
          cases.append(found)
        }
      }
    }
    let access = enumDecl.modifiers.accessPrefix
    let name = enumDecl.name.text
    var members: [DeclSyntax] = []
    if !enumDecl.declaresType(named: "State") {
      members.append(
        """
        @CasePaths.CasePathable
        @dynamicMemberLookup
        \(raw: access)enum State: \(raw: (["Statecraft.CaseReducerState"] + conformances.state).joined(separator: ", ")) {
          \(raw: access)typealias StateReducer = \(raw: name)
          \(raw: cases.map(\.stateCase).joined(separator: "\n"))
        }
        """)
    }
    if !enumDecl.declaresType(named: "Action") {
      members.append(
        """
        @CasePaths.CasePathable
        \(raw: access)enum Action\(raw: conformances.action.isEmpty ? "" : ": " + conformances.action.joined(separator: ", ")) {
          \(raw: cases.map(\.actionCase).joined(separator: "\n"))
        }
        """)
    }
    // NB: a named type, not `some Reducer`: the conformance the extension role adds is checked
    // against what this role writes, and an opaque type there can't give `Body` its type. The
    // explicit `return` keeps `CaseReducer`'s result builder out of it.
    let scopes = cases.compactMap(\.scope)
    if scopes.isEmpty {
      members.append(
        """
        \(raw: access)static var body: Statecraft.EmptyReducer<Self.State, Self.Action> {
          return Statecraft.EmptyReducer()
        }
        """)
    } else {
      members.append(
        """
        \(raw: access)static var body: Statecraft.Reduce<Self.State, Self.Action> {
          return Statecraft.Reduce(
            Statecraft.CombineReducers {
              \(raw: scopes.joined(separator: "\n"))
            }
          )
        }
        """)
    }
    // NB: `switch store.case { … }`, where the macro writes `State` from these same cases.
    if !enumDecl.declaresType(named: "State") {
      members.append(
        """
        \(raw: access)enum CaseScope {
          \(raw: cases.map(\.caseScopeCase).joined(separator: "\n"))
        }
        """)
      members.append(
        """
        @MainActor
        \(raw: access)static func scope(_ store: Statecraft.Store<Self.State, Self.Action>) -> CaseScope {
          \(raw: cases.map(\.caseScopeReturn).joined(separator: "\n"))
          fatalError("no case of \\(Self.State.self) is present in the store's state")
        }
        """)
    }
    return members
  }

  /// What a case becomes, or nil (with a diagnostic) when it can't be expanded.
  static func classify(
    _ element: EnumCaseElementSyntax, ignored: Bool, ephemeral: Bool,
    in context: some MacroExpansionContext
  ) -> Case? {
    let name = element.name.text
    guard let parameters = element.parameterClause?.parameters, !parameters.isEmpty else {
      if ephemeral {
        context.diagnose(
          Diagnostic(node: element, message: ReducerDiagnostic.ephemeralWithoutValue(name)))
        return nil
      }
      return Case(name: name, kind: .stateOnly(parameters: nil))
    }
    guard parameters.count == 1, let parameter = parameters.first else {
      if ephemeral {
        context.diagnose(
          Diagnostic(
            node: element,
            message: ReducerDiagnostic.ephemeralWithSeveralValues(name, parameters.count)))
        return nil
      }
      // NB: as TCA's: a case of several values holds them as state (SyncUps' `case
      // meeting(Meeting, syncUp: SyncUp)`), with no action.
      return Case(
        name: name, kind: .stateOnly(parameters: element.parameterClause!.trimmedDescription),
        labels: parameters.map(\.label))
    }
    let type = parameter.type.trimmedDescription
    let isNamedType =
      parameter.type.is(IdentifierTypeSyntax.self) || parameter.type.is(MemberTypeSyntax.self)
    if ignored || !isNamedType {
      return Case(
        name: name, kind: .stateOnly(parameters: element.parameterClause!.trimmedDescription),
        labels: [parameter.label])
    }
    let baseName =
      parameter.type.as(IdentifierTypeSyntax.self)?.name.text
      ?? parameter.type.as(MemberTypeSyntax.self)?.name.text
    if ephemeral || baseName == "AlertState" || baseName == "ConfirmationDialogState" {
      let generic =
        parameter.type.as(IdentifierTypeSyntax.self)?.genericArgumentClause?.arguments
        ?? parameter.type.as(MemberTypeSyntax.self)?.genericArgumentClause?.arguments
      let action =
        generic.flatMap { $0.count == 1 ? $0.first?.argument.trimmedDescription : nil }
        ?? "\(type).Action"
      return Case(name: name, kind: .ephemeral(type: type, action: action))
    }
    let instance = parameter.defaultValue?.value.trimmedDescription ?? "\(type)()"
    return Case(name: name, kind: .reducer(type: type, instance: instance))
  }
}

// MARK: - Diagnostics

/// What `@Reducer` can't expand, said where it is written.
enum ReducerDiagnostic: DiagnosticMessage {
  case notStructOrEnum(String)
  case argumentsOnStruct
  case missingState(String)
  case ephemeralWithoutValue(String)
  case ephemeralWithSeveralValues(String, Int)

  var message: String {
    switch self {
    case .notStructOrEnum(let kind):
      return """
        '@Reducer' applies to a struct (a feature) or an enum (a destination or a path), not \
        to \(kind): a reducer is a value, so that a store can copy and scope it
        """
    case .argumentsOnStruct:
      return """
        '@Reducer' takes arguments only on an enum, whose 'State' and 'Action' it writes; on a \
        struct, write the conformances on its own 'State' and 'Action'
        """
    case .missingState(let name):
      return """
        '@Reducer' struct '\(name)' declares no 'State': add 'struct State' (or an enum, or \
        'typealias State = …') inside it
        """
    case .ephemeralWithoutValue(let name):
      return """
        '@ReducerCaseEphemeral' case '\(name)' holds no value: an ephemeral case holds its \
        state, such as 'AlertState<Alert>'
        """
    case .ephemeralWithSeveralValues(let name, let count):
      return """
        '@ReducerCaseEphemeral' case '\(name)' holds \(count) values: an ephemeral case holds \
        one, such as 'AlertState<Alert>'; put the others in its state
        """
    }
  }

  var diagnosticID: MessageID {
    switch self {
    case .notStructOrEnum: MessageID(domain: "StatecraftMacros", id: "notStructOrEnum")
    case .argumentsOnStruct: MessageID(domain: "StatecraftMacros", id: "argumentsOnStruct")
    case .missingState: MessageID(domain: "StatecraftMacros", id: "missingState")
    case .ephemeralWithoutValue: MessageID(domain: "StatecraftMacros", id: "ephemeralWithoutValue")
    case .ephemeralWithSeveralValues:
      MessageID(domain: "StatecraftMacros", id: "ephemeralWithSeveralValues")
    }
  }

  var severity: DiagnosticSeverity { .error }
}

// MARK: - Syntax helpers

extension DeclGroupSyntax {
  /// Whether the declaration's inheritance clause names `name` (or `Module.name`).
  func inherits(_ name: String) -> Bool {
    inheritanceClause?.inheritedTypes.contains { inherited in
      let type = inherited.type
      return type.as(IdentifierTypeSyntax.self)?.name.text == name
        || type.as(MemberTypeSyntax.self)?.name.text == name
    } ?? false
  }

  /// Whether the declaration holds a nested type or type alias named `name`.
  func declaresType(named name: String) -> Bool {
    memberBlock.members.contains { member in
      let decl = member.decl
      if let nested = decl.as(StructDeclSyntax.self) { return nested.name.text == name }
      if let nested = decl.as(EnumDeclSyntax.self) { return nested.name.text == name }
      if let nested = decl.as(ClassDeclSyntax.self) { return nested.name.text == name }
      if let alias = decl.as(TypeAliasDeclSyntax.self) { return alias.name.text == name }
      return false
    }
  }

  /// "a class", "an actor"…: what the declaration is, for a diagnostic.
  var kindName: String {
    if self.is(ClassDeclSyntax.self) { return "a class" }
    if self.is(ActorDeclSyntax.self) { return "an actor" }
    if self.is(ProtocolDeclSyntax.self) { return "a protocol" }
    if self.is(ExtensionDeclSyntax.self) { return "an extension" }
    return "this declaration"
  }
}

extension AttributeListSyntax {
  /// Whether an attribute named `name` (or `Module.name`) is in the list.
  func contains(named name: String) -> Bool {
    contains { element in
      guard let attribute = element.as(AttributeSyntax.self) else { return false }
      let type = attribute.attributeName
      return type.as(IdentifierTypeSyntax.self)?.name.text == name
        || type.as(MemberTypeSyntax.self)?.name.text == name
    }
  }
}

extension VariableDeclSyntax {
  /// Whether this is a feature's computed `var body: some …` with no result builder written on
  /// it. The conformance `@Reducer` adds is in an extension, and Swift infers a requirement's
  /// result builder only where the conformance is declared with the witness; without the
  /// attribute, a body of several reducers (`BindingReducer()` then `Reduce { … }`) would not
  /// compile.
  var needsReducerBuilder: Bool {
    guard bindingSpecifier.tokenKind == .keyword(.var), bindings.count == 1,
      let binding = bindings.first,
      binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "body",
      binding.typeAnnotation?.type.is(SomeOrAnyTypeSyntax.self) == true,
      let accessors = binding.accessorBlock?.accessors
    else { return false }
    if case .accessors(let list) = accessors,
      !list.contains(where: { $0.accessorSpecifier.tokenKind == .keyword(.get) })
    {
      return false
    }
    return !attributes.contains(named: "ReducerBuilder")
  }
}

extension EnumCaseParameterSyntax {
  /// The value's label (`syncUp` in `case meeting(Meeting, syncUp: SyncUp)`), or nil.
  var label: String? {
    guard let firstName, firstName.tokenKind != .wildcard else { return nil }
    return firstName.text
  }
}

extension DeclModifierListSyntax {
  /// The declaration's access level, as a prefix for the members the macro writes ("public "),
  /// or "" for internal.
  var accessPrefix: String {
    for modifier in self {
      switch modifier.name.tokenKind {
      case .keyword(.public), .keyword(.package): return "\(modifier.name.text) "
      default: continue
      }
    }
    return ""
  }
}
