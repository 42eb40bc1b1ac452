// `tjrender post-render`: a Helm post-renderer (`helm install|upgrade|template
// --post-renderer tjrender --post-renderer-args post-render`). The manifest
// stream comes on stdin and goes back on stdout; TrainJobs and runtimes are
// checked, and in --mode render TrainJobs are replaced by what the Trainer
// controller would create.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
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
#include "report/format.h"

namespace tjr::cli {
namespace po = boost::program_options;

namespace {

const char kUsage[] =
    "usage: tjrender post-render [--mode validate|render] [--target T] [--namespace NS]\n"
    "                            [--runtimes PATH]... [--findings-format FORMAT] [--report FORMAT=FILE]...\n\n"
    "Reads a manifest stream on stdin and writes it to stdout. --mode validate (default): the\n"
    "stream comes back byte for byte once its TrainJobs and runtimes check clean. --mode render:\n"
    "each TrainJob document is replaced by the objects the Trainer controller would create\n"
    "(carrying the TrainJob's postrenderer.helm.sh/postrender-filename annotation), runtime\n"
    "documents are left out, every other document is passed through byte for byte.\n"
    "Objects written without a namespace are rendered without one, as Helm applies its release\n"
    "namespace itself; --namespace NS (Helm's release namespace) writes NS into them instead.\n"
    "--runtimes PATH (a file or folder, repeatable): runtimes the TrainJobs may refer to that the\n"
    "chart does not hold, such as the ClusterTrainingRuntimes the platform installed; never printed.\n"
    "Findings go to stderr; any error exits 1 with nothing on stdout. Helm shows a post-renderer's\n"
    "stderr only when it fails (Helm 3) or never (Helm 4), so under Helm they also go to the terminal\n"
    "(/dev/tty) when there is one, and to the report file TJRENDER_POST_RENDER_REPORT names\n"
    "(FORMAT=FILE, or FILE for text), as --report FORMAT=FILE does.\n";

// The environment variable naming a report file: Helm 3 runs the
// post-renderer with its own environment (pkg/postrender/exec.go,
// exec.Command), Helm 4 a plugin with os.Environ() and the plugin's
// variables (internal/plugin/runtime_subprocess.go:234), so it reaches
// post-render under both, where arguments differ.
constexpr char kReportVariable[] = "TJRENDER_POST_RENDER_REPORT";

// Helm 4 sets HELM_PLUGIN_NAME for a post-renderer plugin
// (internal/plugin/runtime_subprocess.go:237) and reads its stderr into a
// buffer nothing ever prints (:262-266; executeCmd, :171, logs only
// ExitError.Stderr, which is empty when cmd.Stderr is set): nothing
// post-render writes there is seen, on success or failure.
bool UnderHelmPluginRuntime() { return std::getenv("HELM_PLUGIN_NAME") != nullptr; }

// The controlling terminal, when there is one and stderr is not it; -1 otherwise.
int OpenTerminal() {
  if (isatty(STDERR_FILENO) != 0) return -1;
  return open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC);
}

// Under Helm 4 everything post-render says (usage errors too) goes to the
// terminal instead of the stderr Helm discards.
void StderrToTerminalUnderHelm4() {
  if (!UnderHelmPluginRuntime()) return;
  int terminal = OpenTerminal();
  if (terminal < 0) return;
  std::fflush(stderr);
  dup2(terminal, STDERR_FILENO);
  close(terminal);
}

// Helm 3 prints a post-renderer's stderr only inside the error of a failed
// run (pkg/postrender/exec.go:54-64, "error while running command ...
// error output:"); on success it is dropped. So a clean run's findings
// (warnings) and summary are written to the terminal as well.
void EchoToTerminalOnSuccess(const report::Results& results) {
  int terminal = OpenTerminal();
  if (terminal < 0) return;
  std::string text;
  for (const report::Finding& f : results.findings) text += f.diagnostic.ToString() + "\n";
  text += "tjrender post-render: " + report::SummaryLine(results) + "\n";
  for (std::size_t at = 0; at < text.size();) {
    ssize_t n = write(terminal, text.data() + at, text.size() - at);
    if (n <= 0) break;
    at += static_cast<std::size_t>(n);
  }
  close(terminal);
}

}  // namespace

int RunPostRender(const std::vector<std::string>& args) {
  std::string mode = "validate";
  std::string target;
  std::string namespace_;
  ReportOptions report_options;
  std::vector<std::string> runtime_paths;
  std::vector<std::string> positional;
  StderrToTerminalUnderHelm4();
  po::options_description named("options");
  named.add_options()("help,h", "show this help")("mode", po::value(&mode), "validate or render")(
      "target", po::value(&target), "emulated Trainer version")(
      "namespace", po::value(&namespace_), "namespace of objects written without one")(
      "runtimes", po::value(&runtime_paths)->composing(), "runtimes from elsewhere (file or folder, repeatable)")(
      "verbose,v", po::bool_switch(&report_options.verbose), "print notes");
  AddReportOptions(&named, &report_options, "findings-format");
  if (auto exit_code = ParseCommandLine(args, named, &positional, kUsage)) return *exit_code;
  if (!positional.empty() || (mode != "validate" && mode != "render")) {
    ReportUsageError("post-render reads stdin and takes --mode validate|render only");
    return kExitUsage;
  }
  if (const char* report = std::getenv(kReportVariable); report != nullptr && *report != '\0') {
    std::string spec = report;
    std::size_t equals = spec.find('=');
    if (equals == std::string::npos || !report::ParseFormat(spec.substr(0, equals))) spec = "text=" + spec;
    report_options.report_specs.push_back(std::move(spec));
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
  request.runtime_paths = std::move(runtime_paths);
  integrate::PostRenderOutcome outcome = integrate::PostRender(request, findings);
  if (outcome.refused) {
    Report(*outcome.refused);
    return kExitUsage;
  }
  if (!findings.Finish() || findings.has_input_errors()) return kExitUsage;
  if (findings.has_errors()) return kExitFindings;
  if (!UnderHelmPluginRuntime()) EchoToTerminalOnSuccess(findings.results());
  WriteStdout(outcome.stream);
  return kExitClean;
}

}  // namespace tjr::cli
