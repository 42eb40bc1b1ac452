#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "typed/big_uint.h"

namespace tjr::typed {

/// resource.Quantity's Format; kNone is the zero value's empty Format.
enum class QuantityFormat : std::uint8_t { kNone, kDecimalExponent, kBinarySI, kDecimalSI };

/// k8s.io/apimachinery resource.Quantity (v0.34.1): parsing, JSON decoding
/// and the text MarshalJSON/String produce, bit for bit.
///
/// The value is kept exactly as sign × magnitude × 10^exponent, which is what
/// both of Go's representations (int64Amount and inf.Dec) denote; only the
/// canonical text is ever derived from it. Like Go, a quantity parsed from
/// text that is already "canonical enough" keeps that text and prints it
/// back verbatim ("+1Ki", "01", "1.500" stay as written).
class Quantity {
 public:
  Quantity() = default;  ///< Go's zero Quantity: prints "0"

  /// resource.ParseQuantity. Errors carry Go's messages ("quantities must
  /// match the regular expression ...", "unable to parse numeric part of
  /// quantity", "unable to parse quantity's suffix"). Exponents where
  /// Go's int32 arithmetic wraps (beyond ±10^9 on its int64 path) or where
  /// its inf.Dec path would expand 10^exponent digits (beyond ±10^5, where
  /// kubectl 1.32 takes minutes) are reported as unsupported instead of
  /// guessed.
  static Result<Quantity> Parse(std::string_view text);

  /// Quantity.UnmarshalJSON given the JSON that encoding/json would write
  /// for `value`: strings lose surrounding Unicode spaces, numbers are
  /// parsed from their JSON text, null zeroes the amount but (as in Go)
  /// keeps the format and any kept text. On error the quantity is unchanged.
  Status UnmarshalJson(const doc::Node& value);

  /// Quantity.String() and the contents of MarshalJSON's string.
  std::string String() const;

  bool is_zero() const { return magnitude_.is_zero(); }
  bool negative() const { return negative_ && !magnitude_.is_zero(); }
  QuantityFormat format() const { return format_; }
  /// The text kept from parsing ("" when String() canonicalizes).
  const std::string& kept_text() const { return kept_text_; }
  /// Quantity.Cmp: -1, 0 or 1 as `a` is less than, equal to or greater
  /// than `b` by value (formats and kept text do not count).
  friend int Compare(const Quantity& a, const Quantity& b);

 private:
  std::string Canonical() const;
  std::string CanonicalBinary() const;

  bool negative_ = false;
  BigUint magnitude_;
  std::int64_t exponent_ = 0;  // value = ±magnitude × 10^exponent
  QuantityFormat format_ = QuantityFormat::kNone;
  std::string kept_text_;
};

int Compare(const Quantity& a, const Quantity& b);

/// The three parse errors' texts, as Go's errors.New gives them.
inline constexpr std::string_view kQuantityFormatWrong =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
inline constexpr std::string_view kQuantityNumeric = "unable to parse numeric part of quantity";
inline constexpr std::string_view kQuantitySuffix = "unable to parse quantity's suffix";

}  // namespace tjr::typed
