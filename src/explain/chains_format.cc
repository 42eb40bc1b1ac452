#include "explain/chains.h"
#include "explain/formats.h"
#include "explain/palette.h"
#include "json/json.h"

namespace tjr::explain {
namespace {

constexpr std::size_t kShownValue = 120;

std::string Shown(const doc::Node& value) {
  if (!IsLeaf(value)) return value.is_mapping() ? "{...}" : "[...]";
  std::string text = json::Write(value, false);
  if (text.size() > kShownValue) text = text.substr(0, kShownValue) + "...";
  return text;
}


}  // namespace

std::string ObjectTitle(const doc::Node& object) {
  const doc::Node* metadata = object.Find("metadata");
  std::string name;
  if (metadata != nullptr && metadata->is_mapping()) {
    const doc::Node* space = metadata->Find("namespace");
    const doc::Node* own = metadata->Find("name");
    if (space != nullptr && space->is_string()) name = space->string_value() + "/";
    if (own != nullptr && own->is_string()) name += own->string_value();
  }
  const doc::Node* kind = object.Find("kind");
  return (kind != nullptr && kind->is_string() ? kind->string_value() : std::string("object")) + " " + name;
}

std::string DescribeStep(const Explanation& explanation, const Step& step) {
  std::string out;
  if (step.layer < explanation.layers.size()) out = explanation.layers[step.layer].name;
  if (step.action == Action::kDeleted) out = "deleted by " + out;
  // "plugin torch (from spec.trainer.numProcPerNode at tj.yaml:12:21)":
  // the location is the driving field's, so it goes with it.
  if (step.detail.starts_with("from ")) {
    out += " (" + step.detail;
    if (step.location.known()) out += " at " + step.location.ToString();
    return out + ")";
  }
  if (step.location.known()) out += " " + step.location.ToString();
  if (!step.detail.empty()) out += " (" + step.detail + ")";
  return out;
}

std::string FormatChains(const Explanation& explanation, const ObjectExplanation& object,
                         const std::vector<const Field*>& fields, const YamlFormatOptions& options) {
  std::string out = "# " + ObjectTitle(object.object) + " (" + explanation.subject + ", " + explanation.target + ")\n";
  for (const Field* field : fields) {
    out += field->path.empty() ? "(the object)" : field->path;
    out += field->present ? (field->chain.empty() ? "" : ": " + Shown(field->chain.back().value)) : " (deleted)";
    out += '\n';
    for (std::size_t i = 0; i < field->chain.size(); ++i) {
      const Step& step = field->chain[i];
      const bool replaced = i + 1 < field->chain.size() && step.action == Action::kSet;
      std::string line = DescribeStep(explanation, step);
      if (options.color && step.layer < explanation.layers.size()) {
        line = LayerColour(explanation.layers[step.layer].kind) + line + kColourReset;
      }
      out += "  " + std::to_string(i + 1) + ". " + line;
      if (step.action == Action::kSet) out += ": " + Shown(step.value);
      if (replaced) out += "  (replaced)";
      out += '\n';
    }
    if (!field->order.empty()) out += "  order: " + field->order + "\n";
  }
  return out;
}

}  // namespace tjr::explain
