// `tjrender merge`: a drop-in for kubectl's local strategic-merge patch.
#include <boost/program_options.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

#include "base/file.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/output.h"
#include "kubectl/patch_local.h"

namespace tjr::cli {
namespace po = boost::program_options;

namespace {

const char kUsage[] =
    "usage: tjrender merge OBJECT PATCH [-o yaml|json] [--jobset-version v0.10|v0.12] [--typed]\n"
    "       tjrender merge --batch LIST [-o yaml|json] [--jobset-version ...]\n\n"
    "Prints what `kubectl patch --local -f OBJECT --type strategic --patch-file PATCH -o yaml`\n"
    "prints, byte for byte, for Pod, PodTemplate, Job and JobSet objects.\n"
    "LIST has one case per line, OBJECT<TAB>PATCH<TAB>OUT: the output goes to OUT, a refusal\n"
    "to OUT.err.\n";

Result<std::string> MergeFiles(const std::string& object_path, const std::string& patch_path,
                               const kubectl::PatchLocalOptions& options) {
  auto object = ReadFile(object_path);
  if (!object.ok()) return object.take_error();
  auto patch = ReadFile(patch_path);
  if (!patch.ok()) return patch.take_error();
  return kubectl::PatchLocal(*object, object_path, *patch, patch_path, options);
}

int RunBatch(const std::string& list_path, const kubectl::PatchLocalOptions& options) {
  auto list = ReadFile(list_path);
  if (!list.ok()) {
    Report(list.error());
    return kExitUsage;
  }
  std::istringstream lines(*list);
  std::string line;
  int line_number = 0;
  while (std::getline(lines, line)) {
    ++line_number;
    if (line.empty()) continue;
    std::size_t first = line.find('\t');
    std::size_t second = first == std::string::npos ? first : line.find('\t', first + 1);
    if (second == std::string::npos) {
      Report(MakeError(Location{InternSourceName(list_path), static_cast<std::uint32_t>(line_number), 1},
                       "", "expected OBJECT<TAB>PATCH<TAB>OUT"));
      return kExitUsage;
    }
    std::string out_path = line.substr(second + 1);
    auto merged = MergeFiles(line.substr(0, first), line.substr(first + 1, second - first - 1),
                             options);
    Status written = merged.ok() ? WriteFileAtomically(out_path, *merged)
                                 : WriteFileAtomically(out_path + ".err",
                                                       merged.error().ToString() + "\n");
    if (!written.ok()) {
      Report(written.error());
      return kExitUsage;
    }
  }
  return kExitClean;
}

}  // namespace

int RunMerge(const std::vector<std::string>& args) {
  std::string output = "yaml";
  std::string jobset_version = "v0.10";
  std::string batch;
  std::vector<std::string> positional;
  kubectl::PatchLocalOptions options;
  po::options_description named("options");
  named.add_options()("help,h", "show this help")(
      "output,o", po::value(&output), "yaml (default) or json")(
      "jobset-version", po::value(&jobset_version), "v0.10 (default) or v0.12")(
      "batch", po::value(&batch), "run every case listed in this file")(
      "typed", po::bool_switch(&options.typed),
      "then decode into the Go type and encode again, as the Trainer controller does");
  if (auto exit_code = ParseCommandLine(args, named, &positional, kUsage)) return *exit_code;
  if (output == "json") {
    options.output = kubectl::OutputFormat::kJson;
  } else if (output != "yaml") {
    ReportUsageError("--output must be yaml or json, not '" + output + "'");
    return kExitUsage;
  }
  if (jobset_version != "v0.10" && jobset_version != "v0.12") {
    ReportUsageError("--jobset-version must be v0.10 or v0.12, not '" + jobset_version + "'");
    return kExitUsage;
  }
  options.jobset_version = jobset_version;

  if (!batch.empty()) {
    if (!positional.empty()) {
      ReportUsageError("--batch takes no OBJECT or PATCH arguments");
      return kExitUsage;
    }
    return RunBatch(batch, options);
  }
  if (positional.size() != 2) {
    ReportUsageError("merge needs OBJECT and PATCH (see tjrender merge --help)");
    return kExitUsage;
  }
  auto merged = MergeFiles(positional[0], positional[1], options);
  if (!merged.ok()) {
    Report(merged.error());
    // kubectl exits 1 on a refused patch; unusable input exits 2.
    return merged.error().category == Category::kInput ? kExitUsage : kExitFindings;
  }
  WriteStdout(*merged);
  return kExitClean;
}

}  // namespace tjr::cli
