/// The case of an enum value, read from the Swift runtime: what tells two cases of an enum
/// child state apart (see `ChildIdentity` in ChildNamespaceComponent.swift), and whether a
/// destination's state and action are enums (PresentationReducer.swift).
///
/// NB: this reads the type's metadata the way swift-case-paths' `EnumMetadata` does (its
/// `CasePaths` product builds swift-syntax, which Statecraft's build graph must not contain):
/// the metadata kind is the first word of a value type's metadata, and the value witness table,
/// one word before the metadata, holds `getEnumTag` after its ten function pointers and two
/// 32-bit fields. The layout is the stable Swift ABI.
enum EnumTag {
  /// The case index of `value`, or nil when `Value` is not an enum.
  static func of<Value>(_ value: Value) -> UInt32? {
    let metadata = unsafeBitCast(Value.self as Any.Type, to: UnsafeRawPointer.self)
    let kind = metadata.load(as: UInt.self)
    // NB: 0x201 is an enum, 0x202 an optional (MetadataKind.def); class metadata starts with a
    // pointer, never one of these.
    guard kind == 0x201 || kind == 0x202 else { return nil }
    let witnesses = metadata.load(
      fromByteOffset: -MemoryLayout<UnsafeRawPointer>.size, as: UnsafeRawPointer.self)
    typealias GetEnumTag = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
    let getEnumTag = witnesses.load(
      fromByteOffset: 10 * MemoryLayout<UnsafeRawPointer>.size + 2 * 4, as: GetEnumTag.self)
    return withUnsafePointer(to: value) { getEnumTag(UnsafeRawPointer($0), metadata) }
  }
}
