#if canImport(Combine)
  @_exported import Combine
#else
  @_exported import OpenCombine
#endif
