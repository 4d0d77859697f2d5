// Owns the macros that are accepted and expand to nothing: `@ObservableState` (a store already
// observes each key path a view reads, so a state needs no registrar), its
// `@ObservationStateIgnored` and `@ObservationStateTracked`, and the case markers
// `@ReducerCaseIgnored` and `@ReducerCaseEphemeral`, which `@Reducer` reads on an enum's cases.
import SwiftSyntax
import SwiftSyntaxMacros

/// A macro that adds nothing: what it marks is read by another macro, or needs nothing here.
public enum MarkerMacro: MemberMacro, PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    []
  }

  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    []
  }
}
