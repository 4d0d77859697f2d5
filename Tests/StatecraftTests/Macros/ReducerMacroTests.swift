import MacroTesting
import StatecraftMacrosPlugin
import Testing

extension Engine {
  /// `@Reducer` and the accepted-and-harmless macros, expanded from TCA-style sources.
  @Suite(
    .macros(
      [
        "Reducer": ReducerMacro.self,
        "ObservableState": MarkerMacro.self,
        "ReducerCaseIgnored": MarkerMacro.self,
        "ReducerCaseEphemeral": MarkerMacro.self,
        "ViewAction": ViewActionMacro.self,
      ],
      record: .missing))
  struct ReducerMacroTests {
    @Test func aStructBecomesAReducerAndItsActionCasePathable() {
      assertMacro {
        """
        @Reducer
        struct Counter {
          @ObservableState
          struct State: Equatable {
            var count = 0
          }
          enum Action {
            case increment
          }
          var body: some ReducerOf<Self> {
            Reduce { state, _ in
              state.count += 1
              return .none
            }
          }
        }
        """
      } expansion: {
        """
        struct Counter {
          struct State: Equatable {
            var count = 0
          }
          @CasePaths.CasePathable
          enum Action {
            case increment
          }
          @Statecraft.ReducerBuilder<Self.State, Self.Action>
          var body: some ReducerOf<Self> {
            Reduce { state, _ in
              state.count += 1
              return .none
            }
          }
        }

        extension Counter: Statecraft.Reducer {
        }
        """
      }
    }

    @Test func aStructThatIsAlreadyAReducerWithAnEnumStateGetsCasePaths() {
      assertMacro {
        """
        @Reducer
        public struct Router: Reducer {
          public enum State {
            case home
            case settings(Int)
          }
          @CasePathable
          public enum Action {
            case go
          }
        }
        """
      } expansion: {
        """
        public struct Router: Reducer {
          @CasePaths.CasePathable @dynamicMemberLookup
          public enum State {
            case home
            case settings(Int)
          }
          @CasePathable
          public enum Action {
            case go
          }
        }
        """
      }
    }

