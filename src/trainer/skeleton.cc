#include "trainer/skeleton.h"

#include "trainer/runtime_ref.h"

namespace tjr::trainer {
namespace {

bool IsString(const doc::Node* node, std::string_view value) {
  return node != nullptr && node->is_string() && node->string_value() == value;
}

}  // namespace

std::optional<doc::Node> TrainJobSkeleton(const doc::Node& object) {
  if (!object.is_mapping() || !IsString(object.Find("kind"), "TrainJob") ||
      !IsString(object.Find("apiVersion"), kTrainerApiVersion)) {
    return std::nullopt;
  }
  doc::Node skeleton = doc::Node::Mapping(object.location());
  for (const doc::Field& field : object.fields()) {
    if (field.key == "apiVersion" || field.key == "kind" || field.key == "metadata") {
      skeleton.Set(field.key, field.value, field.key_location);
    } else if (field.key == "spec" && field.value.is_mapping()) {
      doc::Node spec = doc::Node::Mapping(field.value.location());
      for (const doc::Field& inner : field.value.fields()) {
        if (inner.key == "runtimeRef") spec.Set(inner.key, inner.value, inner.key_location);
      }
      skeleton.Set(field.key, std::move(spec), field.key_location);
    }
  }
  return skeleton;
}

}  // namespace tjr::trainer
