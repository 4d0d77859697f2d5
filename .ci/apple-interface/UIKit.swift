// NOT UIKit. A stand-in interface that lets Linux type-check Statecraft's Apple glue
// (Sources/Statecraft/Apple/): it declares only the UIKit classes and members the glue uses,
// with the signatures and isolation Apple documents, and bodies that do nothing. Nothing here
// runs; `.ci/check-apple-glue` compiles the glue against it. Keep it small.

@MainActor @preconcurrency
open class UIResponder {
  public nonisolated init() {}
}

@MainActor @preconcurrency
open class UIView: UIResponder {}

@MainActor @preconcurrency
open class UIViewController: UIResponder {
  open var presentedViewController: UIViewController? { nil }

  open func present(
    _ viewControllerToPresent: UIViewController, animated flag: Bool,
    completion: (() -> Void)? = nil
  ) {}

  open func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) {}
}
