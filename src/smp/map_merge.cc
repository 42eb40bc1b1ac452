// mergeMap and applyRetainKeysDirective of apimachinery strategicpatch.
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "smp/directives.h"
#include "smp/go_value.h"
#include "smp/merge_internal.h"
#include "smp/upstream_errors.h"

namespace tjr::smp {
namespace {

// Go ranges over the patch map in random order. Keys are processed in
// sorted order instead, which is one of the orders Go may pick. The order
// matters only for which error is reported first, and for a patch holding
// both `KEY` and `$deleteFromPrimitiveList/KEY` with overlapping values
// (the deletion list, sorting first, is applied first; kubectl gives
// either result for such a patch from run to run).
std::vector<std::string> SortedKeys(const doc::Node& map) {
  std::vector<std::string> keys;
  keys.reserve(map.size());
  for (const doc::Field& field : map.fields()) keys.push_back(field.key);
  std::sort(keys.begin(), keys.end());
  return keys;
}

// Where each key first appears in the patch (also as the target of a
// directive key), for listing new keys in patch order; read once, since a
// sort asks for N log N ranks (a patch of N new keys cost N² log N).
class PatchRanks {
 public:
  explicit PatchRanks(const doc::Node& patch) : size_(patch.size()) {
    const std::vector<doc::Field>& fields = patch.fields();
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const std::string& key = fields[i].key;
      own_.emplace(key, i);
      const std::size_t slash = key.find('/');
      if (!key.empty() && key[0] == '$' && slash != std::string::npos) {
        directed_.emplace(std::string_view(key).substr(slash + 1), i);
      }
    }
  }

  std::size_t Of(std::string_view key) const {
    if (auto own = own_.find(key); own != own_.end()) return own->second;
    if (auto directed = directed_.find(key); directed != directed_.end()) return directed->second;
    return size_;
  }

 private:
  std::size_t size_;
  std::unordered_map<std::string_view, std::size_t> own_, directed_;  // views into the patch's keys
};

// Go maps have no order. The result keeps the original's keys in their
// order, followed by new keys in the order the patch lists them.
void OrderNewKeys(doc::Node& result, const doc::Node& original, const doc::Node& patch) {
  const std::vector<doc::Field>& fields = result.fields();
  std::size_t first_new = 0;
  while (first_new < fields.size() && original.Find(fields[first_new].key) != nullptr) {
    ++first_new;
  }
  if (fields.size() - first_new < 2) return;
  const PatchRanks ranks(patch);
  std::vector<std::pair<std::size_t, doc::Field>> ranked;
  ranked.reserve(fields.size() - first_new);
  std::vector<doc::Field>& mutable_fields = result.mutable_fields();
  for (std::size_t i = first_new; i < mutable_fields.size(); ++i) {
    ranked.emplace_back(ranks.Of(mutable_fields[i].key), std::move(mutable_fields[i]));
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 0; i < ranked.size(); ++i) mutable_fields[first_new + i] = std::move(ranked[i].second);
}

// handleDirectiveInMergeMap: `$patch: replace` keeps the rest of the patch
// verbatim (nested directives and nulls included), `$patch: delete` leaves
// an empty map.
Result<doc::Node> HandleDirective(const doc::Node& directive, const doc::Node& patch,
                                  const FieldPath& path) {
  switch (ParsePatchDirective(directive)) {
    case PatchDirective::kReplace: {
      doc::Node out = patch;
      out.Erase(kPatchDirectiveKey);
      return out;
    }
    case PatchDirective::kDelete: return doc::Node::Mapping(patch.location());
    // Upstream accepts only replace and delete in a map, even "merge".
    case PatchDirective::kMerge:
    case PatchDirective::kUnknown: break;
  }
  return MergeError(directive, path.Field(kPatchDirectiveKey), ErrBadPatchType(directive, patch));
}

// The value stored when the original has no (comparable) value for a key.
std::optional<doc::Node> NewValue(const doc::Node& patch_value) {
  return RemoveDirectives(DiscardNullValues(patch_value));
}

}  // namespace

Diagnostic MergeError(const doc::Node& at, const FieldPath& path, std::string message) {
  return MakeError(at.location(), path.Upstream(), std::move(message));
}

