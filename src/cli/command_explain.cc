// `tjrender explain`: one TrainJob or Flyte task rendered, with where each
// value of its objects came from (app/explain_render.h).
#include <boost/program_options.hpp>

#include <optional>
#include <string>

#include "app/explain_render.h"
#include "cli/color.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/findings_output.h"
#include "cli/options.h"
#include "cli/output.h"
#include "explain/field_query.h"
#include "explain/formats.h"
#include "source/git_tree.h"

namespace tjr::cli {
namespace po = boost::program_options;

namespace {

const char kExplainUsage[] =
    "usage: tjrender explain TRAINJOB|TASK [PATH...] [--field PATH]... [--format yaml|json|html]\n"
    "                        [--rev REV | --staged] [--repo DIR] [--target TARGET] [--namespace NS]\n"
    "                        [--flyte-config FILE] [--no-admission] [--color auto|always|never]\n"
    "                        [--jobs N] [--quiet] [--verbose]\n\n"
    "Renders the TrainJob (or Flyte task) TRAINJOB, given as namespace/name, name or the file that\n"
    "holds it, from the sources and under the target `tjrender render PATH...` uses (PATH defaults\n"
    "to the current folder), and shows where each rendered value came from: the runtime, a CRD\n"
    "default, the controller's typed round trip, a podTemplateOverrides entry (v2.1) or a\n"
    "runtimePatches entry by manager (v2.2+), a plugin with the field that drove it, the JobSet\n"
    "builder; for Flyte the default and primary PodTemplates, the task, the plugin configuration,\n"
    "flyteadmin's task resources and the execution's overrides. --format yaml (default): the\n"
    "objects with a comment on each line naming its source, coloured by layer on a terminal;\n"
    "json: every field's chain, for tools (docs/manual.md); html: one self-contained page.\n"
    "--field PATH (keyed as spec.replicatedJobs[name=node].template..., or by index) prints the\n"
    "chain of that field and everything under it: each value a layer wrote, what replaced it,\n"
    "what deleted it, and why a list item sits where it sits. Findings go to stderr as\n"
    "`tjrender check` reports them. Exit 0 explained, 1 the subject has errors (what the\n"
    "controller would render is still explained), 2 usage or input errors (TRAINJOB not found).\n";

struct ExplainOptions {
  std::string subject;
  std::vector<std::string> fields;
  std::string format = "yaml";
  std::string color = "auto";
  std::string target;
  std::string namespace_;
  std::string flyte_config;
  bool no_admission = false;
  bool verbose = false;
  bool quiet = false;
  unsigned jobs = 0;
  app::SourceRequest source;
};

std::optional<int> ParseExplainOptions(const std::vector<std::string>& args, ExplainOptions* options) {
  bool staged = false;
  std::vector<std::string> positional;
  po::options_description named("options");
  named.add_options()("help,h", "show this help")(
      "field", po::value(&options->fields)->composing(),
      "the chain of this field and the fields under it (repeatable)")(
      "format", po::value(&options->format), "yaml (default), json or html")(
      "color", po::value(&options->color), "auto (default: a terminal, unless NO_COLOR), always or never")(
      "target", po::value(&options->target),
      "emulated release, as for render (default: .tjrender.yaml, else the repository's pin, else trainer-v2.3)")(
      "namespace", po::value(&options->namespace_), "namespace of objects written without one (default: default)")(
      "flyte-config", po::value(&options->flyte_config), "propeller configuration file (plugins.k8s) for Flyte tasks")(
      "no-admission", po::bool_switch(&options->no_admission),
      "leave out the cluster's admission of the rendered objects")(
      "rev", po::value(&options->source.rev), "read this Git revision instead of the working tree")(
      "staged", po::bool_switch(&staged), "read what is committed plus what is staged (Git's index)")(
      "repo", po::value(&options->source.repo), "the repository (default: the Git one holding the current folder)")(
      "jobs,j", po::value(&options->jobs), "worker threads (default: the number of cores)")(
      "verbose,v", po::bool_switch(&options->verbose), "print counts and notes")(
      "quiet,q", po::bool_switch(&options->quiet), "no progress line");
  if (auto exit_code = ParseCommandLine(args, named, &positional, kExplainUsage)) return exit_code;
  if (positional.empty()) {
    ReportUsageError("explain needs TRAINJOB (namespace/name, name, or its file)");
    return kExitUsage;
  }
  options->subject = positional.front();
  options->source.paths.assign(positional.begin() + 1, positional.end());
  if (staged) {
    if (!options->source.rev.empty()) {
      ReportUsageError("--staged and --rev cannot be used together");
      return kExitUsage;
    }
    options->source.rev = source::kStagedRevision;
  }
  if (options->format != "yaml" && options->format != "json" && options->format != "html") {
    ReportUsageError("--format must be yaml, json or html, not '" + options->format + "'");
    return kExitUsage;
  }
  if (!options->fields.empty() && options->format != "yaml") {
    ReportUsageError("--field prints chains as text; --format " + options->format +
                     " holds every field's chain already");
    return kExitUsage;
  }
  if (options->color != "auto" && options->color != "always" && options->color != "never") {
    ReportUsageError("--color must be auto, always or never, not '" + options->color + "'");
    return kExitUsage;
  }
  return std::nullopt;
}

class ExplainCliSink final : public app::RenderSink {
 public:
  void Data(std::string_view bytes) override { WriteStdout(bytes); }
  void Problem(const Diagnostic& problem) override { Report(problem); }
  void Note(std::string_view text) override { cli::Note(text); }
  void Notice(std::string_view text) override { cli::Notice(text); }
};

}  // namespace

int RunExplain(const std::vector<std::string>& args) {
  ExplainOptions options;
  if (auto exit_code = ParseExplainOptions(args, &options)) return *exit_code;
  SetVerbose(options.verbose);
  ReportOptions report;
  report.verbose = options.verbose;
  FindingsOutput findings;
  if (!findings.Init(report)) return kExitUsage;

  app::ExplainRequest request;
  request.subject = options.subject;
  request.render.source = options.source;
  request.render.source.outputs = findings.FilesThisRunWrites();
  request.render.target = options.target;
  request.render.default_namespace = options.namespace_;
  request.render.admission = !options.no_admission;
  request.render.threads = options.jobs;
  request.render.flyte_config_file = options.flyte_config;
  ExplainCliSink sink;
  app::ExplainOutcome outcome = app::ExplainRendered(request, findings, sink);
  if (outcome.end == app::RenderEnd::kRefused) return kExitUsage;
  bool input_error = outcome.input_error;
  if (!findings.Finish()) input_error = true;
  if (input_error || findings.has_input_errors() || outcome.explanations.empty()) return kExitUsage;

  const explain::Explanation& explanation = outcome.explanations.front();
  explain::YamlFormatOptions format;
  format.color = ColorWanted(options.color);
  if (options.format == "json") {
    WriteStdout(explain::FormatJson(explanation));
  } else if (options.format == "html") {
    WriteStdout(explain::FormatHtml(explanation));
  } else if (options.fields.empty()) {
    WriteStdout(explain::FormatYaml(explanation, format));
  } else {
    std::string out;
    for (const std::string& query : options.fields) {
      Result<std::vector<explain::Selection>> selected = explain::SelectFields(explanation, query);
      if (!selected.ok()) {
        ReportUsageError(selected.error().message);
        return kExitUsage;
      }
      for (const explain::Selection& selection : *selected) {
        out += explain::FormatChains(explanation, *selection.object, selection.fields, format);
      }
    }
    WriteStdout(out);
  }
  // Another TrainJob's findings are shown, but they are not this one's.
  return outcome.subject_has_errors ? kExitFindings : kExitClean;
}

}  // namespace tjr::cli
