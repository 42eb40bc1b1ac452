// `tjrender migrate`: rewrites TrainJobs written for Trainer v2.1
// (podTemplateOverrides, spec.labels/annotations) into runtimePatches, then
// shows what the upgrade changes in the rendered objects.
#include <boost/program_options.hpp>

#include <string>
#include <utility>
#include <vector>

#include "app/migrate_files.h"
#include "app/target_name.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/output.h"
#include "docdiff/unified_diff.h"
#include "migrate/compare.h"
#include "migrate/rewrite.h"

namespace tjr::cli {
namespace po = boost::program_options;

namespace {

const char kUsage[] =
    "usage: tjrender migrate PATH... [--manager NAME] [--write] [--accept-differences]\n"
    "                        [--target trainer-v2.3|trainer-pr3199-preview] [--namespace NS]\n"
    "                        [--threads N] [--repo DIR]\n\n"
    "Rewrites every TrainJob under PATH (files, directories, '-') from Trainer v2.1's\n"
    "spec.podTemplateOverrides and spec.labels/annotations into spec.runtimePatches, editing\n"
    "only those blocks: comments, key order, quoting and other documents stay as they are.\n"
    "Without --write it prints a unified diff; with --write it rewrites the files.\n"
    "Then it renders every TrainJob as written at trainer-v2.1 and as migrated at\n"
    "trainer-v2.3 and reports each difference of the rendered objects by field path.\n"
    "Runtimes come from the PATHs and, with --repo DIR, from the rest of DIR (as check\n"
    "--repo finds them). Helm chart templates are left alone.\n\n"
    "Overrides become RuntimePatches in order; an override that patches a job the current\n"
    "patch already patches starts the next one, managed by NAME-2, NAME-3, ...\n\n"
    "--target trainer-pr3199-preview (EXPERIMENTAL) writes spec.templateOverrides in the\n"
    "shape proposed by kubeflow/trainer PR #3199 instead (never released: one entry per\n"
    "override, keyed by manager, with job and pod lists); nothing is rendered for it.\n\n"
    "Exit codes: 0 nothing differs, 1 rendered differences (0 with --accept-differences),\n"
    "2 usage or input errors, including fields runtimePatches has no place for.\n";

// Prints what the run shows: diagnostics to stderr, each file's diff to
// stdout (unless written) and each rendered difference as a warning or,
// accepted, a note.
class MigratePrinter final : public app::MigrateSink {
 public:
  MigratePrinter(bool accept, std::string after_target) : accept_(accept), after_target_(std::move(after_target)) {}

  void Problem(const Diagnostic& problem) override { Report(problem); }
  void Migrated(const app::MigratedText& file) override {
    if (!file.written) WriteStdout(docdiff::UnifiedDiff(file.before, file.after, "a/" + file.name, "b/" + file.name));
  }
  void Compared(const migrate::TrainJobComparison& trainjob) override {
    for (const std::string& difference : trainjob.differences) {
      Diagnostic line;
      line.severity = accept_ ? Severity::kNote : Severity::kWarning;
      line.location = trainjob.location;
      line.message = after_target_ + " renders differently: " + difference;
      Report(line);
    }
  }

 private:
  bool accept_;
  std::string after_target_;
};

}  // namespace

int RunMigrate(const std::vector<std::string>& args) {
  migrate::RewriteOptions rewrite_options;
  migrate::CompareOptions compare_options;
  bool write = false;
  bool accept = false;
  std::string target = "trainer-v2.3";
  std::string repo;
  std::vector<std::string> paths;
  po::options_description named("options");
  named.add_options()("help,h", "show this help")(
      "manager", po::value(&rewrite_options.manager),
      "manager of the first RuntimePatch (trainer.kubeflow.org/kubeflow-sdk)")(
      "write", po::bool_switch(&write), "rewrite the files instead of printing a diff")(
      "accept-differences", po::bool_switch(&accept),
      "exit 0 even when the rendered objects differ")(
      "namespace", po::value(&compare_options.default_namespace),
      "namespace of objects written without one")(
      "threads", po::value(&compare_options.threads), "render threads (0: one per core)")(
      "repo", po::value(&repo), "also find the runtimes TrainJobs reference in this folder")(
      "target", po::value(&target),
      "trainer-v2.3 (runtimePatches, the default) or trainer-pr3199-preview (experimental)");
  if (auto exit_code = ParseCommandLine(args, named, &paths, kUsage)) return *exit_code;
  if (paths.empty()) {
    ReportUsageError("migrate needs PATH... (see tjrender migrate --help)");
    return kExitUsage;
  }
  target = app::CanonicalTarget(target);
  if (target == "trainer-pr3199-preview") {
    rewrite_options.shape = migrate::Shape::kTemplateOverridesPreview;
  } else if (target != compare_options.after_target) {
    ReportUsageError("--target " + target + ": migrate writes trainer-v2.3 (runtimePatches) or "
                     "trainer-pr3199-preview (experimental templateOverrides)");
    return kExitUsage;
  }
  if (std::string problem = migrate::CheckManager(rewrite_options.manager); !problem.empty()) {
    ReportUsageError("--manager " + rewrite_options.manager + ": " + problem);
    return kExitUsage;
  }

  app::MigrateRequest request;
  request.paths = std::move(paths);
  request.rewrite = rewrite_options;
  request.compare = compare_options;
  request.write = write;
  request.repo = repo;
  MigratePrinter printer(accept, compare_options.after_target);
  const app::MigrateOutcome outcome = app::MigrateFiles(request, printer);
  if (outcome.refused) return kExitUsage;
  if (!outcome.compared) {
    Diagnostic note;
    note.severity = Severity::kNote;
    note.message = "trainer-pr3199-preview is experimental: no Trainer release reads "
                   "templateOverrides, so nothing was rendered or compared";
    Report(note);
    return outcome.input_errors ? kExitUsage : kExitClean;
  }
  if (outcome.input_errors) return kExitUsage;
  if (outcome.differences > 0 && !accept) return kExitFindings;
  return kExitClean;
}

}  // namespace tjr::cli
