#include "cli/version.h"

#include <cstdio>

#include "build_info.h"
#include "flyte/render.h"
#include "pipeline/target.h"
#include "render/go_types.h"

namespace tjr::cli {
namespace {

// "kubernetes-v1.36" -> "v1.36": the policy set names carry the release.
std::string_view Release(std::string_view policy) {
  std::size_t dash = policy.rfind("-v");
  return dash == std::string_view::npos ? policy : policy.substr(dash + 1);
}

void AddRow(std::string* out, std::string_view name, const std::string& what) {
  char padded[32];
  std::snprintf(padded, sizeof padded, "  %-24.*s", static_cast<int>(name.size()), name.data());
  *out += padded + what + "\n";
}

}  // namespace

const char* Version() { return TJRENDER_BUILD_VERSION; }

std::string VersionText() {
  std::string out = std::string("tjrender ") + TJRENDER_BUILD_VERSION + "\n";
  out += std::string("commit: ") + TJRENDER_BUILD_COMMIT + "\n";
  out += "targets (emulated releases):\n";
  for (const pipeline::TargetProfile& target : pipeline::Targets()) {
    std::string what = target.experimental ? "experimental preview on " : "";
    what += "Kubeflow Trainer " + std::string(trainer::ReleaseOf(target.version).tag) + ", Kubernetes " +
            std::string(Release(render::KubernetesPolicy(target.version))) + " API types, JobSet " +
            std::string(Release(render::JobSetPolicy(target.version))) + " API types";
    if (target.name == pipeline::kDefaultTarget) what += " (default)";
    AddRow(&out, target.name, what);
  }
  for (const std::string& name : flyte::SupportedFlyteTargets()) {
    std::optional<flyte::Version> version = flyte::VersionForTarget(name);
    std::string what = version ? std::string(flyte::FlyteRelease(*version)) : "";
    if (version == flyte::kDefaultVersion) what += " (default for Flyte tasks)";
    AddRow(&out, name, what);
  }
  return out;
}

}  // namespace tjr::cli
