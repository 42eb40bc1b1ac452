// The command line behaves alike across commands: help, -o, target names,
// summaries, and the default target wherever it is documented.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "admission/rules.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/run.h"
#include "cli/test_support.h"
#include "pipeline/pipeline.h"
#include "pipeline/target.h"
#include "report/format.h"

namespace tjr::cli {
namespace {

using testing::Invoke;
using testing::Outcome;
using testing::SourcePath;

Outcome RunMain(std::vector<std::string> args) {
  args.insert(args.begin(), "tjrender");
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  int code = Run(static_cast<int>(argv.size()), argv.data());
  std::string out = ::testing::internal::GetCapturedStdout();
  return {code, out, ::testing::internal::GetCapturedStderr()};
}

std::string Read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(HelpTest, HelpCommandIsCommandDashDashHelp) {
  for (const Command& command : Commands()) {
    Outcome help = RunMain({"help", command.name});
    Outcome flag = RunMain({command.name, "--help"});
    EXPECT_EQ(help.exit_code, 0) << command.name << help.err;
    EXPECT_EQ(help.out, flag.out) << command.name;
    EXPECT_NE(help.out.find("usage: tjrender " + std::string(command.name)), std::string::npos) << help.out;
    // The option table follows the usage text.
    EXPECT_NE(help.out.find("  -h [ --help ]"), std::string::npos) << help.out;
    EXPECT_EQ(help.err, "");
  }
  Outcome unknown = RunMain({"help", "rendr"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("unknown command 'rendr'"), std::string::npos);
  EXPECT_EQ(unknown.out, "");
  Outcome check = RunMain({"help", "check"});
  EXPECT_NE(check.out.find("--strict-inputs"), std::string::npos) << check.out;
}

TEST(OutputFlagTest, DashOYamlAndJsonAreFormats) {
  const std::string repo = SourcePath("fixtures/trainer-repo");
  Outcome dash = Invoke(RunRender, {repo, "-o", "-"});
  Outcome yaml = Invoke(RunRender, {repo, "-o", "yaml"});
  Outcome json = Invoke(RunRender, {repo, "-o", "json"});
  Outcome format_json = Invoke(RunRender, {repo, "--format", "json"});
  ASSERT_EQ(dash.exit_code, 0) << dash.err;
  EXPECT_EQ(yaml.exit_code, 0);
  EXPECT_EQ(yaml.out, dash.out);
  EXPECT_EQ(json.exit_code, 0);
  EXPECT_EQ(json.out, format_json.out);
  EXPECT_EQ(json.out.front(), '{');
  Outcome clash = Invoke(RunRender, {repo, "-o", "json", "--format", "yaml"});
  EXPECT_EQ(clash.exit_code, 2);
  EXPECT_NE(clash.err.find("-o json and --format yaml disagree"), std::string::npos) << clash.err;
  EXPECT_EQ(Invoke(RunRender, {repo, "-o", "json", "--format", "json"}).out, json.out);
  EXPECT_EQ(Invoke(RunRender, {repo, "-o", "toml"}).exit_code, 2);
}

TEST(TargetNameTest, ShortFormsNameTheSameRelease) {
  const std::string repo = SourcePath("fixtures/trainer-repo");
  Outcome full = Invoke(RunRender, {repo, "--target", "trainer-v2.1"});
  ASSERT_EQ(full.exit_code, 0) << full.err;
  for (const char* alias : {"v2.1", "2.1", "v2.1.0", "trainer-v2.1.0"}) {
    Outcome run = Invoke(RunRender, {repo, "--target", alias});
    EXPECT_EQ(run.exit_code, 0) << alias << run.err;
    EXPECT_EQ(run.out, full.out) << alias;
  }
  Outcome wrong = Invoke(RunRender, {repo, "--target", "v2.0"});
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_NE(wrong.err.find("unsupported target 'v2.0'"), std::string::npos) << wrong.err;
}

TEST(SummaryTest, CheckCountsWhatItChecked) {
  // fixtures/trainer-repo: 4 TrainJobs rendered into 4 JobSets and one MPI
  // hostfile ConfigMap, 7 runtimes, nothing skipped (its LICENSE is no
  // manifest file), and nothing else on stderr: the sample is clean.
  Outcome run = Invoke(RunCheck, {SourcePath("fixtures/trainer-repo")});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, "5 objects rendered, 11 checked, 0 files skipped, 0 errors, 0 warnings\n");
}

// The default target is pipeline::kDefaultTarget everywhere it is written
// down: the options' default, --help, the Argo CD plugin's tooltip (both
// copies), the README and the docs (the manual's commands, the plugin's
// parameters in docs/integrations.md).
TEST(DefaultTargetTest, DocumentedWhereverTheCodeUsesIt) {
  const std::string target(pipeline::kDefaultTarget);
  EXPECT_EQ(pipeline::PipelineOptions{}.target, target);
  EXPECT_NE(RunMain({"help", "render"}).out.find("else " + target + ")"), std::string::npos);
  EXPECT_NE(RunMain({"help", "argocd-generate"}).out.find("target " + target + ")"), std::string::npos);
  EXPECT_NE(RunMain({"help", "diff"}).out.find("else " + target + ")"), std::string::npos);
  // Every "else trainer-vX" (a default with its fallback) names the code's.
  auto fallbacks = [](const std::string& text, const std::string& lead) {
    std::vector<std::string> found;
    for (std::size_t at = text.find(lead + "trainer-v"); at != std::string::npos;
         at = text.find(lead + "trainer-v", at + 1)) {
      std::size_t start = at + lead.size();
      std::size_t end = text.find_first_not_of("0123456789.", start + 9);
      if (end > start && text[end - 1] == '.') --end;  // a sentence's full stop
      found.push_back(text.substr(start, end - start));
    }
    return found;
  };
  for (const char* file : {"integrations/argocd/plugin.yaml", "integrations/argocd/configmap.yaml"}) {
    const std::string text = Read(SourcePath(file));
    EXPECT_NE(text.find(".tjrender.yaml, else " + target + ")"), std::string::npos) << file;
    for (const std::string& named : fallbacks(text, "else ")) EXPECT_EQ(named, target) << file;
  }
  const std::string readme = Read(SourcePath("README.md"));
  const std::string manual = Read(SourcePath("docs/manual.md"));
  const std::string integrations = Read(SourcePath("docs/integrations.md"));
  EXPECT_NE(integrations.find("| `target` | `.tjrender.yaml`, else `" + target + "` |"), std::string::npos);
  EXPECT_NE(readme.find("default `" + target + "`"), std::string::npos);
  EXPECT_NE(manual.find("default `" + target + "`"), std::string::npos);
  for (const std::string& doc : {readme, manual, integrations}) {
    for (const std::string& named : fallbacks(doc, "else `")) EXPECT_EQ(named, target);
  }
}

// SARIF's rule descriptions (report/format.cc) describe rules the manual's
// rule list names: a renamed or dropped rule cannot linger in code scanning.
TEST(RuleListTest, EveryDescribedRuleIsInTheManualsRuleList) {
  const std::string manual = Read(SourcePath("docs/manual.md"));
  const std::size_t start = manual.find("\n## Findings\n");
  const std::size_t end = manual.find("\n## ", start + 1);
  ASSERT_NE(start, std::string::npos);
  ASSERT_NE(end, std::string::npos);
  const std::string findings = manual.substr(start, end - start);
  for (std::string_view id : report::DescribedRules()) {
    if (id.starts_with("upstream/") && id != "upstream/error" && id != "upstream/warning" &&
        findings.find("`upstream/<type>`") != std::string::npos) {
      continue;  // listed by pattern, after apimachinery's field error types
    }
    EXPECT_NE(findings.find("`" + std::string(id) + "`"), std::string::npos) << id;
  }
}

// Every rule id the code gives a finding (a `k...Rule...[] = "id"`
// constant or a `.rule = "id"` assignment in src/, tests aside) has its
// SARIF description: code scanning shows a rule without one by its first
// message alone. An id in src/admission/ is the <id> of rendered/<kind>/<id>,
// described by its row of the admission catalogue (report/format.cc
// RenderedRule).
TEST(RuleListTest, EveryRuleOfTheCodeIsDescribed) {
  const std::regex constant(R"re(constexpr\s+(?:char|std::string_view)\s+k\w*Rule\w*(?:\[\])?\s*=\s*"([a-z][a-z0-9/-]*)")re");
  const std::regex assigned(R"re(\.rule\s*=\s*"([a-z][a-z0-9/-]*)")re");
  const std::vector<std::string_view> described = report::DescribedRules();
  std::set<std::string> found;
  std::set<std::string> admission_ids;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(SourcePath("src"))) {
    const std::string path = entry.path().string();
    if (!entry.is_regular_file() || path.ends_with("_test.cc") || path.find("/testkit/") != std::string::npos ||
        !(path.ends_with(".cc") || path.ends_with(".h"))) {
      continue;
    }
    const std::string text = Read(path);
    std::set<std::string>& ids = path.find("/src/admission/") != std::string::npos ? admission_ids : found;
    for (const std::regex* pattern : {&constant, &assigned}) {
      for (std::sregex_iterator it(text.begin(), text.end(), *pattern), end; it != end; ++it) {
        ids.insert((*it)[1].str());
      }
    }
  }
  EXPECT_GT(found.size(), 20u) << "the patterns no longer find the rule ids";
  EXPECT_GT(admission_ids.size(), 10u) << "the patterns no longer find the admission rule ids";
  for (const std::string& id : found) {
    EXPECT_NE(std::find(described.begin(), described.end(), id), described.end())
        << id << " has no description in report/format.cc";
  }
  for (const std::string& id : admission_ids) {
    EXPECT_NE(admission::FindRule(id), nullptr) << id << " has no row in the admission catalogue (admission/rules.h)";
    EXPECT_FALSE(report::RuleDescription("rendered/job/" + id).empty()) << id;
  }
}

}  // namespace
}  // namespace tjr::cli
