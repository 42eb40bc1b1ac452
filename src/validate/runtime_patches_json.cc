#include "validate/runtime_patches_json.h"

#include <string>

#include "trainer/api_types.h"
#include "validate/go_json.h"

namespace tjr::validate {
namespace {

// One trainer.RuntimePatch of the release: its fields (PodSpecPatch's
// terminationGracePeriodSeconds from v2.3.0 on) come from the release's API
// types in policies/.
doc::Node RuntimePatch(const doc::Node& entry, trainer::TrainerVersion version) {
  return Typed(entry, std::string(trainer::kApiPackage) + ".RuntimePatch", version);
}

}  // namespace

std::string RuntimePatchesJson(const doc::Node* patches, trainer::TrainerVersion version) {
  if (patches == nullptr || !patches->is_sequence() || patches->empty()) return "null";
  doc::Node out = doc::Node::Sequence();
  for (const doc::Node& entry : patches->items()) out.push_back(RuntimePatch(entry, version));
  return WriteOrdered(out);
}

std::string RuntimePatchContentJson(const doc::Node& entry, trainer::TrainerVersion version) {
  doc::Node patch = RuntimePatch(entry, version);
  doc::Node out = doc::Node::Mapping();
  if (patch.is_mapping()) {
    for (const doc::Field& field : patch.fields()) {
      if (field.key != "time") out.Set(field.key, field.value);
    }
  }
  return WriteOrdered(out);
}

}  // namespace tjr::validate
