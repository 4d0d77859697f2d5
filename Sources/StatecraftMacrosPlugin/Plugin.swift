// The compiler plugin of the StatecraftMacros product: the macros TCA's features are written
// with, expanded to Statecraft's plain spellings. Only StatecraftMacros depends on it, so the core
// products never build swift-syntax.
import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct StatecraftMacrosPlugin: CompilerPlugin {
  let providingMacros: [any Macro.Type] = [
    ReducerMacro.self,
    MarkerMacro.self,
    ViewActionMacro.self,
  ]
}
