#pragma once

#include <string>
#include <string_view>
#include <vector>

// kustomize's view of a folder: which files its kustomization names as
// something other than resources. A patch file is a fragment of an object
// (a TrainJob patch has no runtimeRef) and a plugin configuration is never
// applied, so the loader skips both instead of checking them as objects;
// `kustomize build DIR | tjrender check -` checks the result.
namespace tjr::source {

/// The names kustomize looks for in a folder, in its order
/// (konfig.RecognizedKustomizationFileNames).
inline constexpr std::string_view kKustomizationFileNames[] = {"kustomization.yaml", "kustomization.yml",
                                                               "Kustomization"};

bool IsKustomizationFileName(std::string_view name);

/// A file a kustomization names, and as what.
struct KustomizeReference {
  std::string path;  ///< the kustomization's folder joined with the entry, lexically normal
  std::string role;  ///< "patch", "generator configuration", ...
};

/// The non-resource files the kustomization `text` (found in `folder`, as
/// named) references: `patches[].path`, `patchesStrategicMerge[]` (file
/// entries, not inline patches), `patchesJson6902[].path`, and the files of
/// `generators`, `transformers` and `validators` (plugin configurations).
/// Remote and absolute entries and unreadable text give nothing.
std::vector<KustomizeReference> KustomizeReferences(std::string_view text, const std::string& folder);

}  // namespace tjr::source
