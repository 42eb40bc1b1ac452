#include "render/runtime_snapshot.h"

#include <utility>

#include "render/go_types.h"
#include "render/plugins.h"
#include "doc/path.h"
#include "render/tree.h"
#include "typed/round_trip.h"
#include "yaml/writer.h"

namespace tjr::render {
namespace {

// ObjectMeta fields only the API server writes (apimachinery
// pkg/apis/meta/v1/types.go ObjectMeta).
constexpr std::string_view kServerSetMetadata[] = {
    "selfLink", "uid", "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp",
    "deletionGracePeriodSeconds", "managedFields"};

Result<doc::Node> Typed(const doc::Node* value, const schema::Type* type) {
  return typed::TypedRoundTrip(value != nullptr ? *value : doc::Node::Mapping(), *type);
}

}  // namespace

Result<std::string> SnapshotText(const doc::Node& trainjob, const doc::Node& runtime, trainer::TrainerVersion version) {
  Result<const GoTypes*> types = LoadGoTypes(version);
  if (!types.ok()) return types.take_error();
  const std::string kind = doc::StringAtPath(runtime, {"kind"});

  Result<doc::Node> metadata = Typed(runtime.Find("metadata"), (*types)->object_meta);
  if (!metadata.ok()) return metadata.take_error();
  for (std::string_view field : kServerSetMetadata) metadata->Erase(field);
  if (metadata->Find("annotations") != nullptr) {
    doc::Node* annotations = metadata->FindMutable("annotations");
    annotations->Erase("kubectl.kubernetes.io/last-applied-configuration");
    if (annotations->fields().empty()) metadata->Erase("annotations");
  }
  if (kind == "ClusterTrainingRuntime") {
    metadata->Erase("namespace");
  } else if (metadata->Find("namespace") == nullptr) {
    if (const doc::Node* ns = doc::FindPath(trainjob, {"metadata", "namespace"}); ns != nullptr && ns->is_string()) {
      metadata->Set("namespace", *ns);
    }
  }

  doc::Node object = doc::Node::Mapping();
  object.Set("apiVersion", doc::Node::String(doc::StringAtPath(runtime, {"apiVersion"})));
  object.Set("kind", doc::Node::String(kind));
  object.Set("metadata", *std::move(metadata));
  if (const doc::Node* spec_in = runtime.Find("spec"); spec_in != nullptr && spec_in->is_mapping()) {
    doc::Node spec = *spec_in;
    if (const doc::Node* template_in = spec_in->Find("template"); template_in != nullptr && template_in->is_mapping()) {
      // JobSetTemplateSpec: metadata (ObjectMeta, omitempty, so always
      // written) and spec (JobSetSpec).
      Result<doc::Node> template_meta = Typed(template_in->Find("metadata"), (*types)->object_meta);
      if (!template_meta.ok()) return template_meta.take_error();
      Result<doc::Node> template_spec = Typed(template_in->Find("spec"), (*types)->job_set_spec);
      if (!template_spec.ok()) return template_spec.take_error();
      doc::Node job_set_template = doc::Node::Mapping();
      job_set_template.Set("metadata", *std::move(template_meta));
      job_set_template.Set("spec", *std::move(template_spec));
      spec.Set("template", std::move(job_set_template));
    }
    object.Set("spec", std::move(spec));
  }
  return yaml::Write(object);
}

bool IsRuntimeSnapshotOf(const doc::Node& object, std::string_view trainjob_name) {
  return doc::StringAtPath(object, {"apiVersion"}) == "v1" && doc::StringAtPath(object, {"kind"}) == "ConfigMap" &&
         doc::StringAtPath(object, {"metadata", "name"}) == std::string(trainjob_name) + std::string(kRuntimeSnapshotSuffix);
}

Result<doc::Node> RuntimeSnapshot(const doc::Node& trainjob, const doc::Node& runtime, trainer::TrainerVersion version,
                                  std::string_view made) {
  Result<std::string> text = made.empty() ? SnapshotText(trainjob, runtime, version) : std::string(made);
  if (!text.ok()) return text.take_error();
  doc::Node configmap = OwnedObject(trainjob, "v1", "ConfigMap",
                                    doc::StringAtPath(trainjob, {"metadata", "name"}) + std::string(kRuntimeSnapshotSuffix));
  doc::Node data = doc::Node::Mapping();
  data.Set("runtime", doc::Node::String(*std::move(text)));
  configmap.Set("data", std::move(data));
  return configmap;
}

}  // namespace tjr::render