    @Test func anEnumOfReducersAndValuesBecomesACaseReducer() {
      assertMacro {
        """
        @Reducer
        enum Destination {
          case add(SyncUpForm)
          case alert(AlertState<Alert>)
          case dialog(ConfirmationDialogState<Dialog>)
          @ReducerCaseIgnored
          case note(String)
          case meeting(Meeting, syncUp: SyncUp)
          case empty
          case detail(Detail = Detail(isEditable: false))
          case nested(Feature.Child)
        }
        """
      } expansion: {
        #"""
        enum Destination {
          case add(SyncUpForm)
          case alert(AlertState<Alert>)
          case dialog(ConfirmationDialogState<Dialog>)
          case note(String)
          case meeting(Meeting, syncUp: SyncUp)
          case empty
          case detail(Detail = Detail(isEditable: false))
          case nested(Feature.Child)

          @CasePaths.CasePathable
          @dynamicMemberLookup
          enum State: Statecraft.CaseReducerState {
            typealias StateReducer = Destination
            case add(SyncUpForm.State)
            case alert(AlertState<Alert>)
            case dialog(ConfirmationDialogState<Dialog>)
            case note(String)
            case meeting(Meeting, syncUp: SyncUp)
            case empty
            case detail(Detail.State)
            case nested(Feature.Child.State)
          }

          @CasePaths.CasePathable
          enum Action {
            case add(SyncUpForm.Action)
            case alert(Alert)
            case dialog(Dialog)
            case note(Swift.Never)
            case meeting(Swift.Never)
            case empty(Swift.Never)
            case detail(Detail.Action)
            case nested(Feature.Child.Action)
          }

          static var body: Statecraft.Reduce<Self.State, Self.Action> {
            return Statecraft.Reduce(
              Statecraft.CombineReducers {
                Statecraft.Scope(state: \.add, action: \.add) {
                  SyncUpForm()
                }
                Statecraft.Scope(state: \.detail, action: \.detail) {
                  Detail(isEditable: false)
                }
                Statecraft.Scope(state: \.nested, action: \.nested) {
                  Feature.Child()
                }
              }
            )
          }

          enum CaseScope {
            case add(Statecraft.StoreOf<SyncUpForm>)
            case alert(AlertState<Alert>)
            case dialog(ConfirmationDialogState<Dialog>)
            case note(String)
            case meeting(Meeting, syncUp: SyncUp)
            case empty
            case detail(Statecraft.StoreOf<Detail>)
            case nested(Statecraft.StoreOf<Feature.Child>)
          }

          @MainActor
          static func scope(_ store: Statecraft.Store<Self.State, Self.Action>) -> CaseScope {
            if let child = store.scope(state: \.add, action: \.add) {
              return .add(child)
            }
            if let value = store.scope(state: \.alert).state {
              return .alert(value)
            }
            if let value = store.scope(state: \.dialog).state {
              return .dialog(value)
            }
            if let value = store.scope(state: \.note).state {
              return .note(value)
            }
            if let value = store.scope(state: \.meeting).state {
              return .meeting(value.0, syncUp: value.1)
            }
            if store.scope(state: \.empty).state != nil {
              return .empty
            }
            if let child = store.scope(state: \.detail, action: \.detail) {
              return .detail(child)
            }
            if let child = store.scope(state: \.nested, action: \.nested) {
              return .nested(child)
            }
            fatalError("no case of \(Self.State.self) is present in the store's state")
          }
        }

        extension Destination: Statecraft.CaseReducer, Statecraft.Reducer, Statecraft.CaseScopable {
        }
        """#
      }
    }

    @Test func aPublicEnumWithOnlyValuesRunsNoReducer() {
      assertMacro {
        """
        @Reducer
        public enum Path {
          @ReducerCaseEphemeral
          case toast(Toast)
          @ReducerCaseIgnored
          case about(String)
        }
        """
      } expansion: {
        #"""
        public enum Path {
          case toast(Toast)
          case about(String)

          @CasePaths.CasePathable
          @dynamicMemberLookup
          public enum State: Statecraft.CaseReducerState {
            public typealias StateReducer = Path
            case toast(Toast)
            case about(String)
          }

          @CasePaths.CasePathable
          public enum Action {
            case toast(Toast.Action)
            case about(Swift.Never)
          }

          public static var body: Statecraft.EmptyReducer<Self.State, Self.Action> {
            return Statecraft.EmptyReducer()
          }

          public enum CaseScope {
            case toast(Toast)
            case about(String)
          }

          @MainActor
          public static func scope(_ store: Statecraft.Store<Self.State, Self.Action>) -> CaseScope {
            if let value = store.scope(state: \.toast).state {
              return .toast(value)
            }
            if let value = store.scope(state: \.about).state {
              return .about(value)
            }
            fatalError("no case of \(Self.State.self) is present in the store's state")
          }
        }

        extension Path: Statecraft.CaseReducer, Statecraft.Reducer, Statecraft.CaseScopable {
        }
        """#
      }
    }

    @Test func aClassIsNotAReducer() {
      assertMacro {
        """
        @Reducer
        class Feature {
          struct State {}
          enum Action {}
        }
        """
      } diagnostics: {
        """
        @Reducer
        ┬───────
        ╰─ 🛑 '@Reducer' applies to a struct (a feature) or an enum (a destination or a path), not to a class: a reducer is a value, so that a store can copy and scope it
        class Feature {
          struct State {}
          enum Action {}
        }
        """
      }
    }

    @Test func aStructWithoutStateIsNotAReducer() {
      assertMacro {
        """
        @Reducer
        struct Feature {
          enum Action {}
          var body: some ReducerOf<Self> { EmptyReducer() }
        }
        """
      } diagnostics: {
        """
        @Reducer
        struct Feature {
               ┬──────
               ╰─ 🛑 '@Reducer' struct 'Feature' declares no 'State': add 'struct State' (or an enum, or 'typealias State = …') inside it
          enum Action {}
          var body: some ReducerOf<Self> { EmptyReducer() }
        }
        """
      }
    }

    @Test func anEphemeralCaseHoldsOneValue() {
      assertMacro {
        """
        @Reducer
        enum Destination {
          @ReducerCaseEphemeral
          case toast(Toast, Int)
          @ReducerCaseEphemeral
          case banner
        }
        """
      } diagnostics: {
        """
        @Reducer
        enum Destination {
          @ReducerCaseEphemeral
          case toast(Toast, Int)
               ┬────────────────
               ╰─ 🛑 '@ReducerCaseEphemeral' case 'toast' holds 2 values: an ephemeral case holds one, such as 'AlertState<Alert>'; put the others in its state
          @ReducerCaseEphemeral
          case banner
               ┬─────
               ╰─ 🛑 '@ReducerCaseEphemeral' case 'banner' holds no value: an ephemeral case holds its state, such as 'AlertState<Alert>'
        }
        """
      }
    }

    @Test func anEnumsSynthesizedConformancesGoOnTheStateAndActionItWrites() {
      assertMacro {
        """
        @Reducer(state: .equatable, .sendable, action: .equatable)
        enum Destination {
          case edit(SyncUpForm)
        }
        """
      } expansion: {
        #"""
        enum Destination {
          case edit(SyncUpForm)

          @CasePaths.CasePathable
          @dynamicMemberLookup
          enum State: Statecraft.CaseReducerState, Equatable, Sendable {
            typealias StateReducer = Destination
            case edit(SyncUpForm.State)
          }

          @CasePaths.CasePathable
          enum Action: Equatable {
            case edit(SyncUpForm.Action)
          }

          static var body: Statecraft.Reduce<Self.State, Self.Action> {
            return Statecraft.Reduce(
              Statecraft.CombineReducers {
                Statecraft.Scope(state: \.edit, action: \.edit) {
                  SyncUpForm()
                }
              }
            )
          }

          enum CaseScope {
            case edit(Statecraft.StoreOf<SyncUpForm>)
          }

          @MainActor
          static func scope(_ store: Statecraft.Store<Self.State, Self.Action>) -> CaseScope {
            if let child = store.scope(state: \.edit, action: \.edit) {
              return .edit(child)
            }
            fatalError("no case of \(Self.State.self) is present in the store's state")
          }
        }

        extension Destination: Statecraft.CaseReducer, Statecraft.Reducer, Statecraft.CaseScopable {
        }
        """#
      }
    }

    @Test func aStructTakesNoArguments() {
      assertMacro {
        """
        @Reducer(state: .equatable)
        struct Feature {
          struct State {}
          enum Action {}
        }
        """
      } diagnostics: {
        """
        @Reducer(state: .equatable)
                 ┬────────────────
                 ╰─ 🛑 '@Reducer' takes arguments only on an enum, whose 'State' and 'Action' it writes; on a struct, write the conformances on its own 'State' and 'Action'
        struct Feature {
          struct State {}
          enum Action {}
        }
        """
      }
    }

    @Test func aViewWithAStoreSendsItsViewActions() {
      assertMacro {
        """
        @ViewAction(for: Feed.self)
        struct FeedView: View {
          let store: StoreOf<Feed>
          var body: some View { EmptyView() }
        }
        """
      } expansion: {
        """
        struct FeedView: View {
          let store: StoreOf<Feed>
          var body: some View { EmptyView() }
        }

        extension FeedView: Statecraft.ViewActionSending {
        }
        """
      }
    }

    @Test func aViewWithoutAStoreCannotSendViewActions() {
      assertMacro {
        """
        @ViewAction(for: Feed.self)
        struct FeedView {
          let model: StoreOf<Feed>
        }
        """
      } diagnostics: {
        """
        @ViewAction(for: Feed.self)
        ┬──────────────────────────
        ╰─ 🛑 '@ViewAction' sends through a 'store', and 'FeedView' has none: add 'let store: StoreOf<Feature>'
        struct FeedView {
          let model: StoreOf<Feed>
        }
        """
      }
    }
  }
}
