#if canImport(UIKit) && !os(watchOS)
  import UIKit

  // UIKit's view controllers and views bound what they observe of a store to their lifetime:
  // `observe(store) { controller, store in … }`. The logic is ``StoreObserving``'s.

  extension UIViewController: StoreObserving {}
  extension UIView: StoreObserving {}
#endif

#if canImport(AppKit) && !targetEnvironment(macCatalyst)
  import AppKit

  // The same for AppKit.

  extension NSViewController: StoreObserving {}
  extension NSView: StoreObserving {}
#endif
