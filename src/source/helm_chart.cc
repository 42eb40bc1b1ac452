#include "source/helm_chart.h"

namespace tjr::source {

bool HasTemplateActions(std::string_view text) {
  std::size_t open = text.find("{{");
  return open != std::string_view::npos && text.find("}}", open + 2) != std::string_view::npos;
}

std::string HelmCheckCommand(const std::string& chart) {
  return "helm template " + (chart.empty() ? std::string(".") : chart) + " | tjrender check -";
}

}  // namespace tjr::source
