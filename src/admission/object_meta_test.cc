// Cases after apimachinery's TestValidateLabels (pkg/apis/meta/v1/
// validation/validation_test.go) and the ObjectMeta tests of
// pkg/api/validation/objectmeta_test.go, with the texts of v0.34's
// pkg/util/validation/validation.go.
#include "admission/object_meta.h"

#include <gtest/gtest.h>

#include "base/object_name.h"
#include "yaml/reader.h"

namespace tjr::admission {
namespace {

using Lines = std::vector<std::string>;

doc::Node Read(std::string_view yaml) {
  Result<std::vector<doc::Node>> read = yaml::ReadStream(yaml, "meta.yaml");
  EXPECT_TRUE(read.ok());
  return read.ok() && !read->empty() ? read->front() : doc::Node::Mapping();
}

Lines Texts(const ObjectErrors& errors) {
  Lines out;
  for (const ObjectError& error : errors.errors()) out.push_back(error.error.Error());
  return out;
}

Lines Meta(std::string_view yaml, NameRule rule = NameRule::kDns1123Subdomain, bool namespaced = true) {
  const doc::Node meta = Read(yaml);
  ObjectErrors errors;
  ValidateObjectMeta(&meta, namespaced, rule, Path("metadata"), &errors);
  return Texts(errors);
}

constexpr std::string_view kLabelValueMessage =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start "
    "and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation "
    "is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

TEST(ValidateObjectMetaTest, AcceptsAPlainObject) {
  EXPECT_EQ(Meta("name: llama-node-0\nnamespace: ml\nlabels: {app: llama, x.io/y: ''}\nannotations: {A/B: c}\n"),
            Lines{});
}

TEST(ValidateObjectMetaTest, NameFollowsTheKindsRule) {
  EXPECT_EQ(Meta("name: Llama\n"),
            Lines{std::string("metadata.name: Invalid value: \"Llama\": ") + std::string(kDns1123SubdomainMessage)});
  EXPECT_EQ(Meta("name: a.b\n", NameRule::kDns1123Label), Lines{"metadata.name: Invalid value: \"a.b\": must not contain dots"});
  EXPECT_EQ(Meta("name: 1a\n", NameRule::kDns1035Label),
            Lines{"metadata.name: Invalid value: \"1a\": a DNS-1035 label must consist of lower case alphanumeric "
                  "characters or '-', start with an alphabetic character, and end with an alphanumeric character "
                  "(e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"});
  EXPECT_EQ(Meta("namespace: ml\n"), Lines{"metadata.name: Required value: name or generateName is required"});
}

TEST(ValidateObjectMetaTest, GenerateNameIsAPrefix) {
  // A trailing dash is allowed (maskTrailingDash); the generated name is
  // not known, so only the prefix is checked.
  EXPECT_EQ(Meta("generateName: llama-\n"), Lines{});
  EXPECT_EQ(Meta("generateName: Llama-\n"),
            Lines{std::string("metadata.generateName: Invalid value: \"Llama-\": ") +
                  std::string(kDns1123SubdomainMessage)});
}

TEST(ValidateObjectMetaTest, NamespaceIsALabel) {
  EXPECT_EQ(Meta("name: a\nnamespace: My_NS\n"),
            Lines{std::string("metadata.namespace: Invalid value: \"My_NS\": ") + std::string(kDns1123LabelMessage)});
  EXPECT_EQ(Meta("name: a\nnamespace: ml\n", NameRule::kDns1123Subdomain, false),
            Lines{"metadata.namespace: Forbidden: not allowed on this type"});
}

// TestValidateLabels: bad keys and bad values, reported at the map's path.
TEST(ValidateLabelsTest, KeysAreQualifiedNamesValuesLabelValues) {
  const doc::Node labels = Read("'nospecialchars^=@': a\n'a/b/c': d\ngood: -bad\n");
  ObjectErrors errors;
  ValidateLabels(&labels, Path("metadata.labels"), &errors);
  const Lines texts = Texts(errors);
  ASSERT_EQ(texts.size(), 3u);
  EXPECT_EQ(texts[0],
            "metadata.labels: Invalid value: \"nospecialchars^=@\": name part must consist of alphanumeric characters, "
            "'-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
            "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')");
  EXPECT_TRUE(texts[1].starts_with("metadata.labels: Invalid value: \"a/b/c\": a valid label key must consist of"));
  EXPECT_EQ(texts[2], std::string("metadata.labels: Invalid value: \"-bad\": ") + std::string(kLabelValueMessage));
}

TEST(ValidateLabelsTest, ValuesAreAtMost63Characters) {
  const doc::Node labels = Read("a: " + std::string(64, 'x') + "\n");
  ObjectErrors errors;
  ValidateLabels(&labels, Path("metadata.labels"), &errors);
  EXPECT_EQ(Texts(errors), Lines{"metadata.labels: Invalid value: \"" + std::string(64, 'x') +
                                 "\": must be no more than 63 characters"});
}

TEST(ValidateAnnotationsTest, KeysIgnoreCaseAndTheTotalIsBounded) {
  const doc::Node ok = Read("Example.COM/Key: v\n");
  ObjectErrors none;
  ValidateAnnotations(&ok, Path("metadata.annotations"), &none);
  EXPECT_TRUE(none.empty());
  const doc::Node big = Read("a: " + std::string(256 * 1024, 'x') + "\n");
  ObjectErrors errors;
  ValidateAnnotations(&big, Path("metadata.annotations"), &errors);
  EXPECT_EQ(Texts(errors), Lines{"metadata.annotations: Too long: may not be more than 262144 bytes"});
}

}  // namespace
}  // namespace tjr::admission
