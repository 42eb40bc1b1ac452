#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "schema/schema.h"
#include "smp/outcome.h"

namespace tjr::smp {

/// One Go type as apimachinery's PatchMetaFromStruct holds it. `pointer`
/// records a `*T` (the schema makes pointers transparent, but
/// LookupPatchMetadataForSlice and reflect's kind names still see them).
struct TypeRef {
  const schema::Type* type = nullptr;
  bool pointer = false;

  /// PatchMetaFromStruct.Name(): the reflect kind ("struct", "ptr", "map"...).
  std::string KindName() const;
};

/// The struct tags of one field.
struct PatchMeta {
  std::vector<std::string> strategies;  ///< patchStrategy split on ','
  std::string merge_key;                ///< patchMergeKey
};

struct PatchLookup {
  TypeRef type;
  PatchMeta meta;
};

/// A lookup result or the upstream error text.
using LookupResult = Outcome<PatchLookup>;

/// forked encoding/json LookupPatchMetadataForStruct: the field encoding/json
/// would decode `json_name` into (exact name first, else the first
/// case-insensitive match), its type and tags. Only structs have fields.
LookupResult LookupPatchMetadataForStruct(const TypeRef& parent, std::string_view json_name);

/// PatchMetaFromStruct.LookupPatchMetadataForSlice: like the struct lookup,
/// then the element type of the slice field (a pointer to a non-slice
/// yields the pointee itself, as upstream does).
LookupResult LookupPatchMetadataForSlice(const TypeRef& parent, std::string_view json_name);

}  // namespace tjr::smp
