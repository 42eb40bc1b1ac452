#include "smp/directives.h"

namespace tjr::smp {

PatchDirective ParsePatchDirective(const doc::Node& value) {
  if (!value.is_string()) return PatchDirective::kUnknown;
  const std::string& text = value.string_value();
  if (text == kReplaceDirective) return PatchDirective::kReplace;
  if (text == kDeleteDirective) return PatchDirective::kDelete;
  if (text == kMergeDirective) return PatchDirective::kMerge;
  return PatchDirective::kUnknown;
}

bool HasPatchDirective(const doc::Node& value) {
  return value.is_mapping() && value.Find(kPatchDirectiveKey) != nullptr;
}

bool IsDeleteElement(const doc::Node& value) {
  const doc::Node* directive = value.is_mapping() ? value.Find(kPatchDirectiveKey) : nullptr;
  return directive != nullptr && ParsePatchDirective(*directive) == PatchDirective::kDelete;
}

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

Outcome<std::string> ExtractDirectiveKey(std::string_view key, std::string_view prefix) {
  const std::size_t slash = key.find('/');
  if (slash == std::string_view::npos || key.substr(0, slash) != prefix) {
    if (prefix == kDeleteFromPrimitiveListPrefix) {
      return Outcome<std::string>::Fail("invalid patch format of primitive list");
    }
    if (prefix == kSetElementOrderPrefix) {
      return Outcome<std::string>::Fail("invalid patch format of setElementOrder list");
    }
    return Outcome<std::string>::Fail("fail to find unknown prefix \"" + std::string(prefix) +
                                      "\" in " + std::string(key) + "\n");
  }
  return std::string(key.substr(slash + 1));
}

std::optional<doc::Node> RemoveDirectives(const doc::Node& value) {
  if (value.is_mapping()) {
    if (value.Find(kPatchDirectiveKey) != nullptr) return std::nullopt;
    doc::Node out = value;
    bool changed = false;
    std::vector<doc::Field> kept;
    kept.reserve(value.size());
    for (const doc::Field& field : value.fields()) {
      std::optional<doc::Node> inner = RemoveDirectives(field.value);
      if (!inner) {
        changed = true;
        continue;
      }
      if (!inner->SharesRepresentationWith(field.value)) changed = true;
      kept.push_back(doc::Field{field.key, std::move(*inner), field.key_location});
    }
    if (!changed) return value;
    out.mutable_fields() = std::move(kept);
    return out;
  }
  if (value.is_sequence()) {
    bool changed = false;
    std::vector<doc::Node> kept;
    kept.reserve(value.size());
    for (const doc::Node& item : value.items()) {
      std::optional<doc::Node> inner = RemoveDirectives(item);
      if (!inner) {
        changed = true;
        continue;
      }
      if (!inner->SharesRepresentationWith(item)) changed = true;
      kept.push_back(std::move(*inner));
    }
    if (!changed) return value;
    doc::Node out = value;
    out.mutable_items() = std::move(kept);
    return out;
  }
  return value;
}

doc::Node DiscardNullValues(const doc::Node& value) {
  if (value.is_mapping()) {
    bool changed = false;
    std::vector<doc::Field> kept;
    kept.reserve(value.size());
    for (const doc::Field& field : value.fields()) {
      if (field.value.is_null()) {
        changed = true;
        continue;
      }
      doc::Node inner = DiscardNullValues(field.value);
      if (!inner.SharesRepresentationWith(field.value)) changed = true;
      kept.push_back(doc::Field{field.key, std::move(inner), field.key_location});
    }
    if (!changed) return value;
    doc::Node out = value;
    out.mutable_fields() = std::move(kept);
    return out;
  }
  if (value.is_sequence()) {
    bool changed = false;
    std::vector<doc::Node> items;
    items.reserve(value.size());
    for (const doc::Node& item : value.items()) {
      items.push_back(DiscardNullValues(item));
      if (!items.back().SharesRepresentationWith(item)) changed = true;
    }
    if (!changed) return value;
    doc::Node out = value;
    out.mutable_items() = std::move(items);
    return out;
  }
  return value;
}

Outcome<std::string> NonRetainKeysStrategy(const std::vector<std::string>& strategies) {
  const auto unexpected = [&] {
    std::string text = "unexpected patch strategy: [";
    for (std::size_t i = 0; i < strategies.size(); ++i) {
      if (i > 0) text += ' ';
      text += strategies[i];
    }
    return Outcome<std::string>::Fail(text + "]");
  };
  switch (strategies.size()) {
    case 0: return std::string();
    case 1: return strategies[0] == kRetainKeysStrategy ? std::string() : strategies[0];
    case 2:
      if (strategies[0] == kRetainKeysStrategy) return strategies[1];
      if (strategies[1] == kRetainKeysStrategy) return strategies[0];
      return unexpected();
    default: return unexpected();
  }
}

}  // namespace tjr::smp
