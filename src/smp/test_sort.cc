#include "smp/test_sort.h"

#include <algorithm>
#include <string>
#include <utility>

#include "smp/directives.h"
#include "smp/element_order.h"
#include "smp/go_value.h"
#include "smp/patch_meta.h"

namespace tjr::smp::testing {
namespace {

Diagnostic Fail(std::string message) { return MakeError({}, "", std::move(message)); }

doc::Node SortedByText(const doc::Node& list, std::string_view merge_key) {
  std::vector<std::pair<std::string, doc::Node>> keyed;
  for (const doc::Node& item : list.items()) {
    const doc::Node* key = merge_key.empty() ? &item : item.Find(merge_key);
    keyed.emplace_back(GoSprintV(key), item);
  }
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  doc::Node out = doc::Node::Sequence(list.location());
  for (auto& [text, item] : keyed) out.push_back(std::move(item));
  return out;
}

Result<doc::Node> SortMap(const doc::Node& map, const TypeRef& type);

Result<doc::Node> SortArray(const doc::Node& list, const TypeRef& element,
                            std::string_view merge_key) {
  if (list.empty()) return list;
  Outcome<GoType> kind = SliceElementType({&list.items()});
  if (!kind.ok()) return Fail(kind.error());
  if (kind.value() != GoType::kMap) {
    doc::Node unique = doc::Node::Sequence(list.location());
    for (const doc::Node& item : list.items()) {
      bool seen = false;
      for (const doc::Node& kept : unique.items()) {
        seen = seen || GoEqual(&kept, &item) == GoCompare::kEqual;
      }
      if (!seen) unique.push_back(item);
    }
    return SortedByText(unique, "");
  }
  doc::Node sorted = doc::Node::Sequence(list.location());
  for (const doc::Node& item : list.items()) {
    Result<doc::Node> inner = SortMap(item, element);
    if (!inner) return inner;
    sorted.push_back(std::move(inner).value());
  }
  return SortedByText(sorted, merge_key);
}

Result<doc::Node> SortMap(const doc::Node& map, const TypeRef& type) {
  doc::Node out = doc::Node::Mapping(map.location());
  for (const doc::Field& field : map.fields()) {
    doc::Node value = field.value;
    if (field.key == kRetainKeysDirective || StartsWith(field.key, kDeleteFromPrimitiveListPrefix)) {
      if (!value.is_sequence()) return Fail("bad directive list " + field.key);
      value = SortedByText(value, "");
    } else if (StartsWith(field.key, kSetElementOrderPrefix)) {
      if (!value.is_sequence()) return Fail("bad $setElementOrder list");
    } else if (field.key != kPatchDirectiveKey) {
      if (value.is_mapping()) {
        LookupResult lookup = LookupPatchMetadataForStruct(type, field.key);
        if (!lookup.ok()) return Fail(lookup.error());
        Result<doc::Node> inner = SortMap(value, lookup.value().type);
        if (!inner) return inner;
        value = std::move(inner).value();
      } else if (value.is_sequence()) {
        LookupResult lookup = LookupPatchMetadataForSlice(type, field.key);
        if (!lookup.ok()) return Fail(lookup.error());
        Outcome<std::string> strategy = NonRetainKeysStrategy(lookup.value().meta.strategies);
        if (!strategy.ok()) return Fail(strategy.error());
        if (strategy.value() == kMergeDirective) {
          Result<doc::Node> inner =
              SortArray(value, lookup.value().type, lookup.value().meta.merge_key);
          if (!inner) return inner;
          value = std::move(inner).value();
        }
      }
    }
    out.Set(field.key, std::move(value), field.key_location);
  }
  return out;
}

}  // namespace

Result<doc::Node> SortMergeListsByName(const doc::Node& map, const schema::Type& type) {
  if (!map.is_mapping()) return map;
  return SortMap(map, TypeRef{&type, false});
}

}  // namespace tjr::smp::testing
