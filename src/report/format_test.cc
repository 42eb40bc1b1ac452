#include "report/format.h"

#include <gtest/gtest.h>

#include "json/json.h"

namespace tjr::report {
namespace {

Finding At(const char* file, std::uint32_t line, std::uint32_t column, Severity severity,
           std::string message, std::string path = "") {
  const Location at{InternSourceName(file), line, column};
  Diagnostic d = MakeError(at, std::move(path), message);
  d.severity = severity;
  // An upstream field error carries its type's rule from where it is made.
  if (message.find(": Invalid value: ") != std::string::npos) d.rule = "upstream/invalid-value";
  if (message.starts_with("[")) {  // a tjrender warning, "[rule] text"
    const std::size_t close = message.find("] ");
    d = MakeWarning(at, message.substr(1, close - 1), message.substr(close + 2));
  }
  return MakeFinding(d, ObjectRef{"trainer.kubeflow.org/v1alpha1", "TrainJob", "ml", "job"});
}

Results SampleResults() {
  Results run;
  run.objects_rendered = 3;
  run.objects_checked = 4;
  run.files_skipped = 2;
  run.subjects = {ObjectRef{"trainer.kubeflow.org/v1alpha1", "TrainJob", "ml", "job"},
                  ObjectRef{"trainer.kubeflow.org/v1alpha1", "TrainJob", "ml", "clean"}};
  run.findings.push_back(At("repo/a.yaml", 6, 3, Severity::kError,
                            "spec.runtimeRef: Invalid value: \"x\": not found", "spec.runtimeRef"));
  run.findings.push_back(At("repo/a.yaml", 9, 5, Severity::kWarning,
                            "[volume-two-sources] volume \"data\" has 2 sources"));
  return run;
}

TEST(ParseFormat, KnowsTheFiveNames) {
  EXPECT_EQ(ParseFormat("sarif"), Format::kSarif);
  EXPECT_EQ(ParseFormat("github"), Format::kGithub);
  EXPECT_FALSE(ParseFormat("yaml").has_value());
}

TEST(Text, OneLinePerFindingThenTheSummary) {
  EXPECT_EQ(WriteText(SampleResults()),
            "repo/a.yaml:6:3: error: spec.runtimeRef: Invalid value: \"x\": not found\n"
            "repo/a.yaml:9:5: warning: [volume-two-sources] volume \"data\" has 2 sources\n"
            "3 objects rendered, 4 checked, 2 files skipped, 1 errors, 1 warnings\n");
}

TEST(Json, EveryFindingCarriesRuleSeverityLocationPathAndMessage) {
  std::string text = WriteJson(SampleResults());
  auto parsed = json::Read(text, "report.json");
  ASSERT_TRUE(parsed.ok()) << text;
  const doc::Node& findings = *parsed->Find("findings");
  ASSERT_EQ(findings.size(), 2u);
  const doc::Node& first = findings[0];
  EXPECT_EQ(first.Find("rule")->string_value(), "upstream/invalid-value");
  EXPECT_EQ(first.Find("severity")->string_value(), "error");
  EXPECT_EQ(first.Find("file")->string_value(), "repo/a.yaml");
  EXPECT_EQ(first.Find("line")->int_value(), 6);
  EXPECT_EQ(first.Find("column")->int_value(), 3);
  EXPECT_EQ(first.Find("fieldPath")->string_value(), "spec.runtimeRef");
  EXPECT_EQ(first.Find("object")->Find("name")->string_value(), "job");
  // The rule is not repeated in the message.
  EXPECT_EQ(findings[1].Find("message")->string_value(), "volume \"data\" has 2 sources");
  EXPECT_EQ(findings[1].Find("rule")->string_value(), "volume-two-sources");
  EXPECT_EQ(parsed->Find("summary")->Find("objectsRendered")->int_value(), 3);
  EXPECT_EQ(parsed->Find("summary")->Find("objectsChecked")->int_value(), 4);
  EXPECT_EQ(parsed->Find("summary")->Find("filesSkipped")->int_value(), 2);
  EXPECT_EQ(parsed->Find("summary")->Find("warnings")->int_value(), 1);
}

TEST(Junit, OneCasePerObjectCleanOnesIncluded) {
  std::string xml = WriteJunit(SampleResults());
  EXPECT_NE(xml.find("<testsuites tests=\"2\" failures=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<testcase name=\"ml/clean\" classname=\"TrainJob@trainer.kubeflow.org/v1alpha1\"/>"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<failure message=\"spec.runtimeRef: Invalid value: &quot;x&quot;: not found\" "
                     "type=\"upstream/invalid-value\">"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<system-out>repo/a.yaml:9:5: warning: [volume-two-sources]"),
            std::string::npos)
      << xml;
}

TEST(Sarif, ResultsPointAtRulesAndRegions) {
  std::string text = WriteSarif(SampleResults(), {.tool_version = "1.2.3"});
  auto parsed = json::Read(text, "report.sarif");
  ASSERT_TRUE(parsed.ok()) << text;
  EXPECT_EQ(parsed->Find("version")->string_value(), "2.1.0");
  const doc::Node& run = (*parsed->Find("runs"))[0];
  const doc::Node& rules = *run.Find("tool")->Find("driver")->Find("rules");
  ASSERT_EQ(rules.size(), 2u);
  EXPECT_EQ(rules[1].Find("id")->string_value(), "volume-two-sources");
  // Every rule carries a title, a description and a help text (code
  // scanning's alert title, its text and "Rule help").
  EXPECT_EQ(rules[1].Find("shortDescription")->Find("text")->string_value(),
            "a volume of the rendered pod has more than one source");
  EXPECT_EQ(rules[1].Find("fullDescription")->Find("text")->string_value(),
            "a volume of the rendered pod has more than one source. A patch merged a second source (configMap, "
            "persistentVolumeClaim, ...) into a volume the runtime defines: the API server refuses the pod.");
  EXPECT_EQ(rules[1].Find("help")->Find("text")->string_value(),
            "Replace the volume in the override with $patch: replace, or rename it. The rule volume-two-sources is "
            "in the rule list of tjrender's manual (docs/manual.md, Findings). To keep it with a reason: the "
            "annotations tjrender.dev/ignore: volume-two-sources and tjrender.dev/ignore-reason, or an ignore: "
            "entry of .tjrender.yaml.");
  for (std::size_t i = 0; i < rules.size(); ++i) {
    for (const char* key : {"shortDescription", "fullDescription", "help"}) {
      ASSERT_NE(rules[i].Find(key), nullptr) << i << " " << key;
      EXPECT_FALSE(rules[i].Find(key)->Find("text")->string_value().empty()) << i << " " << key;
    }
  }
  const doc::Node& result = (*run.Find("results"))[1];
  EXPECT_EQ(result.Find("ruleIndex")->int_value(), 1);
  EXPECT_EQ(result.Find("level")->string_value(), "warning");
  const doc::Node& physical = *(*result.Find("locations"))[0].Find("physicalLocation");
  EXPECT_EQ(physical.Find("artifactLocation")->Find("uri")->string_value(), "repo/a.yaml");
  EXPECT_EQ(physical.Find("region")->Find("startLine")->int_value(), 9);
  EXPECT_EQ(physical.Find("region")->Find("startColumn")->int_value(), 5);
}

TEST(Sarif, ARuleNotInTheTableIsDescribedByItsFirstFinding) {
  Results run;
  Finding finding = At("a.yaml", 3, 1, Severity::kWarning, "x");
  finding.rule = "some-new-rule";
  finding.diagnostic = MakeWarning(Location{InternSourceName("a.yaml"), 3, 1}, "some-new-rule", "what it found");
  run.findings.push_back(finding);
  auto parsed = json::Read(WriteSarif(run, {}), "report.sarif");
  ASSERT_TRUE(parsed.ok());
  const doc::Node& rule = (*(*parsed->Find("runs"))[0].Find("tool")->Find("driver")->Find("rules"))[0];
  EXPECT_EQ(rule.Find("shortDescription")->Find("text")->string_value(), "tjrender some-new-rule");
  EXPECT_EQ(rule.Find("fullDescription")->Find("text")->string_value(),
            "tjrender some-new-rule. As first found: what it found");
  EXPECT_NE(rule.Find("help")->Find("text")->string_value().find("tjrender.dev/ignore: some-new-rule"),
            std::string::npos);
}

// Every rule id the table describes is one the manual's rule list names,
// so the table cannot keep a rule the manual dropped or misspelled.
TEST(RuleHelp, KnownRulesHaveEveryTextAndLookUpByTheirId) {
  for (std::string_view id : {"duplicate-object", "field-pruned", "upstream/invalid-value", "input"}) {
    RuleHelp help = HelpOf(id);
    EXPECT_FALSE(help.description.empty()) << id;
    EXPECT_FALSE(help.explanation.empty()) << id;
    EXPECT_FALSE(help.help.empty()) << id;
    EXPECT_EQ(RuleDescription(id), help.description) << id;
  }
  EXPECT_TRUE(HelpOf("no-such-rule").description.empty());
}

TEST(Sarif, UrisArePercentEncodedAndAbsolutePathsAreFileUris) {
  Results run;
  run.findings.push_back(At("/tmp/my dir/a#1.yaml", 1, 1, Severity::kError, "x"));
  run.findings.push_back(At("./rel/b.yaml", 0, 0, Severity::kError, "y"));
  std::string text = WriteSarif(run, {});
  EXPECT_NE(text.find("\"uri\": \"file:///tmp/my%20dir/a%231.yaml\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"uri\": \"rel/b.yaml\""), std::string::npos) << text;
  // No region without a line (the schema's minimum is 1).
  EXPECT_EQ(text.find("\"startLine\": 0"), std::string::npos) << text;
}

TEST(Github, AnnotationsEscapeDataAndProperties) {
  Results run;
  run.findings.push_back(At("dir,x/a:b.yaml", 4, 2, Severity::kError, "100% bad\r\nsecond line"));
  std::string out = WriteGithub(run, {});
  EXPECT_EQ(out,
            "::error file=dir%2Cx/a%3Ab.yaml,line=4,col=2,title=tjrender upstream/error::"
            "TrainJob ml/job: 100%25 bad%0D%0Asecond line\n"
            "0 objects rendered, 0 checked, 0 files skipped, 1 errors, 0 warnings\n");
}

TEST(Github, RespectsThePerStepLimitsAndSaysWhatWasCut) {
  Results run;
  for (int i = 0; i < 12; ++i) run.findings.push_back(At("a.yaml", 1, 1, Severity::kError, "e"));
  for (int i = 0; i < 11; ++i) run.findings.push_back(At("a.yaml", 1, 1, Severity::kWarning, "w"));
  std::string out = WriteGithub(run, {});
  auto count = [&](std::string_view needle) {
    std::size_t n = 0;
    for (std::size_t at = out.find(needle); at != std::string::npos; at = out.find(needle, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("::error "), 10u);
  EXPECT_EQ(count("::warning "), 10u);
  EXPECT_EQ(count("::notice "), 1u);
  EXPECT_NE(out.find("2 more error(s) and 1 more warning(s)"), std::string::npos) << out;
  // The cut findings are still in the log, as plain lines.
  EXPECT_EQ(count("a.yaml:1:1: error: e\n"), 2u);
  EXPECT_EQ(count("a.yaml:1:1: warning: w\n"), 1u);
}

// File names may hold any byte but '/' and NUL, and messages quote YAML
// values: no format may let them split a line, drive a terminal or pose as
// a workflow command.
Results HostileResults() {
  Results run;
  run.findings.push_back(At("dir/a\nb.yaml", 2, 1, Severity::kError, "value \"\x1b[31mred\" is bad"));
  run.findings.push_back(At("::error file=x::boom.yaml", 1, 1, Severity::kWarning, "[volume-two-sources] w"));
  run.findings.push_back(At("bad\xff\t.yaml", 3, 1, Severity::kError, "x"));
  return run;
}

TEST(Text, HostileNamesAndValuesStayOnTheirLineEscaped) {
  EXPECT_EQ(WriteText(HostileResults()),
            "\"dir/a\\nb.yaml\":2:1: error: value \"\\033[31mred\" is bad\n"
            "\"::error file=x::boom.yaml\":1:1: warning: [volume-two-sources] w\n"
            "\"bad\\377\\t.yaml\":3:1: error: x\n"
            "0 objects rendered, 0 checked, 0 files skipped, 2 errors, 1 warnings\n");
}

TEST(Github, HostileNamesAreEscapedPropertiesAndControlsInMessagesEscapes) {
  WriteOptions one_error;
  one_error.github_max_errors = 1;
  std::string out = WriteGithub(HostileResults(), one_error);
  EXPECT_EQ(out,
            "::error file=dir/a%0Ab.yaml,line=2,col=1,title=tjrender upstream/error::"
            "TrainJob ml/job: value \"\\033[31mred\" is bad\n"
            "::warning file=%3A%3Aerror file=x%3A%3Aboom.yaml,line=1,col=1,title=tjrender volume-two-sources::"
            "TrainJob ml/job: w\n"
            "\"bad\\377\\t.yaml\":3:1: error: x\n"
            "::notice title=tjrender::1 more error(s) and 0 more warning(s) are in the log above but not "
            "annotated: GitHub shows 1 error and 10 warning annotations per step (50 per job); upload --report "
            "sarif=FILE to code scanning to see all of them\n"
            "0 objects rendered, 0 checked, 0 files skipped, 2 errors, 1 warnings\n");
}

TEST(Github, AControlInAFileNameIsPercentEncodedNeverRaw) {
  Results run;
  run.findings.push_back(At("\x1b[31mred\t.yaml", 1, 1, Severity::kError, "x"));
  const std::string out = WriteGithub(run, WriteOptions{});
  EXPECT_EQ(out.substr(0, out.find(',')), "::error file=%1B[31mred%09.yaml");
  EXPECT_EQ(out.find('\x1b'), std::string::npos) << out;
}

TEST(Junit, HostileNamesAndValuesAreShownEscapedNotReplaced) {
  Results run;
  Diagnostic d = MakeError(Location{InternSourceName("a\x1b[2J.yaml"), 1, 1}, "", "value \"\x01\" is bad");
  run.findings.push_back(MakeFinding(d));
  std::string out = WriteJunit(run);
  EXPECT_NE(out.find("<testcase name=\"&quot;a\\033[2J.yaml&quot;\" classname=\"file\">"), std::string::npos)
      << out;
  EXPECT_NE(out.find("<failure message=\"value &quot;\\001&quot; is bad\""), std::string::npos) << out;
  EXPECT_EQ(out.find('\x1b'), std::string::npos) << out;
  EXPECT_EQ(out.find("\xEF\xBF\xBD"), std::string::npos) << out;  // no U+FFFD: nothing lost
}

TEST(Sarif, HostileNamesArePercentEncodedUris) {
  std::string text = WriteSarif(HostileResults(), {});
  EXPECT_NE(text.find("\"uri\": \"dir/a%0Ab.yaml\""), std::string::npos) << text;
  // A ':' in the first segment would read as a scheme (RFC 3986 §4.2).
  EXPECT_NE(text.find("\"uri\": \"%3A%3Aerror%20file=x%3A%3Aboom.yaml\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"uri\": \"bad%FF%09.yaml\""), std::string::npos) << text;
  EXPECT_NE(text.find("value \\\"\\u001b[31mred\\\" is bad"), std::string::npos) << text;
}

}  // namespace
}  // namespace tjr::report
