#include "render/stored_field.h"

#include <string>

#include "typed/round_trip.h"

namespace tjr::render {

Result<doc::Node> StoredValue(const doc::Node& value, const schema::Type& type) {
  typed::UnmarshalOptions options;
  options.case_sensitive = true;
  return typed::TypedRoundTrip(value, type, options);
}

Result<doc::Node> StoredField(const doc::Node& value, const schema::Type& owner, std::string_view field) {
  const schema::Field* f = owner.FindField(field);
  if (f == nullptr || f->type == nullptr) {
    return MakeError(value.location(), "", "schema lacks field " + std::string(field) + " of " + owner.name);
  }
  return StoredValue(value, *f->type);
}

}  // namespace tjr::render
