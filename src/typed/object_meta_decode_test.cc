#include "typed/object_meta_decode.h"

#include <gtest/gtest.h>

#include "json/json.h"

namespace tjr::typed {
namespace {

doc::Node Object(std::string_view metadata_json) {
  Result<doc::Node> node =
      json::Read("{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": " + std::string(metadata_json) + "}",
                 "o.json");
  EXPECT_TRUE(node.ok()) << node.error().ToString();
  return node.ok() ? *node : doc::Node();
}

std::string KubectlError(std::string_view metadata_json) {
  std::optional<Diagnostic> error = DecodeObjectMeta(Object(metadata_json), MetadataDecoder::kKubectl);
  return error ? error->ToString() : "";
}

// kubectl v1.32.4, `kubectl patch --local -f OBJECT ...` on the same
// metadata: "error: unable to decode "OBJECT": " and then these texts.
TEST(DecodeObjectMetaTest, KubectlTextsForWrongTypes) {
  EXPECT_EQ(KubectlError(R"({"name": "p", "labels": {"version": 1}})"),
            "o.json:1:85: error: metadata.labels.version: json: cannot unmarshal number into Go struct field "
            "ObjectMeta.metadata.labels of type string");
  EXPECT_EQ(KubectlError(R"({"name": "p", "labels": ["a"]})"),
            "o.json:1:73: error: metadata.labels: json: cannot unmarshal array into Go struct field "
            "ObjectMeta.metadata.labels of type map[string]string");
  EXPECT_EQ(KubectlError(R"({"name": "p", "generation": 1.5})"),
            "o.json:1:77: error: metadata.generation: json: cannot unmarshal number 1.5 into Go struct field "
            "ObjectMeta.metadata.generation of type int64");
  EXPECT_EQ(KubectlError(R"({"name": "p", "annotations": {"a": true}})"),
            "o.json:1:84: error: metadata.annotations.a: json: cannot unmarshal bool into Go struct field "
            "ObjectMeta.metadata.annotations of type string");
  EXPECT_EQ(KubectlError("5"),
            "o.json:1:49: error: metadata: json: cannot unmarshal number into Go struct field "
            "metadataOnlyObject.metadata of type v1.ObjectMeta");
  EXPECT_EQ(KubectlError(R"({"name": "p", "ownerReferences": [{"uid": 5}]})"),
            "o.json:1:91: error: metadata.ownerReferences[0].uid: json: cannot unmarshal number into Go struct "
            "field OwnerReference.metadata.ownerReferences.uid of type types.UID");
  EXPECT_EQ(KubectlError(R"({"name": "p", "creationTimestamp": "bad"})"),
            "o.json:1:84: error: metadata.creationTimestamp: parsing time \"bad\" as "
            "\"2006-01-02T15:04:05Z07:00\": cannot parse \"bad\" as \"2006\"");
}

TEST(DecodeObjectMetaTest, FirstErrorInSortedKeyOrder) {
  // kubectl's YAML-to-JSON conversion sorts keys: annotations before labels.
  EXPECT_NE(KubectlError(R"({"name": "p", "labels": {"a": 1}, "annotations": {"b": 2}})")
                .find("ObjectMeta.metadata.annotations of type string"),
            std::string::npos);
}

TEST(DecodeObjectMetaTest, KeysAreCaseSensitiveAndNullsFine) {
  // sigs.k8s.io/json: "Labels" is an unknown field, ignored; null is no value.
  EXPECT_EQ(KubectlError(R"({"name": "p", "Labels": {"a": 1}, "labels": {"b": null}})"), "");
  EXPECT_EQ(KubectlError(R"({"name": "p", "labels": {"a": "1"}, "generation": 9007199254740993})"), "");
  EXPECT_FALSE(DecodeObjectMeta(Object("null"), MetadataDecoder::kKubectl).has_value());
}

// apiextensions-apiserver decodes `metadata` on its own: the struct
// context starts at ObjectMeta.
TEST(DecodeObjectMetaTest, CustomResourceHandlerTexts) {
  std::optional<Diagnostic> error =
      DecodeObjectMeta(Object(R"({"name": "p", "labels": {"version": 1}})"), MetadataDecoder::kCustomResourceHandler,
                       "kubernetes-v1.36");
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->message, "json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string");
  EXPECT_EQ(error->field_path, "metadata.labels.version");
  error = DecodeObjectMeta(Object("[1]"), MetadataDecoder::kCustomResourceHandler);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->message, "json: cannot unmarshal array into Go value of type v1.ObjectMeta");
  EXPECT_EQ(error->field_path, "metadata");
}

}  // namespace
}  // namespace tjr::typed
