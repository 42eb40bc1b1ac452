#include "pipeline/kept_runtime.h"

#include <string>
#include <vector>

#include "gocompat/strconv.h"
#include "pipeline/pipeline.h"
#include "render/runtime_snapshot.h"
#include "doc/path.h"
#include "render/tree.h"
#include "yaml/reader.h"

namespace tjr::pipeline {

Result<doc::Node> KeptRuntime(const doc::Node& trainjob, const trainer::ResolvedRuntime& resolved,
                              const doc::Node& configmap, std::string_view live_text_made,
                              const TargetProfile& target, Diagnostics* out) {
  const doc::Node* ref_node = trainjob.Find("spec");
  ref_node = ref_node != nullptr ? ref_node->Find("runtimeRef") : nullptr;
  const Location at = ref_node != nullptr ? ref_node->location() : trainjob.location();
  const std::string wrap = resolved.kind == trainer::RuntimeKind::kTrainingRuntime ? "unable to get runtime snapshot: "
                                                                                    : "getting runtime snapshot: ";
  auto invalid = [&](const std::string& why) {
    return MakeError(at, "", wrap + "invalid runtime snapshot: " + why);
  };
  // metav1.GetControllerOf: the first ownerReference with controller true;
  // only its UID is compared, and only a TrainJob that states its own can be.
  const doc::Node* owner = nullptr;
  if (const doc::Node* refs = doc::FindPath(configmap, {"metadata", "ownerReferences"}); refs != nullptr &&
                                                                                      refs->is_sequence()) {
    for (const doc::Node& r : refs->items()) {
      const doc::Node* controller = r.Find("controller");
      if (controller != nullptr && controller->is_bool() && controller->bool_value()) {
        owner = &r;
        break;
      }
    }
  }
  const doc::Node* uid = doc::FindPath(trainjob, {"metadata", "uid"});
  if (owner == nullptr || (uid != nullptr && uid->is_string() &&
                           doc::StringAtPath(*owner, {"uid"}) != uid->string_value())) {
    return invalid("a snapshot configmap exists but is owned by another object");
  }
  const doc::Node* text = doc::FindPath(configmap, {"data", "runtime"});
  if (text == nullptr || !text->is_string()) return invalid("snapshot ConfigMap missing \"runtime\" data key");
  Result<std::vector<doc::Node>> decoded = yaml::ReadStream(text->string_value(), "runtime snapshot");
  if (!decoded.ok()) return invalid("unable to unmarshal the snapshot: " + decoded.error().message);
  doc::Node snapshot = decoded->empty() ? doc::Node::Mapping() : decoded->front();
  if (!snapshot.is_mapping()) return invalid("unable to unmarshal the snapshot: not an object");
  const std::string api_version = doc::StringAtPath(snapshot, {"apiVersion"});
  const std::string group = api_version.find('/') == std::string::npos ? "" : api_version.substr(0, api_version.find('/'));
  const std::string kind = doc::StringAtPath(snapshot, {"kind"});
  const std::string name = doc::StringAtPath(snapshot, {"metadata", "name"});
  const trainer::RuntimeRef& ref = resolved.ref;
  if ((ref.kind && kind != *ref.kind) || (ref.api_group && group != *ref.api_group) || name != ref.name) {
    return invalid("the snapshot refers to the wrong runtime: expecting a runtime with name, api group and kind of " +
                   gocompat::Quote(ref.name) + ", " + gocompat::Quote(ref.api_group.value_or("<any>")) + ", " +
                   gocompat::Quote(ref.kind.value_or("<any>")) +
                   " but found runtime with name, api group and kind of " + gocompat::Quote(name) + ", " +
                   gocompat::Quote(group) + ", " + gocompat::Quote(kind));
  }
  Result<std::string> live_text = live_text_made.empty()
                                      ? render::SnapshotText(trainjob, resolved.runtime, target.version)
                                      : std::string(live_text_made);
  if (!live_text.ok()) return live_text.take_error();
  if (*live_text == text->string_value()) return doc::Node();
  const std::string trainjob_name = doc::StringAtPath(trainjob, {"metadata", "name"});
  Diagnostic warning = MakeWarning(
      at, kRuntimeSnapshotKeptRule,
      "spec.runtimeRef: " + doc::StringAtPath(resolved.runtime, {"kind"}) +
          " " + doc::StringAtPath(resolved.runtime, {"metadata", "name"}) +
          " differs from this TrainJob's runtime snapshot, which the Trainer controller renders it against: it reads "
          "ConfigMap " + trainjob_name + std::string(render::kRuntimeSnapshotSuffix) +
          ", not the live runtime, for a TrainJob that has one (delete the ConfigMap, or recreate the TrainJob, for "
          "the live runtime to apply)");
  out->push_back(std::move(warning));
  return snapshot;
}

}  // namespace tjr::pipeline
