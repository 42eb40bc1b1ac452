#include "diff/json_format.h"

#include <gtest/gtest.h>

#include "diff/test_util.h"
#include "json/json.h"

namespace tjr::diff {
namespace {
using testing::JobSet;
using testing::Refused;
using testing::Rendered;

TEST(FormatJson, EveryKeySortedAndPresent) {
  RevisionRender base;
  base.train_jobs.push_back(Rendered("default/a", JobSet("a", "default", "torch:1")));
  RevisionRender head;
  head.train_jobs.push_back(Rendered("default/a", JobSet("a", "default", "torch:2")));
  head.train_jobs.push_back(Refused("default/bad", "runtimeRef is immutable"));
  const std::string json = FormatJson(Compare(base, head, {"main", "HEAD", 0}), {"main", "HEAD"});
  EXPECT_EQ(json,
            "{\n"
            "    \"base\": \"main\",\n"
            "    \"differences\": true,\n"
            "    \"findings\": [\n"
            "        {\n"
            "            \"column\": 5,\n"
            "            \"fieldPath\": \"spec\",\n"
            "            \"file\": \"jobs.yaml\",\n"
            "            \"line\": 3,\n"
            "            \"message\": \"runtimeRef is immutable\",\n"
            "            \"severity\": \"error\",\n"
            "            \"side\": \"head\",\n"
            "            \"text\": \"jobs.yaml:3:5: error: spec: runtimeRef is immutable\",\n"
            "            \"trainJob\": \"default/bad\"\n"
            "        }\n"
            "    ],\n"
            "    \"head\": \"HEAD\",\n"
            "    \"nothingCompared\": false,\n"
            "    \"objects\": [\n"
            "        {\n"
            "            \"apiVersion\": \"jobset.x-k8s.io/v1alpha2\",\n"
            "            \"change\": \"changed\",\n"
            "            \"diff\": \"--- main/JobSet/default/a\\n+++ HEAD/JobSet/default/a\\n@@ -15 +15 @@\\n"
            "-            - image: torch:1\\n+            - image: torch:2\\n\",\n"
            "            \"kind\": \"JobSet\",\n"
            "            \"name\": \"a\",\n"
            "            \"namespace\": \"default\",\n"
            "            \"trainJob\": \"default/a\"\n"
            "        }\n"
            "    ],\n"
            "    \"refused\": {\n"
            "        \"base\": [],\n"
            "        \"head\": [\n"
            "            \"default/bad\"\n"
            "        ]\n"
            "    },\n"
            "    \"schemaVersion\": 1,\n"
            "    \"summary\": {\n"
            "        \"added\": 0,\n"
            "        \"changed\": 1,\n"
            "        \"errorsAtBase\": 0,\n"
            "        \"errorsAtHead\": 1,\n"
            "        \"removed\": 0,\n"
            "        \"trainJobs\": 2,\n"
            "        \"unchanged\": 0\n"
            "    }\n"
            "}\n");
}

TEST(FormatJson, NoDifferencesIsValidJson) {
  const std::string json = FormatJson(Compare({}, {}));
  Result<doc::Node> parsed = json::Read(json, "out.json");
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
  EXPECT_FALSE(parsed->Find("differences")->bool_value());
  EXPECT_TRUE(parsed->Find("objects")->is_sequence());
  EXPECT_EQ(parsed->Find("objects")->size(), 0u);
}

}  // namespace
}  // namespace tjr::diff
