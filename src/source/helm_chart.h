#pragma once

#include <string>
#include <string_view>

// Helm charts inside a manifest repository. A folder holding Chart.yaml is
// a chart: its templates/ are Go templates that only `helm template` turns
// into manifests, and other files of the chart (files/, ci/, tests/) may be
// templates too. tjrender checks a chart through its rendered output
// (`helm template CHART | tjrender check -`), not file by file.
namespace tjr::source {

/// The file whose presence makes a folder a chart (helm's chartutil reads
/// exactly this name).
inline constexpr char kChartFile[] = "Chart.yaml";
/// The folder of a chart whose files are all templates.
inline constexpr char kChartTemplatesFolder[] = "templates";

/// Whether `text` holds a Go template action: "{{" with a "}}" after it.
bool HasTemplateActions(std::string_view text);

/// The command that checks a chart's rendered output, for messages.
std::string HelmCheckCommand(const std::string& chart);

}  // namespace tjr::source
