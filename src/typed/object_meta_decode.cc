#include "typed/object_meta_decode.h"

#include "schema/schema.h"
#include "typed/go_value.h"
#include "typed/unmarshal.h"

namespace tjr::typed {

std::optional<Diagnostic> DecodeObjectMeta(const doc::Node& object, MetadataDecoder decoder,
                                           const std::string& kubernetes_policy) {
  const doc::Node* metadata = object.is_mapping() ? object.Find("metadata") : nullptr;
  if (metadata == nullptr) return std::nullopt;
  Result<const schema::Schema*> schema = schema::BuiltinSchema({kubernetes_policy});
  if (!schema.ok()) return schema.take_error();
  const schema::Type* object_meta = (*schema)->FindType("k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta");
  if (object_meta == nullptr) {
    return MakeError(metadata->location(), "metadata", "tjrender: no ObjectMeta in " + kubernetes_policy);
  }
  UnmarshalOptions options;
  options.case_sensitive = true;
  if (decoder == MetadataDecoder::kKubectl) {
    options.outer_struct = "k8s.io/cli-runtime/pkg/resource.metadataOnlyObject";
    options.outer_fields = {"metadata"};
  }
  GoValue decoded;
  std::optional<Diagnostic> error = Unmarshal(*metadata, *object_meta, options, &decoded);
  if (error) {
    error->field_path = error->field_path.empty() ? "metadata"
                        : error->field_path.front() == '[' ? "metadata" + error->field_path
                                                           : "metadata." + error->field_path;
  }
  return error;
}

}  // namespace tjr::typed
