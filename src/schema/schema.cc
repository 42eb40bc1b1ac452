#include "schema/schema.h"

#include <string>

#include "gocompat/fold.h"

namespace tjr::schema {

const Field* Type::FindField(std::string_view json_name) const {
  for (const Field& field : fields) {
    if (field.json_name == json_name) return &field;
  }
  return nullptr;
}

const Field* Type::LookupPatchField(std::string_view key) const {
  return MatchJsonField(fields, key);
}

const Field* MatchJsonField(const std::vector<Field>& fields, std::string_view key) {
  // Keys nearly always match exactly; fold only when none does.
  for (const Field& field : fields) {
    if (field.json_name == key) return &field;
  }
  for (const Field& field : fields) {
    if (gocompat::JsonNameEqualFold(field.json_name, key)) return &field;
  }
  return nullptr;
}

const Type* Schema::FindType(std::string_view name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

const Type* Schema::ForKind(std::string_view api_version, std::string_view kind) const {
  std::string key;
  key.reserve(api_version.size() + 1 + kind.size());
  key.append(api_version).append("/").append(kind);
  auto it = by_kind_.find(key);
  return it == by_kind_.end() ? nullptr : it->second;
}

}  // namespace tjr::schema
