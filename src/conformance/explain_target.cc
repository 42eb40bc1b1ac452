#include "conformance/explain_target.h"

#include "app/explain_render.h"
#include "conformance/render_target.h"
#include "explain/field_query.h"
#include "explain/formats.h"
#include "source/memory_tree.h"

namespace tjr::conformance {
namespace {

Diagnostic CommandError(std::string message) {
  return AsInputError(MakeError(Location{}, "command", std::move(message)));
}

class Collector final : public app::RenderSink {
 public:
  void Data(std::string_view) override {}
  void Problem(const Diagnostic& problem) override { diagnostics.push_back(problem); }
  void Note(std::string_view) override {}
  Diagnostics diagnostics;
};


doc::Node ProvenanceObject(const explain::Explanation& explanation, const explain::ObjectExplanation& object,
                           const explain::Field& field) {
  doc::Node out = doc::Node::Mapping();
  out.Set("apiVersion", doc::Node::String("tjrender.dev/v1"));
  out.Set("kind", doc::Node::String("FieldProvenance"));
  doc::Node metadata = doc::Node::Mapping();
  metadata.Set("name", doc::Node::String(explain::ObjectTitle(object.object) + " " + field.path));
  out.Set("metadata", metadata);
  out.Set("present", doc::Node::Bool(field.present));
  if (!field.order.empty()) out.Set("order", doc::Node::String(field.order));
  doc::Node chain = doc::Node::Sequence();
  for (const explain::Step& step : field.chain) {
    doc::Node entry = doc::Node::Mapping();
    const explain::Layer& layer = explanation.layers[step.layer];
    entry.Set("layer", doc::Node::String(layer.name));
    entry.Set("kind", doc::Node::String(explain::LayerKindName(layer.kind)));
    entry.Set("action", doc::Node::String(step.action == explain::Action::kSet ? "set" : "deleted"));
    if (step.action == explain::Action::kSet) entry.Set("value", step.value);
    if (step.location.known()) entry.Set("location", doc::Node::String(step.location.ToString()));
    if (!step.detail.empty()) entry.Set("detail", doc::Node::String(step.detail));
    chain.push_back(entry);
  }
  out.Set("chain", chain);
  return out;
}

}  // namespace

Result<TargetOutput> RunExplainTarget(const std::vector<InputFile>& inputs, const std::vector<std::string>& command) {
  std::string subject;
  std::vector<std::string> fields;
  std::vector<std::string> render_command;
  for (std::size_t i = 0; i < command.size(); ++i) {
    if (command[i] == "--subject" || command[i] == "--field") {
      if (i + 1 == command.size()) return CommandError(command[i] + " needs a value");
      (command[i] == "--subject" ? subject : fields.emplace_back()) = command[i + 1];
      ++i;
      continue;
    }
    render_command.push_back(command[i]);
  }
  if (subject.empty()) return CommandError("the explain target needs --subject NAMESPACE/NAME");
  if (fields.empty()) return CommandError("the explain target needs --field PATH (one or more)");
  Result<RenderCommand> parsed = ParseRenderCommand(render_command);
  if (!parsed.ok()) return parsed.take_error();
  if (!parsed->previous_file.empty()) return CommandError("the explain target takes no --previous");

  source::MemoryTree tree;
  std::optional<std::vector<doc::Node>> flyte_config;
  for (const InputFile& input : inputs) {
    if (!parsed->flyte_config_file.empty() && input.name == "input/" + parsed->flyte_config_file) {
      flyte_config = input.documents;
    } else {
      tree.Put(input.name, input.text);
    }
  }
  if (!parsed->flyte_config_file.empty() && !flyte_config) {
    return CommandError("--flyte-config " + parsed->flyte_config_file + ": no such file in input/");
  }
  app::ExplainRequest request;
  request.subject = subject;
  request.render.source.tree = &tree;
  request.render.source.paths = {"input"};
  request.render.flyte_config = std::move(flyte_config);
  if (request.render.flyte_config) request.render.flyte_config_file = "input/" + parsed->flyte_config_file;
  request.render.target = parsed->pipeline.target;
  if (parsed->namespace_given) request.render.default_namespace = parsed->pipeline.default_namespace;
  request.render.admission = parsed->pipeline.admission;
  request.render.threads = 1;

  Collector collector;
  app::Findings findings;
  findings.SetObservers({[&](const Diagnostic& d) { collector.diagnostics.push_back(d); }, nullptr,
                         [&](const Diagnostic& d) { collector.diagnostics.push_back(d); }});
  app::ExplainOutcome outcome = app::ExplainRendered(request, findings, collector);
  TargetOutput output;
  output.diagnostics = std::move(collector.diagnostics);
  if (outcome.explanations.empty()) return output;
  const explain::Explanation& explanation = outcome.explanations.front();
  for (const std::string& query : fields) {
    Result<std::vector<explain::Selection>> selected = explain::SelectFields(explanation, query);
    if (!selected.ok()) {
      output.diagnostics.push_back(selected.take_error());
      continue;
    }
    // The field itself: the first selected is the one the path names.
    const explain::Selection& first = selected->front();
    output.objects.push_back(ProvenanceObject(explanation, *first.object, *first.fields.front()));
  }
  return output;
}

}  // namespace tjr::conformance
