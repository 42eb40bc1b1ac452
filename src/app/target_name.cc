#include "app/target_name.h"

#include <algorithm>
#include <vector>

#include "pipeline/pipeline.h"
#include "pipeline/target.h"

namespace tjr::app {

std::string CanonicalTarget(std::string_view target) {
  std::string name(target);
  // "trainer-v2.3.0" and "v2.3.0" name the release the target emulates.
  auto strip_patch = [](std::string* version) {
    std::size_t first = version->find('.');
    std::size_t second = first == std::string::npos ? first : version->find('.', first + 1);
    if (second != std::string::npos && version->substr(second) == ".0") version->erase(second);
  };
  if (name.starts_with("trainer-v")) {
    std::string version = name.substr(9);
    strip_patch(&version);
    return "trainer-v" + version;
  }
  if (name.starts_with("v2.") || name.starts_with("2.")) {
    std::string version = name.starts_with("v") ? name.substr(1) : name;
    strip_patch(&version);
    return "trainer-v" + version;
  }
  return name;
}

Result<std::string> SupportedTarget(std::string_view target, std::string_view also) {
  const std::vector<std::string>& targets = pipeline::SupportedTargets();
  std::string canonical = CanonicalTarget(target);
  if (std::find(targets.begin(), targets.end(), canonical) != targets.end()) return canonical;
  return AsInputError(MakeError(Location{}, "",
                                "unsupported target '" + std::string(target) +
                                    "' (supported: " + pipeline::SupportedTargetList() + std::string(also) + ")"));
}

Result<std::string> ChooseTarget(std::string_view flag, const RepoConfig& config) {
  if (!flag.empty()) return SupportedTarget(flag);
  if (config.target) return SupportedTarget(*config.target);
  return SupportedTarget(pipeline::kDefaultTarget);
}

}  // namespace tjr::app
