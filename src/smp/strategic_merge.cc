#include "smp/strategic_merge.h"

#include "smp/merge_internal.h"
#include "smp/patch_meta.h"
#include "smp/upstream_errors.h"

namespace tjr::smp {

Result<doc::Node> StrategicMerge(const doc::Node& original, const doc::Node& patch,
                                 const schema::Type& type) {
  // NewPatchMetaFromStruct: the data struct must be a struct.
  if (type.kind != schema::Type::Kind::kStruct && type.kind != schema::Type::Kind::kCustomJson) {
    return MakeError({}, "", "expected a struct, but received a " + TypeRef{&type, false}.KindName());
  }
  // handleUnmarshal: both documents must decode into a map; JSON null
  // decodes into a nil map, which merges like an empty one.
  for (const doc::Node* document : {&original, &patch}) {
    if (!document->is_mapping() && !document->is_null()) {
      return MakeError(document->location(), "", std::string(kErrBadJsonDoc));
    }
  }
  const doc::Node patch_map = patch.is_mapping() ? patch : doc::Node::Mapping(patch.location());
  return MergeMap(original, patch_map, TypeRef{&type, false}, FieldPath());
}

}  // namespace tjr::smp
