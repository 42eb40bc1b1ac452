// `tjrender krm`: a KRM function (kustomize functions-spec, config.kubernetes.io/v1
// ResourceList) for kustomize's exec functions and `kpt fn eval --exec`.
#include <boost/program_options.hpp>

#include <string>
#include <utility>
#include <vector>

#include "base/file.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/findings_output.h"
#include "cli/options.h"
#include "cli/output.h"
#include "integrate/krm_function.h"

namespace tjr::cli {
namespace po = boost::program_options;

namespace {

const char kUsage[] =
    "usage: tjrender krm [--mode validate|render] [--target T] [--runtimes PATH]...\n\n"
    "A KRM function: reads a ResourceList on stdin and writes one on stdout with the items and\n"
    "a `results` entry per finding (severity, message led by FILE:LINE:COL, resourceRef,\n"
    "field.path, file.path / file.index from the items' config.kubernetes.io path annotations,\n"
    "tags.rule). validate (default) returns the ResourceList byte for byte with only `results`\n"
    "added; render replaces TrainJobs by the objects the Trainer controller would create and\n"
    "leaves runtimes out, every other item byte for byte. The functionConfig's data.mode /\n"
    "data.target (a ConfigMap, as `kpt fn eval -- mode=render` builds) work as the flags.\n"
    "--runtimes PATH (or data.runtime-paths, comma-separated): folders or files whose runtimes\n"
    "the items' TrainJobs reference (read, never written out); a relative PATH is taken from the\n"
    "package folder (the one kpt names or runs in), as a Kptfile's own paths are, else from the\n"
    "working directory.\n"
    "Exit 1 when a result is an error.\n";

}  // namespace

int RunKrm(const std::vector<std::string>& args) {
  std::string mode;
  std::string target;
  std::vector<std::string> runtime_paths;
  ReportOptions report_options;
  std::vector<std::string> positional;
  po::options_description named("options");
  named.add_options()("help,h", "show this help")("mode", po::value(&mode), "validate or render")(
      "target", po::value(&target), "emulated Trainer version")(
      "runtimes", po::value(&runtime_paths), "folder or file of runtimes the TrainJobs reference (repeatable)");
  if (auto exit_code = ParseCommandLine(args, named, &positional, kUsage)) return *exit_code;
  if (!positional.empty()) {
    ReportUsageError("krm reads a ResourceList on stdin and takes no PATH");
    return kExitUsage;
  }
  Result<std::string> input = ReadFile("-");
  if (!input.ok()) {
    Report(input.error());
    return kExitUsage;
  }
  integrate::KrmRequest request;
  request.resource_list = std::move(*input);
  request.mode = mode;
  request.target = target;
  request.runtime_paths = runtime_paths;
  FindingsOutput findings;
  if (!findings.Init(report_options)) return kExitUsage;
  integrate::KrmOutcome outcome = integrate::RunKrmFunction(request, findings);
  if (outcome.refused) {
    Report(*outcome.refused);
    return kExitUsage;
  }
  if (!findings.Finish()) return kExitUsage;
  WriteStdout(outcome.resource_list);
  if (findings.has_input_errors()) return kExitUsage;
  return findings.has_errors() ? kExitFindings : kExitClean;
}

}  // namespace tjr::cli
