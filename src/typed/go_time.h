#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/diagnostic.h"

namespace tjr::typed {

/// The instant a metav1.Time holds. Go's zero time.Time is
/// 0001-01-01T00:00:00Z, which metav1.Time marshals as null.
struct GoTime {
  static constexpr std::int64_t kZeroUnixSeconds = -62135596800;

  std::int64_t unix_seconds = kZeroUnixSeconds;
  std::int32_t nanos = 0;
  /// Set by a successful parse (Go then attaches time.Local); only
  /// reflect.Value.IsZero can tell, for omitzero on enclosing structs.
  bool has_location = false;

  /// time.Time.IsZero: the instant alone decides.
  bool IsZero() const { return unix_seconds == kZeroUnixSeconds && nanos == 0; }
};

/// time.Parse(time.RFC3339, text) with the error texts of Go's time package
/// ("parsing time \"x\" as \"2006-01-02T15:04:05Z07:00\": cannot parse ...").
/// Like Go it accepts fractional seconds (after '.' or ','), one-digit hours
/// and zone offsets up to 24:60, and rejects out-of-range fields.
Result<GoTime> ParseRfc3339(std::string_view text);

/// t.UTC().Format(time.RFC3339): "2006-01-02T15:04:05Z", fraction dropped.
std::string FormatRfc3339(const GoTime& time);

}  // namespace tjr::typed
