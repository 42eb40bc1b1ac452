#include "render/typed_fields.h"

#include <string>
#include <utility>

#include "render/tree.h"
#include "typed/round_trip.h"

namespace tjr::render {

Result<doc::Node> TypedField(const doc::Node& value, const schema::Type& owner, std::string_view field) {
  const schema::Field* f = owner.FindField(field);
  if (f == nullptr || f->type == nullptr) {
    return MakeError(value.location(), "", "schema lacks field " + std::string(field) + " of " + owner.name);
  }
  return typed::TypedRoundTrip(value, *f->type);
}

Status CopyOmitEmpty(const doc::Node& from, std::string_view key, const schema::Type& owner, doc::Node* to) {
  const doc::Node* value = from.Find(key);
  if (value == nullptr || value->is_null()) return Ok();
  Result<doc::Node> typed_value = TypedField(*value, owner, key);
  if (!typed_value.ok()) return typed_value.take_error();
  if (IsEmptyCollection(&*typed_value)) return Ok();
  to->Set(std::string(key), *std::move(typed_value));
  return Ok();
}

Status CopyPointer(const doc::Node& from, std::string_view key, const schema::Type& owner, doc::Node* to) {
  const doc::Node* value = from.Find(key);
  if (value == nullptr || value->is_null()) return Ok();
  Result<doc::Node> typed_value = TypedField(*value, owner, key);
  if (!typed_value.ok()) return typed_value.take_error();
  to->Set(std::string(key), *std::move(typed_value));
  return Ok();
}

void CopyName(const doc::Node& from, doc::Node* to) {
  const doc::Node* name = from.Find("name");
  if (name != nullptr && name->is_string() && !name->string_value().empty()) to->Set("name", *name);
}

}  // namespace tjr::render
