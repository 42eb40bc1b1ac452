// The findings collector on its own: ignore rules, counts and observers,
// without the CLI that prints them.
#include "app/findings.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tjr::app {
namespace {

Diagnostic Warning(std::string rule, std::string message) {
  Diagnostic d;
  d.severity = Severity::kWarning;
  d.location = Location{InternSourceName("jobs/a.yaml"), 3, 5};
  d.rule = std::move(rule);
  d.message = std::move(message);
  return d;
}

const report::ObjectRef kJob{"trainer.kubeflow.org/v1alpha1", "TrainJob", "team", "a"};
const report::ObjectRef kOtherJob{"trainer.kubeflow.org/v1alpha1", "TrainJob", "team", "b"};

TEST(FindingsTest, AGlobalRuleSilencesItsWarningEverywhere) {
  Findings findings;
  std::vector<std::string> kept;
  std::vector<std::string> ignored;
  findings.SetObservers(
      {[&](const Diagnostic& d) { kept.push_back(d.message); },
       [&](const Diagnostic& d, const report::Finding& f) { ignored.push_back(f.rule + " " + d.message); }, nullptr});
  report::Ignores ignores;
  ignores.global.push_back({"volume-two-sources", "the chart sets both on purpose"});
  findings.SetIgnores(ignores);
  findings.Add(Warning("volume-two-sources", "two sources"), kJob);
  findings.Add(Warning("env-value-and-valuefrom", "both set"), kJob);
  EXPECT_EQ(kept, std::vector<std::string>{"both set"});
  EXPECT_EQ(ignored, std::vector<std::string>{"volume-two-sources two sources"});
  ASSERT_EQ(findings.findings().size(), 1u);
  EXPECT_EQ(findings.findings()[0].rule, "env-value-and-valuefrom");
  EXPECT_EQ(findings.results().ignored, 1u);
  EXPECT_FALSE(findings.has_errors());
}

TEST(FindingsTest, AnObjectsRuleSilencesOnlyThatObject) {
  Findings findings;
  report::Ignores ignores;
  ignores.by_object[kJob.Key()].push_back({"upstream/*", "known"});
  findings.SetIgnores(ignores);
  findings.Add(Warning("upstream/warning", "deprecated"), kJob);
  findings.Add(Warning("upstream/warning", "deprecated"), kOtherJob);
  ASSERT_EQ(findings.findings().size(), 1u);
  EXPECT_EQ(findings.findings()[0].object.name, "b");
  EXPECT_TRUE(findings.Ignores(kJob, Warning("upstream/warning", "x")));
  EXPECT_FALSE(findings.Ignores(kOtherJob, Warning("upstream/warning", "x")));
}

TEST(FindingsTest, ErrorsAreNeverIgnoredAndCountByCategory) {
  Findings findings;
  report::Ignores ignores;
  ignores.global.push_back({"*", "everything"});
  findings.SetIgnores(ignores);
  Diagnostic refused = Warning("upstream/invalid-value", "spec.numNodes: Invalid value: -1");
  refused.severity = Severity::kError;
  findings.Add(refused, kJob);
  EXPECT_TRUE(findings.has_errors());
  EXPECT_FALSE(findings.has_input_errors());
  findings.Add(AsInputError(MakeError(Location{InternSourceName("b.yaml")}, "", "not YAML")));
  EXPECT_TRUE(findings.has_input_errors());
  EXPECT_EQ(findings.findings().size(), 2u);
}

TEST(FindingsTest, NotesAreShownNeverKept) {
  Findings findings;
  int notes = 0;
  findings.SetObservers({nullptr, nullptr, [&](const Diagnostic&) { ++notes; }});
  Diagnostic note = Warning("", "skipped a Helm template");
  note.severity = Severity::kNote;
  findings.Add(note);
  EXPECT_EQ(notes, 1);
  EXPECT_TRUE(findings.findings().empty());
}

TEST(FindingsTest, TheLocationMapMovesWhatIsShownNotWhichObjectItIsAbout) {
  Findings findings;
  std::vector<std::string> shown;
  findings.SetObservers({[&](const Diagnostic& d) { shown.push_back(d.location.ToString()); }, nullptr, nullptr});
  findings.SetLocationMap(
      [](const Location& at) { return Location{InternSourceName("items/0.yaml"), at.line - 2, at.column}; });
  findings.Add(Warning("r", "m"), kJob);
  EXPECT_EQ(shown, std::vector<std::string>{"items/0.yaml:1:5"});
  EXPECT_EQ(findings.findings()[0].object.name, "a");
}

TEST(FindingsTest, AnIgnoreAnnotationWithoutAReasonIsAFindingAndStillApplies) {
  source::ManifestSet manifests;
  source::Manifest job;
  job.id = doc::ObjectId{"trainer.kubeflow.org/v1alpha1", "TrainJob", "team", "a"};
  doc::Node object = doc::Node::Mapping();
  doc::Node metadata = doc::Node::Mapping();
  doc::Node annotations = doc::Node::Mapping();
  annotations.Set("tjrender.dev/ignore", doc::Node::String("volume-two-sources"));
  metadata.Set("annotations", annotations);
  object.Set("metadata", metadata);
  job.object = object;
  manifests.manifests.push_back(job);
  Findings findings;
  report::Ignores ignores = CollectIgnores({}, manifests, &findings);
  ASSERT_EQ(findings.findings().size(), 1u);
  EXPECT_EQ(findings.findings()[0].rule, report::kRuleIgnoreWithoutReason);
  findings.SetIgnores(ignores);
  findings.Add(Warning("volume-two-sources", "two sources"), kJob);
  EXPECT_EQ(findings.findings().size(), 1u);
}

}  // namespace
}  // namespace tjr::app
