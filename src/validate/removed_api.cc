// Fields a v2.1 manifest may still carry that Trainer v2.2.0 removed
// (trainer-runtimepatches.md §4: "Replace PodTemplateOverrides with
// RuntimePatches API (#3309)"; spec.labels and spec.annotations went with
// it). There is no conversion and the version stayed v1alpha1, so the API
// server prunes them without a word and the TrainJob silently loses them:
// tjrender refuses them instead (its own message, not upstream's).
#include "validate/removed_api.h"

#include "validate/rules.h"

namespace tjr::validate {
namespace {

struct Removed {
  std::string_view key;
  std::string_view instead;
};
constexpr Removed kRemoved[] = {
    {"podTemplateOverrides", "spec.runtimePatches"},
    {"labels", "JobSet labels in a spec.runtimePatches entry (trainingRuntimeSpec.template.metadata.labels)"},
    {"annotations",
     "JobSet annotations in a spec.runtimePatches entry (trainingRuntimeSpec.template.metadata.annotations)"},
};
constexpr std::string_view kRemovedIn = "field removed in Trainer v2.2.0 (replaced by ";

}  // namespace

bool IsRemovedFieldError(const Diagnostic& diagnostic) {
  if (diagnostic.severity != Severity::kError || !diagnostic.message.starts_with(kRemovedIn)) return false;
  for (const Removed& removed : kRemoved) {
    if (diagnostic.field_path == "spec." + std::string(removed.key)) return true;
  }
  return false;
}

void CheckRemovedFields(const doc::Node& trainjob, trainer::TrainerVersion version, Report* report) {
  if (!trainer::ReleaseOf(version).runtime_patches) return;
  const doc::Node* spec = doc::At(&trainjob, "spec");
  for (const Removed& removed : kRemoved) {
    const doc::Node* value = doc::At(spec, removed.key);
    if (value == nullptr) continue;
    const std::string field = "spec." + std::string(removed.key);
    Diagnostic d = MakeError(value->location(), field,
                             std::string(kRemovedIn) + std::string(removed.instead) +
                                 "); the API server would prune it silently and the TrainJob would lose it. "
                                 "Run `tjrender migrate` to rewrite the TrainJob");
    d.rule = "upstream/error";  // what the API server does with it: prune it
    // Located at the key, where the reader has it, like other field errors.
    report->Append({std::move(d)});
  }
}

}  // namespace tjr::validate
