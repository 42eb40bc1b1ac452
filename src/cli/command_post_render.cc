// `tjrender post-render`: a Helm post-renderer (`helm install|upgrade|template
// --post-renderer tjrender --post-renderer-args post-render`). The manifest
// stream comes on stdin and goes back on stdout; TrainJobs and runtimes are
// checked, and in --mode render TrainJobs are replaced by what the Trainer
// controller would create.
#include <string>
#include <utility>
#include <vector>

#include <boost/program_options.hpp>

#include "base/file.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/findings_output.h"
#include "cli/options.h"
#include "cli/output.h"
#include "integrate/post_render.h"

namespace tjr::cli {
namespace po = boost::program_options;

namespace {

const char kUsage[] =
    "usage: tjrender post-render [--mode validate|render] [--target T] [--namespace NS]\n"
    "                            [--findings-format FORMAT] [--report FORMAT=FILE]...\n\n"
    "Reads a manifest stream on stdin and writes it to stdout. --mode validate (default): the\n"
    "stream comes back byte for byte once its TrainJobs and runtimes check clean. --mode render:\n"
    "each TrainJob document is replaced by the objects the Trainer controller would create\n"
    "(carrying the TrainJob's postrenderer.helm.sh/postrender-filename annotation), runtime\n"
    "documents are left out, every other document is passed through byte for byte.\n"
    "Objects written without a namespace are rendered without one, as Helm applies its release\n"
    "namespace itself; --namespace NS (Helm's release namespace) writes NS into them instead.\n"
    "Findings go to stderr; any error exits 1 with nothing on stdout.\n";

}  // namespace

int RunPostRender(const std::vector<std::string>& args) {
  std::string mode = "validate";
  std::string target;
  std::string namespace_;
  ReportOptions report_options;
  std::vector<std::string> positional;
  po::options_description named("options");
  named.add_options()("help,h", "show this help")("mode", po::value(&mode), "validate or render")(
      "target", po::value(&target), "emulated Trainer version")(
      "namespace", po::value(&namespace_), "namespace of objects written without one")(
      "verbose,v", po::bool_switch(&report_options.verbose), "print notes");
  AddReportOptions(&named, &report_options, "findings-format");
  if (auto exit_code = ParseCommandLine(args, named, &positional, kUsage)) return *exit_code;
  if (!positional.empty() || (mode != "validate" && mode != "render")) {
    ReportUsageError("post-render reads stdin and takes --mode validate|render only");
    return kExitUsage;
  }
  SetVerbose(report_options.verbose);
  FindingsOutput findings;
  if (!findings.Init(report_options)) return kExitUsage;

  integrate::PostRenderRequest request;
  Result<std::string> input = ReadFile("-");
  if (!input.ok()) {
    Report(input.error());
    return kExitUsage;
  }
  request.stream = std::move(*input);
  request.render = mode == "render";
  request.target = target;
  request.namespace_ = namespace_;
  integrate::PostRenderOutcome outcome = integrate::PostRender(request, findings);
  if (outcome.refused) {
    Report(*outcome.refused);
    return kExitUsage;
  }
  if (!findings.Finish() || findings.has_input_errors()) return kExitUsage;
  if (findings.has_errors()) return kExitFindings;
  WriteStdout(outcome.stream);
  return kExitClean;
}

}  // namespace tjr::cli
