// Owns what the session knows of the inspected store (InspectedFeature: how to reach its state,
// reduce a step again, replace its state), and the limits of the timeline it keeps.
import Foundation
import Statecraft

/// How the session reaches the inspected feature inside the store tree.
@MainActor
struct InspectedFeature<State, Action> {
  /// The feature's name, for the page's title.
  let name: String
  /// The root's state now; nil once the store is released.
  let currentRootState: () -> Any?
  /// The feature's state inside a root state.
  let featureState: (Any) -> State?
  /// The step's action as the feature sees it, with its origin for the feature, or nil when it
  /// isn't one of the feature's (an action of a parent feature outside the inspected one).
  let project: (ReducedStep) -> (action: Any, featureAction: Action?, origin: ActionOrigin)?
  /// The root state after the root's reducer runs a root action on it, without its effect.
  let reduce: (_ rootState: Any, _ rootAction: Any) -> Any?
  /// Puts the feature's part of the store tree into `state` (outside the reducer); false when
  /// it can't.
  let replaceState: (State) -> Bool
  /// Sends a feature action to the store.
  let send: (Action) -> Void
  /// The store tree's runtime, where the step observer goes.
  let runtime: StoreRuntime
}

/// How much of a session the timeline keeps.
struct TimelineLimits {
  /// The most steps kept; older ones are dropped a checkpoint at a time.
  var maximumSteps: Int
  /// A checkpoint (the root's state and its shared values) every this many steps, at first.
  var checkpointInterval: Int
  /// The most checkpoints kept: past it, every other one goes and the interval doubles.
  var maximumCheckpoints: Int
}
