// `tjrender migrate`'s rewrite (migrate/rewrite.h, splice.h) on a file's
// bytes after the first byte, which picks the shape (bit 0: runtimePatches
// or the PR #3199 templateOverrides preview). The property the rewrite
// claims, checked here against an expectation built apart from the
// splicer: the new text reads back to the old documents, except that each
// rewritten TrainJob's spec has lost podTemplateOverrides, labels and
// annotations and gained the planned field (migrate::PlanTrainJob's value);
// a TrainJob left alone reads as before, and a file with nothing rewritten
// keeps its bytes. Never a crash or a hang; errors name their file.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "migrate/plan.h"
#include "migrate/rewrite.h"
#include "yaml/reader.h"

namespace {

// The TrainJob `before` as the plan says it must read once rewritten.
tjr::doc::Node Planned(const tjr::doc::Node& before, tjr::migrate::Shape shape) {
  const tjr::migrate::Plan plan = tjr::migrate::PlanTrainJob(before, tjr::migrate::kDefaultManager, shape);
  tjr::doc::Node expected = before;
  tjr::doc::Node* spec = expected.FindMutable("spec");
  if (spec == nullptr) __builtin_trap();  // rewritten without a spec
  for (const char* old : {"podTemplateOverrides", "labels", "annotations"}) spec->Erase(old);
  if (!plan.patches.empty()) spec->Set(tjr::migrate::FieldName(shape), plan.runtime_patches);
  return expected;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  tjr::migrate::RewriteOptions options;
  options.shape = (data[0] & 1) != 0 ? tjr::migrate::Shape::kTemplateOverridesPreview
                                     : tjr::migrate::Shape::kRuntimePatches;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  tjr::Result<tjr::migrate::FileRewrite> rewrite = tjr::migrate::RewriteFile(text, "trainjob.yaml", options);
  if (!rewrite.ok()) {
    if (!rewrite.error().location.known()) __builtin_trap();
    return 0;
  }
  for (const tjr::Diagnostic& error : rewrite->errors) {
    if (!error.location.known()) __builtin_trap();
  }
  bool changed = false;
  for (const tjr::migrate::TrainJobMigration& trainjob : rewrite->trainjobs) {
    if (trainjob.changed && trainjob.failed) __builtin_trap();
    if (!trainjob.changed) {
      if (trainjob.after != trainjob.before) __builtin_trap();
      continue;
    }
    changed = true;
    if (trainjob.after != Planned(trainjob.before, options.shape)) __builtin_trap();  // not the plan
  }
  if (!changed) {
    if (rewrite->text != text) __builtin_trap();  // bytes changed with nothing rewritten
    return 0;
  }
  // The new text reads as `after` says; every document but the rewritten
  // TrainJobs as before.
  tjr::Result<std::vector<tjr::doc::Node>> reread = tjr::yaml::ReadStream(rewrite->text, "trainjob.yaml");
  if (!reread.ok() || *reread != rewrite->after || rewrite->after.size() != rewrite->before.size()) {
    __builtin_trap();
  }
  std::size_t rewritten = 0;
  for (std::size_t i = 0; i < rewrite->before.size(); ++i) {
    if ((*reread)[i] == rewrite->before[i]) continue;
    ++rewritten;
    if ((*reread)[i] != Planned(rewrite->before[i], options.shape)) __builtin_trap();
  }
  std::size_t changed_count = 0;
  for (const tjr::migrate::TrainJobMigration& trainjob : rewrite->trainjobs) changed_count += trainjob.changed;
  if (rewritten > changed_count) __builtin_trap();  // a document changed that no TrainJob rewrite explains
  return 0;
}
