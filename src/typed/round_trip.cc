#include "typed/round_trip.h"

#include "typed/go_value.h"
#include "typed/marshal.h"
#include "typed/unmarshal.h"

namespace tjr::typed {

Result<doc::Node> TypedRoundTrip(const doc::Node& value, const schema::Type& type) {
  GoValue decoded;
  if (std::optional<Diagnostic> error = Unmarshal(value, type, &decoded)) return *std::move(error);
  return Marshal(decoded, type);
}

Result<doc::Node> TypedRoundTrip(const doc::Node& value, const schema::Type& type, const UnmarshalOptions& options) {
  GoValue decoded;
  if (std::optional<Diagnostic> error = Unmarshal(value, type, options, &decoded)) return *std::move(error);
  return Marshal(decoded, type);
}

Result<doc::Node> TypedRoundTrip(const doc::Node& value, const schema::Type& type,
                                 const doc::Node& typed_base) {
  GoValue decoded;
  if (std::optional<Diagnostic> error = Unmarshal(value, type, typed_base, &decoded)) {
    return *std::move(error);
  }
  return Marshal(decoded, type);
}

}  // namespace tjr::typed
