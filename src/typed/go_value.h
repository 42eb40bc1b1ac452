#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "base/location.h"
#include "doc/node.h"
#include "typed/go_time.h"
#include "typed/quantity.h"

namespace tjr::typed {

struct GoValue;

/// A struct: the fields decoded into, by schema field index in ascending
/// order; every other field holds its zero value. Structs set few of their
/// fields (a Volume one of some thirty sources), so only those are stored.
//
// GoStruct, GoSlice and GoMap hold GoValues, which are incomplete here: their
// special members are declared here and defaulted after GoValue (move-only,
// as GoPointer makes GoValue), so no
// compiler instantiates a container's destructor of an incomplete type
// (clang does, for C++20's constexpr std::vector, inside GoValue's variant).
struct GoStruct {
  std::vector<std::pair<std::size_t, GoValue>> set;

  GoStruct();
  GoStruct(GoStruct&&) noexcept;
  GoStruct& operator=(GoStruct&&) noexcept;
  ~GoStruct();

  /// The value of field `index`, added as the zero value if absent. The
  /// reference is good until the next call.
  inline GoValue& Field(std::size_t index);
};

struct GoSlice {
  bool nil = true;
  std::vector<GoValue> items;

  GoSlice();
  GoSlice(GoSlice&&) noexcept;
  GoSlice& operator=(GoSlice&&) noexcept;
  ~GoSlice();
};

/// A map with string keys, kept sorted by key (the order json.Marshal writes).
struct GoMap {
  bool nil = true;
  std::vector<std::pair<std::string, GoValue>> entries;

  GoMap();
  GoMap(GoMap&&) noexcept;
  GoMap& operator=(GoMap&&) noexcept;
  ~GoMap();
};

/// A pointer-typed struct field (`*T`); a null target is a nil pointer.
struct GoPointer {
  std::unique_ptr<GoValue> target;
};

/// intstr.IntOrString.
struct GoIntOrString {
  bool is_string = false;
  std::int32_t int_value = 0;
  std::string string_value;
};

/// metav1.FieldsV1: its Raw JSON, or nothing while Raw is nil.
struct GoRawJson {
  std::optional<doc::Node> raw;
};

/// An interface{} value: the tree encoding/json builds for it (numbers are
/// float64); null is the nil interface.
struct GoInterface {
  doc::Node value;
};

/// A value whose encoding is known to be `node` exactly: a struct, slice or
/// map that an earlier round trip of the same type wrote and that reached
/// the value being decoded unchanged (see Unmarshal's `typed_base`), so it
/// is neither decoded nor encoded again.
struct GoVerbatim {
  doc::Node node;
};

/// A Go value of some schema type, as json.Unmarshal leaves it. The type is
/// not stored: the schema drives every operation. std::monostate is the
/// type's zero value, so untouched parts of a large struct cost nothing.
struct GoValue {
  using Variant = std::variant<std::monostate, bool, std::int64_t, std::uint64_t, double,
                               std::string, GoStruct, GoSlice, GoMap, GoPointer, Quantity,
                               GoIntOrString, GoTime, GoRawJson, GoInterface, GoVerbatim>;
  Variant value;
  /// Where the JSON this value was decoded from was read, for the output.
  Location at;

  bool is_zero_value() const { return std::holds_alternative<std::monostate>(value); }

  /// The alternative T, first replacing any other alternative (the zero
  /// value included) with a default-constructed T.
  template <class T>
  T& As() {
    if (!std::holds_alternative<T>(value)) value.template emplace<T>();
    return std::get<T>(value);
  }
};

#define TJR_GO_CONTAINER_MEMBERS(T)                           \
  inline T::T() = default;                                    \
  inline T::T(T&&) noexcept = default;                        \
  inline T& T::operator=(T&&) noexcept = default;             \
  inline T::~T() = default;
TJR_GO_CONTAINER_MEMBERS(GoStruct)
TJR_GO_CONTAINER_MEMBERS(GoSlice)
TJR_GO_CONTAINER_MEMBERS(GoMap)
#undef TJR_GO_CONTAINER_MEMBERS

inline GoValue& GoStruct::Field(std::size_t index) {
  auto it = set.begin();
  while (it != set.end() && it->first < index) ++it;  // a handful of entries
  if (it == set.end() || it->first != index) it = set.emplace(it, index, GoValue());
  return it->second;
}

}  // namespace tjr::typed
