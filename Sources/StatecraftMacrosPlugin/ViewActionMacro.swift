// Owns `@ViewAction(for:)`: on a view that holds a `store`, the `ViewActionSending` conformance,
// whose `send(_:)` wraps the view's actions in the store action's `view` case.
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@ViewAction(for: Feature.self)` on a view.
public enum ViewActionMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard declaration.declaresStore else {
      context.diagnose(
        Diagnostic(
          node: node,
          message: ViewActionDiagnostic.missingStore(declaration.typeName ?? "this type")))
      return []
    }
    guard !declaration.inherits("ViewActionSending") else { return [] }
    return [try ExtensionDeclSyntax("extension \(type.trimmed): Statecraft.ViewActionSending {}")]
  }
}

/// What `@ViewAction(for:)` can't expand, said where it is written.
enum ViewActionDiagnostic: DiagnosticMessage {
  case missingStore(String)

  var message: String {
    switch self {
    case .missingStore(let name):
      return """
        '@ViewAction' sends through a 'store', and '\(name)' has none: add \
        'let store: StoreOf<Feature>'
        """
    }
  }

  var diagnosticID: MessageID {
    MessageID(domain: "StatecraftMacros", id: "viewActionMissingStore")
  }

  var severity: DiagnosticSeverity { .error }
}

extension DeclGroupSyntax {
  /// Whether the type declares a stored or computed property named `store`.
  var declaresStore: Bool {
    memberBlock.members.contains { member in
      member.decl.as(VariableDeclSyntax.self)?.bindings.contains { binding in
        binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "store"
      } ?? false
    }
  }

  /// The type's name, where it has one.
  var typeName: String? {
    if let decl = self.as(StructDeclSyntax.self) { return decl.name.text }
    if let decl = self.as(ClassDeclSyntax.self) { return decl.name.text }
    if let decl = self.as(EnumDeclSyntax.self) { return decl.name.text }
    return nil
  }
}
