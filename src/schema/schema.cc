#include "schema/schema.h"

#include <string>

namespace tjr::schema {
namespace {

bool IsAsciiLetter(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// encoding/json's case folding of a struct field name against a JSON key
// (the field cache's equalFold functions in apimachinery's fork). Field
// names are ASCII (the loader enforces it); a key may still match through
// the two non-ASCII runes that fold to ASCII letters: U+017F (long s) to
// 's' and U+212A (Kelvin sign) to 'k'.
bool FoldEqual(std::string_view name, std::string_view key) {
  constexpr std::string_view kLongS = "\xC5\xBF";
  constexpr std::string_view kKelvin = "\xE2\x84\xAA";
  std::size_t j = 0;
  for (const char name_char : name) {
    const auto sb = static_cast<unsigned char>(name_char);
    if (j >= key.size()) return false;
    const auto tb = static_cast<unsigned char>(key[j]);
    if (tb < 0x80) {
      if (sb != tb && !(IsAsciiLetter(sb) && (sb & 0xDF) == (tb & 0xDF))) return false;
      ++j;
      continue;
    }
    const unsigned char lower = sb | 0x20;
    if (lower == 's' && key.substr(j, kLongS.size()) == kLongS) {
      j += kLongS.size();
    } else if (lower == 'k' && key.substr(j, kKelvin.size()) == kKelvin) {
      j += kKelvin.size();
    } else {
      return false;
    }
  }
  return j == key.size();
}

}  // namespace

const Field* Type::FindField(std::string_view json_name) const {
  for (const Field& field : fields) {
    if (field.json_name == json_name) return &field;
  }
  return nullptr;
}

const Field* Type::LookupPatchField(std::string_view key) const {
  const Field* folded = nullptr;
  for (const Field& field : fields) {
    if (field.json_name == key) return &field;
    if (folded == nullptr && FoldEqual(field.json_name, key)) folded = &field;
  }
  return folded;
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
