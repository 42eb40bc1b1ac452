#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "typed/quantity.h"

namespace tjr::render {

/// A resource.Quantity as the arithmetic of apimachinery sees it: an exact
/// decimal value (digits × 10^exponent, with sign) and the Format that
/// decides how String() prints it. typed::Quantity does parsing and
/// printing; this adds the Add/Mul/Cmp/Value the Trainer plugins use.
class Amount {
 public:
  Amount() = default;  ///< Go's zero Quantity

  /// Decodes a JSON value as Quantity.UnmarshalJSON does.
  static Result<Amount> FromJson(const doc::Node& value);
  static Result<Amount> FromQuantity(const typed::Quantity& quantity);

  /// Quantity.Add: the value is summed; a zero receiver takes the addend's
  /// format (both operands on Go's int64 path, the common case).
  void Add(const Amount& other);
  /// Quantity.Mul by an integer; the format is kept.
  void Mul(std::int64_t factor);
  /// Quantity.Cmp: -1, 0, 1.
  int Cmp(const Amount& other) const;
  /// Quantity.Value(): the integer value, rounded away from zero.
  std::int64_t Value() const;
  bool is_zero() const { return digits_.empty(); }
  typed::QuantityFormat format() const { return format_; }

  /// Quantity.String() of a computed quantity (no cached text): the
  /// canonical form in this format.
  std::string String() const;

 private:
  bool negative_ = false;
  std::string digits_;  // decimal magnitude, no leading zeros; empty = 0
  std::int64_t exponent_ = 0;
  typed::QuantityFormat format_ = typed::QuantityFormat::kNone;
};

/// corev1.ResourceList as the plugins compute with it; std::map iterates in
/// the sorted key order json.Marshal writes.
using ResourceList = std::map<std::string, Amount, std::less<>>;

/// Decodes a JSON ResourceList (null or absent: empty).
Result<ResourceList> ResourceListFromJson(const doc::Node* value);

/// The JSON form (canonical strings, sorted keys).
doc::Node ResourceListToJson(const ResourceList& list);

}  // namespace tjr::render
