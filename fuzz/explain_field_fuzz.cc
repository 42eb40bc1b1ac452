// The provenance engine and its formats on arbitrary documents, and the
// --field query parser on arbitrary paths: the input's first line is the
// query, the rest a YAML stream whose documents (up to four) are the stages
// of one object. Never a crash or a hang; every selected field is one of the
// object's; the same input gives the same bytes twice (the comment-free
// property of the YAML is the unit tests').
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "explain/chains.h"
#include "explain/field_query.h"
#include "explain/formats.h"
#include "yaml/reader.h"
#include "yaml/writer.h"

namespace {

std::string Explain(std::string_view query, const std::vector<tjr::doc::Node>& documents) {
  using namespace tjr::explain;
  Explanation explanation;
  explanation.subject = "TrainJob fuzz/fuzz";
  for (std::size_t i = 0; i < documents.size() && i < 4; ++i) {
    explanation.layers.push_back({LayerKind::kRuntime, "layer " + std::to_string(i), {}});
  }
  std::vector<Stage> stages;
  for (std::size_t i = 0; i < explanation.layers.size(); ++i) stages.push_back({i, documents[i]});
  ObjectExplanation object;
  object.object = stages.back().object;
  object.fields = ChainsFromStages(stages, {}, [](const std::string& path, const ItemHistory& history) {
    return path + " " + std::to_string(history.arrived);
  });
  explanation.objects.push_back(object);
  std::string out = FormatYaml(explanation) + FormatJson(explanation);
  tjr::Result<std::vector<Selection>> selected = SelectFields(explanation, query);
  if (selected.ok()) {
    for (const Selection& selection : *selected) {
      for (const Field* field : selection.fields) {
        if (field < &selection.object->fields.front() || field > &selection.object->fields.back()) __builtin_trap();
      }
      out += FormatChains(explanation, *selection.object, selection.fields);
    }
  } else {
    out += selected.error().message;
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t newline = input.find('\n');
  if (newline == std::string_view::npos || newline > 4096) return 0;
  const std::string_view query = input.substr(0, newline);
  tjr::Result<std::vector<tjr::doc::Node>> documents = tjr::yaml::ReadStream(input.substr(newline + 1), "fuzz.yaml");
  if (!documents.ok() || documents->empty()) return 0;
  if (Explain(query, *documents) != Explain(query, *documents)) __builtin_trap();
  return 0;
}