Status ApplyRetainKeysDirective(doc::Node& original, doc::Node& patch, const FieldPath& path) {
  const doc::Node* found = patch.Find(kRetainKeysDirective);
  if (found == nullptr) return Ok();
  const doc::Node retain = *found;
  patch.Erase(kRetainKeysDirective);
  const FieldPath here = path.Field(kRetainKeysDirective);
  if (!retain.is_sequence()) {
    return MergeError(retain, here, std::string(kErrBadPatchFormatForRetainKeys));
  }
  for (const doc::Node& item : retain.items()) {
    if (!GoHashable(&item)) return MergeError(item, here, ErrUpstreamPanic(GoHashPanic(&item)));
  }
  const auto retained = [&](std::string_view key) {
    for (const doc::Node& item : retain.items()) {
      if (item.is_string() && item.string_value() == key) return true;
    }
    return false;
  };
  for (const doc::Field& field : patch.fields()) {
    if (field.value.is_null() || StartsWith(field.key, kDeleteFromPrimitiveListPrefix) ||
        StartsWith(field.key, kSetElementOrderPrefix)) {
      continue;
    }
    if (!retained(field.key)) {
      return MergeError(retain, here, std::string(kErrBadPatchFormatForRetainKeys));
    }
  }
  if (!original.is_mapping()) return Ok();
  std::vector<std::string> dropped;
  for (const doc::Field& field : original.fields()) {
    if (!retained(field.key)) dropped.push_back(field.key);
  }
  for (const std::string& key : dropped) original.Erase(key);
  return Ok();
}

Result<doc::Node> MergeMap(const doc::Node& original_in, const doc::Node& patch_in,
                           const TypeRef& schema, const FieldPath& path) {
  if (const doc::Node* directive = patch_in.Find(kPatchDirectiveKey)) {
    return HandleDirective(*directive, patch_in, path);
  }
  doc::Node original =
      original_in.is_mapping() ? original_in : doc::Node::Mapping(original_in.location());
  doc::Node patch = patch_in;
  if (Status retained = ApplyRetainKeysDirective(original, patch, path); !retained) {
    return retained.take_error();
  }
  if (Status ordered = MergePatchIntoOriginal(original, patch, schema, path); !ordered) {
    return ordered.take_error();
  }

  for (const std::string& patch_key : SortedKeys(patch)) {
    const doc::Field& field = *std::find_if(
        patch.fields().begin(), patch.fields().end(),
        [&](const doc::Field& f) { return f.key == patch_key; });
    const doc::Node& patch_value = field.value;
    // Built only for an error or a merge one level down: most keys are
    // scalars or new, and a path costs an allocation per step.
    auto here = [&path, &patch_key] { return path.Field(patch_key); };

    std::string key = patch_key;
    bool is_delete_list = false;
    if (StartsWith(patch_key, kDeleteFromPrimitiveListPrefix)) {
      Outcome<std::string> target = ExtractDirectiveKey(patch_key, kDeleteFromPrimitiveListPrefix);
      if (!target.ok()) return MergeError(patch_value, here(), target.error());
      is_delete_list = true;
      if (!target.value().empty()) key = target.value();
    }

    if (patch_value.is_null()) {
      original.Erase(key);
      continue;
    }
    const doc::Node* current = original.Find(key);
    if (current == nullptr || GoTypeOf(*current) != GoTypeOf(patch_value)) {
      if (!is_delete_list) {
        if (std::optional<doc::Node> value = NewValue(patch_value)) {
          original.Set(key, std::move(*value), field.key_location);
        } else {
          original.Erase(key);
        }
      }
      continue;
    }

    switch (GoTypeOf(*current)) {
      case GoType::kMap: {
        LookupResult lookup = LookupPatchMetadataForStruct(schema, key);
        if (!lookup.ok()) return MergeError(patch_value, here(), lookup.error());
        Outcome<std::string> strategy = NonRetainKeysStrategy(lookup.value().meta.strategies);
        if (!strategy.ok()) return MergeError(patch_value, here(), strategy.error());
        if (strategy.value() == kReplaceDirective) {
          original.Set(key, patch_value);
          break;
        }
        Result<doc::Node> merged = MergeMap(*current, patch_value, lookup.value().type, here());
        if (!merged) return merged.take_error();
        original.Set(key, std::move(merged).value());
        break;
      }
      case GoType::kSlice: {
        LookupResult lookup = LookupPatchMetadataForSlice(schema, key);
        if (!lookup.ok()) return MergeError(patch_value, here(), lookup.error());
        Outcome<std::string> strategy = NonRetainKeysStrategy(lookup.value().meta.strategies);
        if (!strategy.ok()) return MergeError(patch_value, here(), strategy.error());
        const doc::Node original_list = *current;
        Result<doc::Node> merged = MergeSliceHandler(
            GoSlice::Decoded(original_list.items()), original_list, patch_value,
            lookup.value().type, strategy.value(), lookup.value().meta.merge_key, is_delete_list,
            here());
        if (!merged) return merged.take_error();
        original.Set(key, std::move(merged).value());
        break;
      }
      default:
        original.Set(key, patch_value);
        break;
    }
  }
  OrderNewKeys(original, original_in, patch_in);
  return original;
}

}  // namespace tjr::smp
